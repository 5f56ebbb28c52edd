/**
 * The simulated identity app of a verification that has been completed: nothing left to do.
 * @see spec part 1 (the mobile identity app)
 */
import type { EmulatorContext } from '../../context';
import { relyingPartyHome } from '../../identity-app/links';
import type { UsedFlow } from '../../state';
import { AUTHORIZATION_MESSAGES } from '../authorization-messages';
import { APP_MESSAGES } from '../app-messages';
import { html } from '../html';
import type { PageLanguage } from '../language';
import { CHECK, standalonePage } from './app-page';

/**
 * The app of an interaction that has been completed (a phone reloading afterwards, or this
 * browser's Back button from the relying party's result): with a link back to the relying party
 * while the completion is remembered (identity-app/used-flows.ts).
 */
export function appFinishedPage(context: EmulatorContext, language: PageLanguage, used?: UsedFlow): Response {
  const t = APP_MESSAGES[language.locale];
  const client = used ? context.clients.get(used.clientId) : undefined;
  const clientName = client ? (client.name ?? client.clientId) : undefined;
  const words = AUTHORIZATION_MESSAGES[language.locale];
  const content = html`
<div class="result" data-testid="app-finished">
<span class="circle ok">${CHECK('currentColor', 44)}</span>
<h1>${t.complete}</h1>
<p class="lead">${t.completeLead}</p>
${
  used && clientName
    ? html`<p class="lead" data-testid="used-flow">${words.usedLead(clientName)}</p>
<a class="btn primary finished-back" href="${relyingPartyHome(used)}" data-testid="back-to-client">${words.backToClient(clientName)}</a>`
    : ''
}
</div>`;
  return standalonePage(context, language, { status: 200, title: t.completeTitle, content });
}
