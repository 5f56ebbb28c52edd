/**
 * The simulated identity app on a phone the computer has not confirmed yet: the code to type
 * there.
 * @see spec part 1 (steps 4–6); DECISIONS.md "The phone's confirmation"
 */
import type { EmulatorContext } from '../../context';
import { appLink } from '../../identity-app/links';
import type { AppMessages } from '../app-messages';
import { html } from '../html';
import { alert, appPage, words, type ScreenOptions } from './app-page';

/**
 * A phone that opened the QR link, before the computer confirms it: the code to type there
 * (identity-app/phone-confirmation.ts), and "Continue", which opens the app's first step once the
 * computer has confirmed this phone (and shows this screen again, saying so, until then). No step,
 * no cancel: this phone may not act on the verification yet.
 * @param options.code the code as it is shown ("BCD-FGH")
 * @param options.message why the screen is shown again (with `status`)
 */
export function appConfirmPage(
  context: EmulatorContext,
  options: ScreenOptions & { code: string; message?: (t: AppMessages) => string; status: number },
): Response {
  const { t } = words(options);
  const content = html`
<div class="confirm" data-testid="app-confirm">
<h1>${t.confirmHeading}</h1>
<p class="lead">${t.confirmLead}</p>
<p class="pairing-code"><span class="visually-hidden">${t.yourCode}: </span><strong data-testid="phone-code">${options.code}</strong></p>
<p class="fine">${t.confirmWhy} ${t.confirmThen}</p>
${alert(options.message?.(t))}
</div>
<div class="actions"><a class="btn primary" href="${appLink(context, options.interactionId, options.mode, 'document')}" data-testid="continue">${t.continue}</a></div>`;
  return appPage(context, { ...options, status: options.status, title: t.confirmTitle, content, cancellable: false });
}
