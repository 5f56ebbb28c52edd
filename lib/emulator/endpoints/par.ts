/**
 * POST /par: the pushed authorization request (RFC 9126), mandatory for every flow (part 1).
 * @see spec 2.4, 4.1, part 7; RFC 9126 §2
 */
import { decodeJwt } from 'jose';
import { authenticateClient, clientAssertionHeader } from '../checks/client-authentication';
import { verifyRequestObject } from '../checks/request-object';
import { rulesAt, type Levelled } from '../checks/levels';
import { LOGIN_HINT, checkLoginHint } from '../checks/login-hint';
import { onlyListedParameters, readFormBody, type RequestParameters } from '../checks/request-parameters';
import type { ParFault } from '../answer-faults';
import { LIFETIMES, MAX_STATE_OR_NONCE_LENGTH, REQUEST_URI_PREFIX } from '../config';
import type { EmulatorContext } from '../context';
import { InvalidClient, InvalidRequest, OAuthError, ServerError, TemporarilyUnavailable } from '../errors';
import type { AuthorizationRequest } from '../state';

/** 4.1: all four parameters are required. */
const REQUIRED_PARAMETERS = ['client_id', 'client_assertion_type', 'client_assertion', 'request'] as const;

/** A rule over the form of 4.1, before the client is authenticated. */
type FormRule = (parameters: RequestParameters) => void;

/**
 * The form's rules, in order, each with its level (checks/levels.ts). The client assertion and
 * the request object are checked after these.
 */
const FORM_RULES: readonly Levelled<FormRule>[] = [
  ['every', (parameters) => REQUIRED_PARAMETERS.forEach((name) => parameters.require(name))],
  // RFC 9126 §2.1: a request_uri must not be pushed.
  [
    'every',
    (parameters) => {
      if (parameters.has('request_uri')) throw new InvalidRequest("parameter 'request_uri' must not be sent to the PAR endpoint");
    },
  ],
  // login_hint is taken at both levels (checks/login-hint.ts): a standard parameter, not the spec's.
  ['strict', (parameters) => onlyListedParameters(parameters, REQUIRED_PARAMETERS, 'spec 4.1', [LOGIN_HINT])],
];

/**
 * Handles POST /par: authenticates the client, verifies the request object and answers
 * 201 `{ request_uri, expires_in }`. The request_uri is valid for 600 s and for one use.
 * A PAR fault (answer-faults.ts) applies only once every check has passed, when a listener of
 * `pushed_authorization_request.answering` asks for it (events.ts); what is answered to an
 * authenticated client is told (`pushed_authorization_request.answered`).
 * @see spec 2.4, 4.1
 */
export async function pushedAuthorizationRequestEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  const parameters = await readFormBody(request);
  // The level, read once for every check of this request.
  const strict = await context.strict();
  for (const rule of rulesAt(FORM_RULES, strict)) rule(parameters);

  const client = await authenticateClient(parameters, context, strict);
  const assertion = clientAssertionHeader(parameters);
  let authorizationRequest: AuthorizationRequest;
  try {
    authorizationRequest = await verifyRequestObject(parameters.require('request'), client, context, strict);
  } catch (error) {
    // A refusal after client authentication is told under the state the authenticated client
    // sent, when it sent one: its flow's.
    const state = error instanceof OAuthError ? claimedState(parameters.require('request')) : undefined;
    if (state !== undefined && error instanceof OAuthError) {
      await context.events.emit('pushed_authorization_request.answered', {
        clientId: client.clientId,
        state,
        assertion,
        answer: { outcome: 'refused', error },
      });
    }
    throw error;
  }
  // A login_hint beside the request object (RFC 9126 §3 wants it inside, where it wins) is taken too.
  const formLoginHint = checkLoginHint(parameters.get(LOGIN_HINT), 'parameter');
  if (authorizationRequest.loginHint === undefined && formLoginHint !== undefined) {
    authorizationRequest = { ...authorizationRequest, loginHint: formLoginHint };
  }
  const { state } = authorizationRequest;

  // A PAR fault replaces this response, which would succeed; no request_uri is stored, as none
  // was issued.
  const faults = new Set<ParFault>();
  await context.events.emit('pushed_authorization_request.answering', { clientId: client.clientId, state, faults });
  const fault = PAR_FAULTS.find(({ id }) => faults.has(id));
  if (fault) {
    const error = fault.error();
    await context.events.emit('pushed_authorization_request.answered', {
      clientId: client.clientId,
      state,
      assertion,
      answer: { outcome: 'fault', fault: fault.id, error },
    });
    throw error;
  }

  const requestUri = REQUEST_URI_PREFIX + crypto.randomUUID();
  await context.pushedRequests.set(requestUri, { clientId: client.clientId, request: authorizationRequest }, LIFETIMES.requestUri);
  await context.events.emit('pushed_authorization_request.answered', {
    clientId: client.clientId,
    state,
    assertion,
    answer: { outcome: 'accepted', requestUri, expiresIn: LIFETIMES.requestUri, request: authorizationRequest },
  });
  return Response.json({ request_uri: requestUri, expires_in: LIFETIMES.requestUri }, { status: 201, headers: { 'Cache-Control': 'no-store' } });
}

/** The PAR faults (answer-faults.ts), and the error each answers with. */
const PAR_FAULTS: readonly { id: ParFault; error: () => OAuthError }[] = [
  { id: 'par_server_error', error: () => new ServerError("injected fault 'par_server_error' (emulator QA panel): the PAR endpoint failed on purpose") },
  {
    id: 'par_invalid_request',
    error: () => new InvalidRequest("injected fault 'par_invalid_request' (emulator QA panel): the request was refused on purpose"),
  },
  { id: 'par_invalid_client', error: () => new InvalidClient("injected fault 'par_invalid_client' (emulator QA panel): the client was refused on purpose") },
  {
    id: 'par_temporarily_unavailable',
    error: () => new TemporarilyUnavailable("injected fault 'par_temporarily_unavailable' (emulator QA panel): the PAR endpoint is unavailable on purpose"),
  },
];

/**
 * The `state` claim of a request object that was refused, read without trusting the rest: its
 * sender authenticated, so the flow it is told under is its own (the flow log keeps one client
 * per flow). Undefined when the payload has no usable `state`.
 */
function claimedState(requestObject: string): string | undefined {
  try {
    const { state } = decodeJwt(requestObject);
    return typeof state === 'string' && state.length > 0 && state.length <= MAX_STATE_OR_NONCE_LENGTH ? state : undefined;
  } catch {
    return undefined;
  }
}
