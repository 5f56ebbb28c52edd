/**
 * The simulated identity app of a verification that has been completed: nothing left to do.
 * @see spec part 1 (the mobile identity app)
 */
import type { EmulatorContext } from '../../context';
import { APP_MESSAGES } from '../app-messages';
import { html } from '../html';
import type { PageLanguage } from '../language';
import { CHECK, standalonePage } from './app-page';

/** The app of an interaction that has been completed (e.g. a phone reloading afterwards). */
export function appFinishedPage(context: EmulatorContext, language: PageLanguage): Response {
  const t = APP_MESSAGES[language.locale];
  const content = html`
<div class="result" data-testid="app-finished">
<span class="circle ok">${CHECK('#146c43', 44)}</span>
<h1>${t.complete}</h1>
<p class="lead">${t.completeLead}</p>
</div>`;
  return standalonePage(context, language, { status: 200, title: t.completeTitle, content });
}
