/**
 * The authorization endpoint ({flow_url}/auth, 4.2), where the user's browser arrives with
 * `client_id` and `request_uri` and is handed to the simulated mobile identity app.
 *
 * GET consumes the pushed request, opens an interaction and shows the "continue in the app" page
 * (a QR code for a phone, a button for this device, and a one-step quick test). POST is that
 * quick test's form. Both the quick test and the app (endpoints/identity-app.ts) end the
 * interaction with the decision logic of identity-app/decision.ts: `decide`, then
 * `completeInteraction`, which redirects to the client with `code`, `state` and `iss` on approval, `error=access_denied`
 * on cancellation or failed verification. Errors before the redirect URI is known are shown as
 * a page (RFC 6749 §4.1.2.1), never redirected.
 *
 * The code may only ever be redirected to the browser that started the verification: it holds
 * the interaction's `browserSecret`, which is only in the page GET /auth returned. The
 * interaction id alone (it is in the QR code) is not enough to receive the redirect.
 * @see spec part 1 (steps 3–6), 4.2; RFC 9126 §4; RFC 9207
 */
import { rulesAt, type Levelled } from '../checks/levels';
import { onlyListedParameters, queryParameters, readFormBody, type RequestParameters } from '../checks/request-parameters';
import { LIFETIMES } from '../config';
import type { EmulatorContext } from '../context';
import { InvalidRequest, InvalidRequestUri, describeValue } from '../errors';
import type { EmulatorEventMap } from '../events';
import { completeInteraction, decide } from '../identity-app/decision';
import { findInteraction, interactionClient, requireStartingBrowser } from '../identity-app/interaction';
import { authorizationPageLink } from '../identity-app/links';
import { rememberUsedRequestUri, usedRequestUri } from '../identity-app/used-flows';
import { initialProgress } from '../identity-app/steps';
import { findPersona } from '../personas/personas';
import { flowAnswerFor } from '../qa/choose-flow-answer';
import { randomToken, type Interaction } from '../state';
import { interactionPage, withErrorPage } from '../views/authorization-page';
import type { AuthorizationMessages } from '../views/authorization-messages';
import { pageLanguage, pathOf } from '../views/language';

/** 4.2: the query parameters of GET /auth. */
const QUERY_PARAMETERS = ['client_id', 'request_uri'] as const;

/**
 * The query's rules, each with its level (checks/levels.ts); a failure is the `invalid_request`
 * error page. The client and the request_uri are looked up after these.
 */
const QUERY_RULES: readonly Levelled<(parameters: RequestParameters) => void>[] = [
  ['every', (parameters) => QUERY_PARAMETERS.forEach((name) => parameters.require(name))],
  ['strict', (parameters) => onlyListedParameters(parameters, QUERY_PARAMETERS, 'spec 4.2')],
];

/**
 * Handles GET /auth?client_id=…&request_uri=…: the request_uri must exist, be unexpired and
 * belong to that client; it is then consumed (one use, RFC 9126 §7.3), an interaction opened,
 * and the "continue in the app" page shown. At the strict level no other query parameter is taken.
 * @see spec 4.2; RFC 9126 §4
 */
export function authorizationEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  return withErrorPage(request, context, async (hints) => {
    const parameters = queryParameters(new URL(request.url));
    for (const rule of rulesAt(QUERY_RULES, await context.strict())) rule(parameters);
    const clientId = parameters.require('client_id');
    const requestUri = parameters.require('request_uri');

    const client = context.clients.get(clientId);
    if (!client) throw new InvalidRequest(`client_id ${describeValue(clientId)} is not registered`).because('unknown_client');

    const pushed = await context.pushedRequests.get(requestUri);
    if (!pushed) {
      const used = await usedRequestUri(context, requestUri);
      throw used || (await context.pushedRequests.wasTaken(requestUri))
        ? new InvalidRequestUri('request_uri has already been used; push a new authorization request').because('request_uri_used').usedBy(used)
        : new InvalidRequestUri('request_uri is unknown or has expired; push a new authorization request').because('request_uri_unknown');
    }
    // Checked before consuming, so a request_uri presented with the wrong client stays usable.
    if (pushed.clientId !== clientId) {
      throw new InvalidRequestUri(`request_uri was not issued to client ${describeValue(clientId)}`).because('request_uri_other_client');
    }
    hints.uiLocales = pushed.request.uiLocales;
    // HEAD (a link preview, a prefetch) must not use up the one-time request_uri.
    if (request.method.toUpperCase() === 'HEAD') {
      return new Response(null, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
    }
    // Consumed atomically: of two requests racing with one request_uri, one opens the interaction.
    if (!(await context.pushedRequests.take(requestUri))) {
      throw new InvalidRequestUri('request_uri has already been used; push a new authorization request').because('request_uri_used');
    }
    await rememberUsedRequestUri(context, requestUri, clientId, pushed.request.redirectUri);

    const interactionId = randomToken();
    // An answer QA chose for this flow before it had pages (an error a relying party's "again" kept).
    const starting: EmulatorEventMap['interaction.starting'] = { clientId, state: pushed.request.state };
    await context.events.emit('interaction.starting', starting);
    const interaction: Interaction = {
      clientId,
      request: pushed.request,
      browserSecret: randomToken(),
      expiresAt: context.now() + LIFETIMES.interaction * 1000,
      app: initialProgress(),
      ...(starting.answer ? { answer: starting.answer } : {}),
    };
    await context.interactions.set(interactionId, interaction, LIFETIMES.interaction);
    await context.events.emit('interaction.started', {
      clientId,
      state: pushed.request.state,
      requestUri,
      ...(pushed.request.uiLocales === undefined ? {} : { uiLocales: pushed.request.uiLocales }),
    });
    return interactionPage(context, pageLanguage(request, context, hints), {
      client,
      interactionId,
      interaction,
      qa: await flowAnswerFor(request, context, interaction),
    });
  });
}

/**
 * Handles POST /auth, the quick test's form (`interaction`, `browser`, `persona`, `outcome`):
 * approve → 303 to the redirect URI with a one-time code; cancel or failed verification → 303
 * with `access_denied`. A missing or unknown persona or outcome re-renders the page (400) and
 * keeps the interaction open. Only the starting browser may post it (`browser`, the secret in
 * the page), since the answer carries the code.
 * @see spec 4.2; RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 §2
 */
export function authorizationDecisionEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  return withErrorPage(request, context, async (hints) => {
    const parameters = await readFormBody(request);
    const interactionId = parameters.require('interaction');
    // The switch of an error page comes back to the authorization page (GET /auth/page), which
    // checks the secret again; a form post cannot be repeated.
    const browser = parameters.get('browser');
    if (browser !== undefined) hints.returnTo = pathOf(authorizationPageLink(context, interactionId, browser));
    const interaction = await findInteraction(context, interactionId);
    hints.uiLocales = interaction.request.uiLocales;
    requireStartingBrowser(interaction, parameters.require('browser'));
    const client = interactionClient(context, interaction);

    const outcome = parameters.get('outcome');
    const personaId = parameters.get('persona');
    const language = pageLanguage(request, context, hints);
    const qa = await flowAnswerFor(request, context, interaction);
    const rerender = (message: (t: AuthorizationMessages) => string, status = 400) =>
      interactionPage(context, language, { client, interactionId, interaction, selectedPersonaId: personaId, message, status, qa });

    if (interaction.decision) return rerender((t) => t.alreadyFinished, 409);
    if (outcome === 'cancel') return await completeInteraction(context, interactionId, decide(context, interaction, { outcome: 'cancel' }));
    if (outcome !== 'approve') return rerender((t) => t.chooseOutcome);

    const persona = personaId === undefined ? undefined : findPersona(personaId);
    if (!persona) return rerender((t) => (personaId === undefined ? t.choosePersona : t.unknownPersona));
    return await completeInteraction(context, interactionId, decide(context, interaction, { outcome: 'approve', persona }));
  });
}
