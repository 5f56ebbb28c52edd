/**
 * The simulated identity app after its decision: on another device "return to your computer", on
 * the starting browser the way on to the client.
 * @see spec part 1 (steps 4–6)
 */
import type { EmulatorContext } from '../../context';
import { continueLink } from '../../identity-app/links';
import { html } from '../html';
import { CHECK, CROSS, appPage, clientName, words, type ScreenOptions } from './app-page';

/**
 * After the app decided on another device: "Done — return to your computer". On the starting
 * browser itself (it has the secret), a link continues to the client instead.
 */
export function appDonePage(context: EmulatorContext, options: ScreenOptions): Response {
  const { t, shared } = words(options);
  const decision = options.interaction.decision;
  const approved = decision?.outcome === 'approved';
  const name = clientName(options.client);
  const next = options.mode.sameDevice
    ? html`<div class="actions"><a class="btn primary" href="${continueLink(context, options.interactionId, options.mode.browserSecret)}" data-testid="continue-to-client">${t.continueTo(name)}</a></div>`
    : '';
  const content = html`
<div class="result" data-testid="app-done">
<span class="circle ${approved ? 'ok' : 'stop'}">${approved ? CHECK('currentColor', 44) : CROSS('currentColor', 40)}</span>
<h1>${options.mode.sameDevice ? t.done : t.doneElsewhere}</h1>
<p class="lead">${
    options.mode.sameDevice
      ? approved
        ? t.receivesWhenYouContinue(name)
        : t.learnsWhenYouContinue(name)
      : approved
        ? t.continueOnComputer(name)
        : t.nothingWasShared(name)
  }</p>
${decision?.outcome === 'denied' ? html`<p class="fine">${t.reason(shared.denialReason(decision.error))}</p>` : ''}
${options.mode.sameDevice ? '' : html`<p class="fine">${t.closeApp}</p>`}
</div>
${next}`;
  return appPage(context, { ...options, status: 200, title: t.done, content, cancellable: false });
}
