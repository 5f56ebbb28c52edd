/**
 * A phone refused the simulated identity app of a verification: another phone was confirmed, or
 * the hand-off is locked.
 * @see spec part 1 (steps 4–6); DECISIONS.md "The phone's confirmation"
 */
import type { EmulatorContext } from '../../context';
import { APP_MESSAGES } from '../app-messages';
import { html } from '../html';
import type { PageLanguage } from '../language';
import { CROSS, standalonePage } from './app-page';

/**
 * A phone that may not use the app of this verification, never the app itself: the computer
 * confirmed another phone (`elsewhere`, 409), or too many wrong codes were typed there (`locked`,
 * 403). Nothing of the verification is shown.
 */
export function appHandOffRefusedPage(context: EmulatorContext, language: PageLanguage, status: number, reason: 'elsewhere' | 'locked'): Response {
  const t = APP_MESSAGES[language.locale];
  const [title, heading, lead] =
    reason === 'elsewhere' ? [t.elsewhereTitle, t.elsewhereHeading, t.elsewhereLead] : [t.lockedTitle, t.lockedHeading, t.lockedLead];
  const content = html`
<div class="result" data-testid="app-${reason}">
<span class="circle stop">${CROSS('currentColor', 40)}</span>
<h1>${heading}</h1>
<p class="lead">${lead}</p>
<p class="fine">${t.closeApp}</p>
</div>`;
  return standalonePage(context, language, { status, title, content });
}
