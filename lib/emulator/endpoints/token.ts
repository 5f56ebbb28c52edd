/**
 * POST /token: exchanges an authorization code for the encrypted ID token.
 * @see spec 2.5, 4.3, 5.1; RFC 6749 §4.1.3, §5; RFC 7636 §4.6
 */
import { authenticateClient, clientAssertionHeader } from '../checks/client-authentication';
import { isCodeVerifier, verifyCodeVerifier } from '../checks/pkce';
import { rulesAt, type Levelled } from '../checks/levels';
import { onlyListedParameters, readFormBody, type RequestParameters } from '../checks/request-parameters';
import { TOKEN_TIMEOUT_DELAY_MS, type TokenResponseFault } from '../answer-faults';
import { LIFETIMES } from '../config';
import type { EmulatorContext } from '../context';
import { InvalidClient, InvalidGrant, InvalidRequest, OAuthError, ServerError, UnsupportedGrantType, describeValue } from '../errors';
import type { IssuedIdToken } from '../events';
import { holdResponse } from './hold-response';
import { findPersona } from '../personas/personas';
import type { AuthorizationCodeGrant } from '../state';
import { issueIdToken } from '../tokens/id-token';

/** 4.3: every parameter is required. */
const REQUIRED_PARAMETERS = ['client_id', 'client_assertion_type', 'client_assertion', 'grant_type', 'code', 'code_verifier', 'redirect_uri'] as const;

/**
 * The form's rules, before the client is authenticated, each with its level (checks/levels.ts).
 * The grant is checked after these.
 */
const FORM_RULES: readonly Levelled<(parameters: RequestParameters) => void>[] = [
  ['every', (parameters) => REQUIRED_PARAMETERS.forEach((name) => parameters.require(name))],
  ['strict', (parameters) => onlyListedParameters(parameters, REQUIRED_PARAMETERS, 'spec 4.3')],
];

/**
 * Handles POST /token. Success: 200 `{ id_token, expires_in }` (the two members of 2.5).
 * The code is consumed as soon as an authenticated client presents it, so a failed attempt
 * cannot be followed by a corrected one (RFC 6749 §4.1.2: a code is used at most once).
 * Token response faults (answer-faults.ts) apply only once every check has passed, when a listener
 * of `token.answering` asks for them (events.ts); the answer to a code found is told
 * (`token.answered`).
 * @see spec 2.5, 4.3
 */
export async function tokenEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  const parameters = await readFormBody(request);
  // The level, read once for every check of this request and for the token's shape.
  const strict = await context.strict();
  for (const rule of rulesAt(FORM_RULES, strict)) rule(parameters);
  const grantType = parameters.require('grant_type');
  const code = parameters.require('code');
  const codeVerifier = parameters.require('code_verifier');
  const redirectUri = parameters.require('redirect_uri');

  const client = await authenticateClient(parameters, context, strict);
  const assertion = clientAssertionHeader(parameters);

  if (grantType !== 'authorization_code') {
    throw new UnsupportedGrantType(`grant_type must be 'authorization_code', not ${describeValue(grantType)}`);
  }
  if (!isCodeVerifier(codeVerifier)) {
    throw new InvalidRequest("code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_' and '~'");
  }

  const grant = await context.authorizationCodes.take(code);
  if (!grant) {
    throw new InvalidGrant(
      (await context.authorizationCodes.wasTaken(code)) ? 'the authorization code has already been used' : 'the authorization code is unknown or has expired',
    );
  }
  // From here the flow is known (its code's `state`): what is answered is told.
  const outcome: TokenOutcome = { faults: new Set() };
  try {
    const response = await redeem(request, context, grant, { clientId: client.clientId, redirectUri, codeVerifier, strict }, outcome);
    await context.events.emit('token.answered', { grant, assertion, ...outcome, response });
    return response;
  } catch (error) {
    if (error instanceof OAuthError) await context.events.emit('token.answered', { grant, assertion, ...outcome, response: error.toResponse(), error });
    throw error;
  }
}

/** What the token endpoint did to one request: the faults it made, how long it held the answer, the token it issued. */
interface TokenOutcome {
  faults: ReadonlySet<TokenResponseFault>;
  heldMs?: number;
  issued?: IssuedIdToken;
}

/**
 * The checks of a presented code against the authenticated client and the request, then the
 * answer: the ID token, or what a token endpoint fault makes of it. Fills `outcome` as it goes.
 */
async function redeem(
  request: Request,
  context: EmulatorContext,
  grant: AuthorizationCodeGrant,
  { clientId, redirectUri, codeVerifier, strict }: { clientId: string; redirectUri: string; codeVerifier: string; strict: boolean },
  outcome: TokenOutcome,
): Promise<Response> {
  if (grant.clientId !== clientId) {
    throw new InvalidGrant(`the authorization code was not issued to client '${clientId}'`);
  }
  if (grant.redirectUri !== redirectUri) {
    throw new InvalidGrant('redirect_uri does not match the redirect_uri of the authorization request');
  }
  if (!(await verifyCodeVerifier(codeVerifier, grant.codeChallenge))) {
    throw new InvalidGrant('code_verifier does not match the code_challenge of the authorization request');
  }

  const persona = findPersona(grant.personaId);
  if (!persona) throw new Error(`persona '${grant.personaId}' of a stored code no longer exists`);

  // A token response fault spoils this response, which would succeed; a fault that answers without
  // an ID token mints none, so ID token faults stay armed.
  const faults = new Set<TokenResponseFault>();
  await context.events.emit('token.answering', { clientId, state: grant.state, faults });
  outcome.faults = faults;
  if (faults.has('token_error')) {
    throw new ServerError("injected fault 'token_error' (emulator QA panel): the token endpoint failed on purpose");
  }
  if (faults.has('token_timeout')) {
    const heldFrom = Date.now();
    const held = await holdResponse(TOKEN_TIMEOUT_DELAY_MS, request.signal);
    outcome.heldMs = Date.now() - heldFrom;
    if (!held) {
      // The client gave up (as it should, after its own timeout). Nobody reads this answer, and no
      // ID token is minted, so armed ID token faults stay armed for a flow that will see them.
      throw new ServerError("injected fault 'token_timeout' (emulator QA panel): the client closed the request while it was held");
    }
  }

  if (faults.has('token_invalid_grant')) {
    throw new InvalidGrant("injected fault 'token_invalid_grant' (emulator QA panel): the code was refused on purpose");
  }
  if (faults.has('token_invalid_client')) {
    throw new InvalidClient("injected fault 'token_invalid_client' (emulator QA panel): the client was refused on purpose");
  }
  const headers = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  if (faults.has('token_not_json')) {
    // What a misrouted request may meet: a proxy's or a portal's page, with 200.
    return new Response('<!doctype html>\n<html lang="en"><head><title>Service</title></head><body><p>Welcome</p></body></html>\n', {
      status: 200,
      headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' },
    });
  }
  if (faults.has('token_missing_id_token')) return Response.json({ expires_in: LIFETIMES.idToken }, { status: 200, headers });

  outcome.issued = await issueIdToken(context, context.clients.get(clientId)!, grant, persona, { strict });
  // `no_expires_in`: RFC 6749 §5.1 makes expires_in optional; 2.5 shows it.
  return Response.json(
    { id_token: outcome.issued.idToken, ...(faults.has('no_expires_in') ? {} : { expires_in: LIFETIMES.idToken }) },
    { status: 200, headers },
  );
}
