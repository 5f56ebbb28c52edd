/**
 * Private-key JWT client authentication, shared by PAR and the token endpoint (part 5).
 * Every failure is `invalid_client` (401), as RFC 7521 §4.2.1 requires for an invalid assertion;
 * only missing parameters are `invalid_request`.
 * @see spec 2.1, part 5; RFC 7521 §4.2; RFC 7523 §3
 */
import { decodeProtectedHeader } from 'jose';
import type { RegisteredClient } from '../clients';
import { CLIENT_ASSERTION_TYPE, CLOCK_SKEW_SECONDS, LIFETIMES } from '../config';
import { endpointUrl, nowSeconds, type EmulatorContext } from '../context';
import { InvalidClient, describeValue } from '../errors';
import { describeMemberMismatch, verifyClientJwt, type VerifiedClientJwt } from './client-jwt';
import { rulesAt, type Levelled } from './levels';
import type { RequestParameters } from './request-parameters';

/** 2.1: the payload has exactly these four claims. */
const PAYLOAD_CLAIMS = ['iss', 'sub', 'aud', 'exp'] as const;

/**
 * Authenticates the client of a PAR or token request from `client_id`, `client_assertion_type`
 * and `client_assertion`, and returns it. A successful assertion cannot be used again.
 * @param strict the level of this request (checks/levels.ts), read once by the endpoint
 * @throws InvalidRequest for a missing parameter, InvalidClient for everything else
 * @see spec 2.1, 5.1–5.4
 */
export async function authenticateClient(parameters: RequestParameters, context: EmulatorContext, strict = false): Promise<RegisteredClient> {
  const clientId = parameters.require('client_id');
  const assertionType = parameters.require('client_assertion_type');
  const assertion = parameters.require('client_assertion');

  const client = context.clients.get(clientId);
  if (!client) throw new InvalidClient(`client_id ${describeValue(clientId)} is not registered`);

  // RFC 6749 §5.2 lists an "unsupported authentication method" under invalid_client.
  if (assertionType !== CLIENT_ASSERTION_TYPE) {
    throw new InvalidClient(`client_assertion_type must be '${CLIENT_ASSERTION_TYPE}'`);
  }

  const jwt = await verifyClientJwt(assertion, client, {
    parameter: 'client_assertion',
    reject: (description) => new InvalidClient(description),
  });
  for (const rule of rulesAt(ASSERTION_RULES, strict)) rule(jwt.payload, { clientId, context });
  await consumeAssertion(jwt, jwt.payload.exp as number, context);
  return client;
}

/** One rule of 2.1 over the assertion's payload; throws `invalid_client` (RFC 7521 §4.2.1). */
type AssertionRule = (payload: Record<string, unknown>, input: { clientId: string; context: EmulatorContext }) => void;

/** 2.1, 8: exactly iss, sub, aud, exp. */
const exactlyFourClaims: AssertionRule = (payload) => {
  const members = describeMemberMismatch(payload, PAYLOAD_CLAIMS);
  if (members) throw new InvalidClient(`client_assertion must have exactly the claims iss, sub, aud and exp: ${members}`);
};

/** 5.4: `iss` and `sub` are the client_id. */
const boundToClient: AssertionRule = (payload, { clientId }) => {
  for (const claim of ['iss', 'sub'] as const) {
    if (payload[claim] !== clientId) {
      throw new InvalidClient(`client_assertion ${claim} must be the client_id '${clientId}', not ${describeValue(payload[claim])}`);
    }
  }
};

/** 2.1 `aud`: the issuer (the base URL) as a single string, not an endpoint URL. */
const audienceIsIssuer: AssertionRule = ({ aud }, { context }) => {
  if (typeof aud !== 'string') {
    throw new InvalidClient(`client_assertion aud must be a single string, the issuer '${context.issuer}', not ${describeValue(aud)}`);
  }
  if (aud !== context.issuer) {
    const endpoint = aud === endpointUrl(context, 'token') || aud === endpointUrl(context, 'par');
    throw new InvalidClient(`client_assertion aud must be the issuer '${context.issuer}'${endpoint ? ', not an endpoint URL' : `, not ${describeValue(aud)}`}`);
  }
};

/** 2.1 `exp`: "number, Unix timestamp"; at the default level any finite number (RFC 7519 §2 NumericDate). */
const expIsNumber: AssertionRule = ({ exp }) => {
  if (typeof exp !== 'number' || !Number.isFinite(exp)) {
    throw new InvalidClient(`client_assertion exp must be a number (seconds since the epoch), not ${describeValue(exp)}`);
  }
};

/** Strict level: `exp` in whole seconds, as a "Unix timestamp" (2.1) is. */
const expInWholeSeconds: AssertionRule = ({ exp }) => {
  if (!Number.isInteger(exp)) {
    throw new InvalidClient(`client_assertion exp must be a whole number of seconds (spec 2.1: Unix timestamp), not ${describeValue(exp)} (strict level)`);
  }
};

/** Not expired, and at most LIFETIMES.maxClientAssertion ahead (5.7 leaves the bound open). */
const withinLifetime: AssertionRule = (payload, { context }) => {
  const exp = payload.exp as number;
  const now = nowSeconds(context);
  if (exp <= now - CLOCK_SKEW_SECONDS) throw new InvalidClient('client_assertion has expired (exp is in the past)');
  if (exp > now + LIFETIMES.maxClientAssertion + CLOCK_SKEW_SECONDS) {
    throw new InvalidClient(`client_assertion exp is too far in the future; an assertion may live at most ${LIFETIMES.maxClientAssertion} seconds`);
  }
};

/**
 * The rules over the assertion's payload (2.1, 5.4; RFC 7523 §3), in the order they are checked
 * (the first failure is the one reported), each with the level it applies at. Header and
 * signature are checked before these (checks/client-jwt.ts); replay after them.
 */
const ASSERTION_RULES: readonly Levelled<AssertionRule>[] = [
  ['every', exactlyFourClaims],
  ['every', boundToClient],
  ['every', audienceIsIssuer],
  ['every', expIsNumber],
  ['strict', expInWholeSeconds],
  ['every', withinLifetime],
];

/**
 * 2.1: "A new assertion is built for each request". With no `jti` allowed, an assertion is
 * identified by its own content, remembered until it expires. The content is the signed part
 * plus the decoded, canonical signature: re-encoding the last base64url character or, for ES256,
 * flipping the signature's `s` to `n - s` yields a different text that still verifies, and must
 * still count as the same assertion.
 */
async function consumeAssertion(jwt: VerifiedClientJwt, exp: number, context: EmulatorContext): Promise<void> {
  const signature = jwt.header.alg === 'ES256' ? lowSEcdsaSignature(jwt.signature) : jwt.signature;
  const content = new TextEncoder().encode(`${jwt.signingInput}.`);
  const bytes = new Uint8Array(content.length + signature.length);
  bytes.set(content);
  bytes.set(signature, content.length);
  const key = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('base64url');

  const ttlSeconds = Math.max(1, exp + CLOCK_SKEW_SECONDS - nowSeconds(context));
  // Remembered and checked in one atomic step: of two requests with one assertion (even on two
  // instances sharing a store), one is served.
  if (!(await context.usedClientAssertions.setIfAbsent(key, true, ttlSeconds))) {
    throw new InvalidClient('client_assertion has already been used; build a new one for each request');
  }
}

/** Order of the P-256 group. */
const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/** The ES256 signature (r || s, 32 bytes each) with s replaced by n - s when s > n / 2. */
function lowSEcdsaSignature(signature: Uint8Array): Uint8Array {
  if (signature.length !== 64) return signature;
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).toString('hex')}`);
  if (s <= P256_N / 2n) return signature;
  const canonical = new Uint8Array(signature);
  canonical.set(Buffer.from((P256_N - s).toString(16).padStart(64, '0'), 'hex'), 32);
  return canonical;
}

/**
 * The header's `alg` and `kid` of the client assertion of a request whose client
 * `authenticateClient` accepted (so the header was checked): for the QA flow trace.
 */
export function clientAssertionHeader(parameters: RequestParameters): { alg: string; kid: string } {
  const { alg, kid } = decodeProtectedHeader(parameters.require('client_assertion'));
  return { alg: String(alg), kid: String(kid) };
}
