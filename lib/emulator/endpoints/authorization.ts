/**
 * The authorization endpoint ({flow_url}/auth, 4.2), where the user's browser arrives with
 * `client_id` and `request_uri` and is handed to the simulated mobile identity app.
 *
 * GET consumes the pushed request, opens an interaction and shows the "continue in the app" page
 * (a QR code for a phone, a button for this device, and a one-step quick test). POST is that
 * quick test's form. Both the quick test and the app (app-screens.ts) end the interaction with
 * the decision logic here: `decide`, then `completeInteraction`, which redirects to the client
 * with `code`, `state` and `iss` on approval, `error=access_denied` on cancellation or failed
 * verification. Errors before the redirect URI is known are shown as a page (RFC 6749
 * §4.1.2.1), never redirected.
 *
 * The code may only ever be redirected to the browser that started the verification: it holds
 * the interaction's `browserSecret`, which is only in the page GET /auth returned. The
 * interaction id alone (it is in the QR code) is not enough to receive the redirect.
 * @see spec part 1 (steps 3–6), 4.2; RFC 9126 §4; RFC 9207
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { base64url } from 'jose';
import { initialProgress } from '../interaction/steps';
import { errorPage, interactionPage } from '../views/authorization-page';
import type { RegisteredClient } from '../clients';
import { LIFETIMES } from '../config';
import { nowSeconds, type EmulatorContext, type Interaction, type InteractionDecision } from '../context';
import { AccessDenied, InvalidRequest, InvalidRequestUri, OAuthError, describeValue } from '../errors';
import { queryParameters, readFormBody } from '../checks/request-parameters';
import { findPersona, type Persona } from '../personas/personas';

/** A random, unguessable identifier: 32 bytes, base64url (RFC 6749 §10.10). */
export function randomToken(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * Turns an error into the error page; the router handles anything that is not an OAuthError
 * (and 5xx errors, which are not the user's to fix).
 */
export async function withErrorPage(context: EmulatorContext, handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof OAuthError && !error.redirectable && error.status < 500) return errorPage(context, error);
    throw error;
  }
}

/**
 * The open interaction with this id.
 * @throws InvalidRequest (400) when it is unknown, expired or already completed
 */
export function findInteraction(context: EmulatorContext, interactionId: string): Interaction {
  const interaction = context.interactions.get(interactionId);
  if (!interaction) {
    throw new InvalidRequest(
      context.interactions.wasTaken(interactionId)
        ? 'this verification has already been completed'
        : 'this verification is unknown or has expired; start again from the application',
    );
  }
  return interaction;
}

/**
 * Whether `presented` is the interaction's browser secret. Compared in constant time (over
 * SHA-256 digests, so neither the content nor the length of the secret leaks through timing).
 */
function isStartingBrowser(interaction: Interaction, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(interaction.browserSecret), digest(presented));
}

/** @throws InvalidRequest (403) unless `presented` is the interaction's browser secret */
export function requireStartingBrowser(interaction: Interaction, presented: string): void {
  if (!isStartingBrowser(interaction, presented)) {
    throw new InvalidRequest(
      'the browser secret does not match: only the browser that started this verification can continue it',
      403,
    );
  }
}

/** The client of an interaction (clients are fixed for an emulator's lifetime). */
export function interactionClient(context: EmulatorContext, interaction: Interaction): RegisteredClient {
  const client = context.clients.get(interaction.clientId);
  // Unreachable: registrations cannot be removed. The router reports it as a server_error.
  if (!client) throw new Error(`client '${interaction.clientId}' of an interaction no longer exists`);
  return client;
}

/**
 * Handles GET /auth?client_id=…&request_uri=…: the request_uri must exist, be unexpired and
 * belong to that client; it is then consumed (one use, RFC 9126 §7.3), an interaction opened,
 * and the "continue in the app" page shown.
 * @see spec 4.2; RFC 9126 §4
 */
export function authorizationEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  return withErrorPage(context, async () => {
    const parameters = queryParameters(new URL(request.url));
    const clientId = parameters.require('client_id');
    const requestUri = parameters.require('request_uri');

    const client = context.clients.get(clientId);
    if (!client) throw new InvalidRequest(`client_id ${describeValue(clientId)} is not registered`);

    const pushed = context.pushedRequests.get(requestUri);
    if (!pushed) {
      throw new InvalidRequestUri(
        context.pushedRequests.wasTaken(requestUri)
          ? 'request_uri has already been used; push a new authorization request'
          : 'request_uri is unknown or has expired; push a new authorization request',
      );
    }
    // Checked before consuming, so a request_uri presented with the wrong client stays usable.
    if (pushed.clientId !== clientId) {
      throw new InvalidRequestUri(`request_uri was not issued to client ${describeValue(clientId)}`);
    }
    // HEAD (a link preview, a prefetch) must not use up the one-time request_uri.
    if (request.method.toUpperCase() === 'HEAD') {
      return new Response(null, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
    }
    context.pushedRequests.take(requestUri);

    const interactionId = randomToken();
    const interaction: Interaction = {
      clientId,
      request: pushed.request,
      browserSecret: randomToken(),
      app: initialProgress(),
    };
    context.interactions.set(interactionId, interaction, LIFETIMES.interaction);
    return interactionPage(context, { client, interactionId, interaction });
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
  return withErrorPage(context, async () => {
    const parameters = await readFormBody(request);
    const interactionId = parameters.require('interaction');
    const interaction = findInteraction(context, interactionId);
    requireStartingBrowser(interaction, parameters.require('browser'));
    const client = interactionClient(context, interaction);

    const outcome = parameters.get('outcome');
    const personaId = parameters.get('persona');
    const rerender = (message: string, status = 400) =>
      interactionPage(context, { client, interactionId, interaction, selectedPersonaId: personaId, message, status });

    if (interaction.decision) {
      return rerender('You already finished in the identity app on your phone. Choose "I\'ve finished on my phone" to continue.', 409);
    }
    if (outcome === 'cancel') return completeInteraction(context, interactionId, decide(context, interaction, { outcome: 'cancel' }));
    if (outcome !== 'approve') return rerender('Choose "Verify and share" or "Cancel".');

    const persona = personaId === undefined ? undefined : findPersona(personaId);
    if (!persona) return rerender(personaId === undefined ? 'Choose a persona.' : 'That persona does not exist; choose one from the list.');
    return completeInteraction(context, interactionId, decide(context, interaction, { outcome: 'approve', persona }));
  });
}

/**
 * The user's decision, checked: approving a persona whose verification passes is approval (at
 * this moment, the `auth_time`); cancelling, or approving one whose verification fails, is
 * `access_denied` with the reason.
 * @see spec part 1, 2.6 `auth_time`; RFC 6749 §4.1.2.1
 */
export function decide(
  context: EmulatorContext,
  interaction: Interaction,
  choice: { outcome: 'cancel' } | { outcome: 'approve'; persona: Persona },
): InteractionDecision {
  if (choice.outcome === 'cancel') {
    return { outcome: 'denied', error: new AccessDenied('the user cancelled the verification') };
  }
  const failure = verificationFailure(choice.persona, interaction);
  if (failure) return { outcome: 'denied', error: failure };
  return { outcome: 'approved', personaId: choice.persona.id, authTime: nowSeconds(context) };
}

/**
 * Why verification of this persona fails, if it does: the face check, and the issuer check that
 * the standard_etsi trust framework requires (2.3: "The issuer check must be valid").
 * @see spec part 1, 2.3 trust framework values
 */
export function verificationFailure(persona: Persona, interaction: Interaction): AccessDenied | undefined {
  if (persona.faceCheck === 'fail') {
    return new AccessDenied('the face check failed: the face did not match the portrait on the document');
  }
  const issuerCheck = persona.document.issuer_check?.valid;
  if (interaction.request.claims.trustFramework === 'standard_etsi' && issuerCheck !== 'VALID') {
    return new AccessDenied(
      `the standard_etsi trust framework requires a valid issuer check, and the document's issuer check is ${issuerCheck ?? 'not available'}`,
    );
  }
  return undefined;
}

/**
 * Ends the interaction (once: a second call finds it taken) and delivers the decision to the
 * client: a new one-time code on approval, `access_denied` otherwise. The caller has checked that
 * the request comes from the starting browser.
 * @throws InvalidRequest when the interaction was completed meanwhile
 * @see spec 4.2; RFC 6749 §4.1.2
 */
export function completeInteraction(context: EmulatorContext, interactionId: string, decision: InteractionDecision): Response {
  const interaction = context.interactions.get(interactionId);
  if (!interaction) throw new InvalidRequest('this verification has already been completed');
  if (decision.outcome === 'denied') {
    context.interactions.take(interactionId);
    return redirectToClient(context, interaction, { error: decision.error });
  }

  // Issued only now, at delivery: a decision taken on a phone may wait for the browser longer
  // than a code lives (60 s). Stored before the interaction is closed, so a full code store
  // (503) leaves the user able to try again.
  const code = randomToken();
  const { request: authorizationRequest } = interaction;
  context.authorizationCodes.set(
    code,
    {
      clientId: interaction.clientId,
      redirectUri: authorizationRequest.redirectUri,
      codeChallenge: authorizationRequest.codeChallenge,
      nonce: authorizationRequest.nonce,
      claims: authorizationRequest.claims,
      personaId: decision.personaId,
      authTime: decision.authTime,
    },
    LIFETIMES.authorizationCode,
  );
  context.interactions.take(interactionId);
  return redirectToClient(context, interaction, { code });
}

/**
 * 303 to the registered redirect URI of the request, keeping its own query (RFC 6749 §3.1.2),
 * with `state` and `iss` (RFC 9207) on success and on error.
 * @see spec 4.2; RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 §2
 */
function redirectToClient(
  context: EmulatorContext,
  interaction: Interaction,
  result: { code: string } | { error: OAuthError },
): Response {
  const response = new URLSearchParams(
    'code' in result
      ? { code: result.code }
      : { error: result.error.error, error_description: result.error.description },
  );
  response.set('state', interaction.request.state);
  response.set('iss', context.issuer);

  const location = new URL(interaction.request.redirectUri);
  // Appended as text so the registered query is kept byte for byte.
  location.search = location.search ? `${location.search}&${response}` : `?${response}`;
  return new Response(null, {
    status: 303,
    headers: { Location: location.href, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
  });
}
