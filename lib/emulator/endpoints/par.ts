/**
 * POST /par: the pushed authorization request (RFC 9126), mandatory for every flow (part 1).
 * @see spec 2.4, 4.1, part 7; RFC 9126 §2
 */
import { authenticateClient } from '../checks/client-authentication';
import { verifyRequestObject } from '../checks/request-object';
import { rulesAt, type Levelled } from '../checks/levels';
import { onlyListedParameters, readFormBody, type RequestParameters } from '../checks/request-parameters';
import { LIFETIMES } from '../config';
import type { EmulatorContext } from '../context';
import { InvalidClient, InvalidRequest, ServerError, TemporarilyUnavailable } from '../errors';

/** 2.4: `urn:ietf:params:oauth:request_uri:<uuid>` (RFC 9126 §2.2). */
const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

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
  ['every', (parameters) => {
    if (parameters.has('request_uri')) throw new InvalidRequest("parameter 'request_uri' must not be sent to the PAR endpoint");
  }],
  ['strict', (parameters) => onlyListedParameters(parameters, REQUIRED_PARAMETERS, 'spec 4.1')],
];

/**
 * Handles POST /par: authenticates the client, verifies the request object and answers
 * 201 `{ request_uri, expires_in }`. The request_uri is valid for 600 s and for one use.
 * Armed PAR faults (qa/faults.ts) apply only once every check has passed.
 * @see spec 2.4, 4.1
 */
export async function pushedAuthorizationRequestEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  const parameters = await readFormBody(request);
  // The level, read once for every check of this request.
  const strict = await context.strict();
  for (const rule of rulesAt(FORM_RULES, strict)) rule(parameters);

  const client = await authenticateClient(parameters, context, strict);
  const authorizationRequest = await verifyRequestObject(parameters.require('request'), client, context, strict);

  // qa/faults.ts: a PAR fault armed for QA replaces this response, which would succeed; no
  // request_uri is stored, as none was issued.
  const faults = await context.faults.take('par_endpoint', client.clientId, [], authorizationRequest.state);
  if (faults.has('par_server_error')) {
    throw new ServerError("injected fault 'par_server_error' (emulator QA panel): the PAR endpoint failed on purpose");
  }
  if (faults.has('par_invalid_request')) {
    throw new InvalidRequest("injected fault 'par_invalid_request' (emulator QA panel): the request was refused on purpose");
  }
  if (faults.has('par_invalid_client')) {
    throw new InvalidClient("injected fault 'par_invalid_client' (emulator QA panel): the client was refused on purpose");
  }
  if (faults.has('par_temporarily_unavailable')) {
    throw new TemporarilyUnavailable(
      "injected fault 'par_temporarily_unavailable' (emulator QA panel): the PAR endpoint is unavailable on purpose",
    );
  }

  const requestUri = REQUEST_URI_PREFIX + crypto.randomUUID();
  await context.pushedRequests.set(requestUri, { clientId: client.clientId, request: authorizationRequest }, LIFETIMES.requestUri);
  return Response.json(
    { request_uri: requestUri, expires_in: LIFETIMES.requestUri },
    { status: 201, headers: { 'Cache-Control': 'no-store' } },
  );
}
