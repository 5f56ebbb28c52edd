/**
 * The authorization endpoint ({flow_url}/auth, 4.2), where the user's browser arrives with
 * `client_id` and `request_uri` and the simulated identity app runs.
 *
 * GET consumes the pushed request and opens an interaction; POST (the app's form) ends it with
 * a redirect to the client: `code`, `state` and `iss` on approval, `error=access_denied` on
 * cancellation or failed verification. Errors before the redirect URI is known are shown as a
 * page (RFC 6749 §4.1.2.1), never redirected.
 * @see spec part 1 (steps 3–6), 4.2; RFC 9126 §4; RFC 9207
 */
import { base64url } from 'jose';
import { errorPage, interactionPage } from './authorization-page';
import { LIFETIMES } from './config';
import { nowSeconds, type EmulatorContext, type Interaction } from './context';
import { AccessDenied, InvalidRequest, InvalidRequestUri, OAuthError, describeValue } from './errors';
import { queryParameters, readFormBody } from './form';
import { findPersona, type Persona } from './personas';

/** A random, unguessable identifier: 32 bytes, base64url (RFC 6749 §10.10). */
function randomToken(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
}

/** Turns an error into the error page; the router handles anything that is not an OAuthError. */
async function withErrorPage(context: EmulatorContext, handler: () => Promise<Response>): Promise<Response> {
  try {
    return await handler();
  } catch (error) {
    if (error instanceof OAuthError && !error.redirectable && error.status < 500) return errorPage(context, error);
    throw error;
  }
}

/**
 * Handles GET /auth?client_id=…&request_uri=…: the request_uri must exist, be unexpired and
 * belong to that client; it is then consumed (one use, RFC 9126 §7.3) and the identity app shown.
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
    context.pushedRequests.take(requestUri);

    const interactionId = randomToken();
    context.interactions.set(interactionId, { clientId, request: pushed.request }, LIFETIMES.interaction);
    return interactionPage(context, { client, interactionId, request: pushed.request });
  });
}

/**
 * Handles POST /auth, the identity app's form (`interaction`, `persona`, `outcome`):
 * approve → 303 to the redirect URI with a one-time code; cancel or failed verification → 303
 * with `access_denied`. An unknown persona re-renders the app with a message (400).
 * @see spec 4.2; RFC 6749 §4.1.2, §4.1.2.1; RFC 9207 §2
 */
export function authorizationDecisionEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  return withErrorPage(context, async () => {
    const parameters = await readFormBody(request);
    const interactionId = parameters.require('interaction');
    const interaction = context.interactions.get(interactionId);
    if (!interaction) {
      throw new InvalidRequest(
        context.interactions.wasTaken(interactionId)
          ? 'this verification has already been completed'
          : 'this verification is unknown or has expired; start again from the application',
      );
    }
    const client = context.clients.get(interaction.clientId);
    if (!client) throw new Error(`client '${interaction.clientId}' of an interaction no longer exists`);

    const outcome = parameters.get('outcome');
    const personaId = parameters.get('persona');
    const rerender = (message: string) =>
      interactionPage(context, { client, interactionId, request: interaction.request, selectedPersonaId: personaId, message });

    if (outcome === 'cancel') {
      context.interactions.take(interactionId);
      return redirectToClient(context, interaction, {
        error: new AccessDenied('the user cancelled the verification'),
      });
    }
    if (outcome !== 'approve') return rerender('Choose "Verify and share" or "Cancel".');

    const persona = personaId === undefined ? undefined : findPersona(personaId);
    if (!persona) return rerender(personaId === undefined ? 'Choose a persona.' : 'That persona does not exist; choose one from the list.');

    // Taken only now, so a mistake above leaves the interaction open for a corrected attempt.
    if (!context.interactions.take(interactionId)) {
      throw new InvalidRequest('this verification has already been completed');
    }
    const failure = verificationFailure(persona, interaction);
    if (failure) return redirectToClient(context, interaction, { error: failure });

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
        personaId: persona.id,
        authTime: nowSeconds(context),
      },
      LIFETIMES.authorizationCode,
    );
    return redirectToClient(context, interaction, { code });
  });
}

/**
 * Why verification of this persona fails, if it does: the face check, and the issuer check that
 * the standard_etsi trust framework requires (2.3: "The issuer check must be valid").
 * @see spec part 1, 2.3 trust framework values
 */
function verificationFailure(persona: Persona, interaction: Interaction): AccessDenied | undefined {
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
