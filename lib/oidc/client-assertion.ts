/**
 * Client assertion (2.1, part 5; RFC 7523 §2.2): private-key JWT client authentication.
 * A new assertion is built for every PAR and token request.
 *
 * Copy with: client-keys.ts, errors.ts, types.ts.
 */
import { signWithClientKey } from './client-keys.ts';
import type { ClientConfig } from './types.ts';

/**
 * The `client_assertion_type` of private-key JWT authentication (part 5 item 1, 4.1, 4.3).
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-2.2
 */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * The assertion lives 60 s: short, as a new one is made for every request. The service states
 * no upper bound (part 5 item 7).
 * @see Interface specification 2.1 "Client assertion JWT"
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-3
 */
export const CLIENT_ASSERTION_LIFETIME_SECONDS = 60;

/**
 * What a client assertion is made from.
 * @see Interface specification 2.1 "Client assertion JWT"
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-3
 */
export interface ClientAssertionInput {
  client: Pick<ClientConfig, 'clientId' | 'signingKey'>;
  /** the service base URL = its issuer (2.1: `aud` = the base URL, a string) */
  audience: string;
  /** ms since the epoch; defaults to now */
  now?: number;
}

/**
 * Ed25519 signatures are deterministic and 2.1 allows no `jti`, so two EdDSA assertions with the
 * same `exp` would be byte-identical and the provider would refuse the second as a replay. An
 * EdDSA assertion's `exp` is therefore a NumericDate in whole microseconds (RFC 7519 §2 allows
 * non-integer values): the nominal expiry less a random part of a millisecond, and strictly after
 * the last one this process made for the key. It never moves more than a millisecond from the
 * nominal expiry (that would take over a thousand signatures in one millisecond), so it cannot
 * drift however long the load lasts.
 *
 * The last values live on `globalThis` under a registered symbol, so every copy of this module in
 * the process (two bundles, two copies of the core) shares them. Two processes signing with one
 * Ed25519 key in the same millisecond still coincide with a chance of one in a thousand: give each
 * its own key, or use ES256 or PS256, whose signatures are randomised and whose `exp` stays a
 * whole number of seconds.
 */
const LAST_EDDSA_EXP = Symbol.for('idv-oidc.client-assertion.last-eddsa-exp-microseconds');

function lastEdDsaExp(): Map<string, number> {
  const holder = globalThis as typeof globalThis & { [LAST_EDDSA_EXP]?: Map<string, number> };
  return (holder[LAST_EDDSA_EXP] ??= new Map());
}

const MICROSECONDS_PER_MILLISECOND = 1000;

function expiry(signingKey: ClientConfig['signingKey'], now: number): number {
  if (signingKey.alg !== 'EdDSA') return Math.floor(now / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS;
  const nominal = (Math.floor(now) + CLIENT_ASSERTION_LIFETIME_SECONDS * 1000) * MICROSECONDS_PER_MILLISECOND;
  const candidate = nominal - randomInt(MICROSECONDS_PER_MILLISECOND);
  const last = lastEdDsaExp();
  const previous = last.get(signingKey.kid);
  // A previous value more than a millisecond ahead means the clock went back: start again from now.
  const unique =
    previous === undefined || previous > nominal + MICROSECONDS_PER_MILLISECOND ? candidate : Math.max(candidate, previous + 1);
  last.set(signingKey.kid, unique);
  return unique / 1_000_000;
}

/** A random integer in [0, bound), bound ≤ 2^16 (its small modulo bias does not matter here). */
function randomInt(bound: number): number {
  return crypto.getRandomValues(new Uint16Array(1))[0]! % bound;
}

/**
 * Builds a client assertion with exactly three header claims (`alg`, `kid`, `typ`) and exactly
 * four payload claims (`iss`, `sub`, `aud`, `exp`). `aud` is the issuer as a string, as FAPI 2.0
 * asks of clients.
 * @throws IdvError with code `invalid_client_key` when the signing key cannot be used
 * @see Interface specification 2.1 "Client assertion JWT"
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-3
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.3.3.1
 */
export function createClientAssertion({ client, audience, now = Date.now() }: ClientAssertionInput): Promise<string> {
  return signWithClientKey(
    {
      iss: client.clientId,
      sub: client.clientId,
      aud: audience,
      exp: expiry(client.signingKey, now),
    },
    client.signingKey,
  );
}

/**
 * The form parameters that authenticate the client (part 5 item 1): `client_id`,
 * `client_assertion_type` and a fresh `client_assertion`.
 * @throws IdvError with code `invalid_client_key` when the signing key cannot be used
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-2.2
 * @see https://openid.net/specs/openid-connect-core-1_0.html#ClientAuthentication
 */
export async function clientAuthenticationParameters(input: ClientAssertionInput): Promise<Record<string, string>> {
  return {
    client_id: input.client.clientId,
    client_assertion_type: CLIENT_ASSERTION_TYPE,
    client_assertion: await createClientAssertion(input),
  };
}
