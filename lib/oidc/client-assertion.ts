/**
 * Client assertion (2.1, part 5; RFC 7523 §2.2): private-key JWT client authentication.
 * A new assertion is built for every PAR and token request.
 *
 * Copy with: client-keys.ts, errors.ts, types.ts.
 */
import { signWithClientKey } from './client-keys.ts';
import { IdvError } from './errors.ts';
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
 * same `exp` would be byte-identical and the service would refuse the second as a replay; and
 * `exp` must be a whole number of seconds (2.1: "Unix timestamp"). So each EdDSA key signs at most
 * one assertion per `exp` second: an assertion takes the nominal expiry (now + 60 s) or, when an
 * earlier one already took it, the next second after the last one taken. A burst of up to
 * `EDDSA_ASSERTION_BURST` assertions within a second therefore reaches exp at most that many
 * seconds past the nominal one; beyond that, the key is busy and `client_assertion_rate_exceeded`
 * is thrown rather than drifting further ahead (a service bounds how far ahead `exp` may lie).
 * Sustained, that is one assertion per second per EdDSA key: two per verification (PAR, token).
 *
 * The last values live on `globalThis` under a registered symbol, so every copy of this module in
 * the process (two bundles, two copies of the core) shares them. Processes do not share them: two
 * instances signing with one Ed25519 key in the same second make the same assertion, and the
 * service refuses the second. Give each instance its own key (the service matches keys by `kid`),
 * or use ES256 or PS256, whose signatures are randomised.
 */
const LAST_EDDSA_EXP = Symbol.for('idv-oidc.client-assertion.last-eddsa-exp-seconds');

/**
 * How many seconds past the nominal expiry an EdDSA assertion's `exp` may be pushed by earlier
 * ones: a burst of this many assertions per key is served at once.
 * @see Interface specification 2.1 "Client assertion JWT"
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4
 */
export const EDDSA_ASSERTION_BURST = 60;

function lastEdDsaExp(): Map<string, number> {
  const holder = globalThis as typeof globalThis & { [LAST_EDDSA_EXP]?: Map<string, number> };
  return (holder[LAST_EDDSA_EXP] ??= new Map());
}

function expiry(signingKey: ClientConfig['signingKey'], now: number): number {
  const nominal = Math.floor(now / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS;
  if (signingKey.alg !== 'EdDSA') return nominal;
  const last = lastEdDsaExp();
  const previous = last.get(signingKey.kid);
  // A previous value further ahead than any burst reaches means the clock went back: start again.
  const exp = previous === undefined || previous > nominal + EDDSA_ASSERTION_BURST ? nominal : Math.max(nominal, previous + 1);
  if (exp >= nominal + EDDSA_ASSERTION_BURST) {
    throw new IdvError(
      'client_assertion_rate_exceeded',
      `The EdDSA key "${signingKey.kid}" has signed ${EDDSA_ASSERTION_BURST} client assertions ahead of the clock: an Ed25519 key signs at most one per second (its signatures are deterministic and each exp second can be used once). Wait a moment, or use an ES256 or PS256 key`,
      { kid: signingKey.kid, expected: `exp < ${nominal + EDDSA_ASSERTION_BURST}`, actual: exp },
    );
  }
  last.set(signingKey.kid, exp);
  return exp;
}

/**
 * Builds a client assertion with exactly three header claims (`alg`, `kid`, `typ`) and exactly
 * four payload claims (`iss`, `sub`, `aud`, `exp`). `aud` is the issuer as a string, as FAPI 2.0
 * asks of clients. `exp` is a whole number of seconds; an EdDSA key's never repeats (see
 * `EDDSA_ASSERTION_BURST`).
 * @throws IdvError with code `invalid_client_key` when the signing key cannot be used, or
 *   `client_assertion_rate_exceeded` when an EdDSA key has signed a whole burst ahead of the clock
 * @see Interface specification 2.1 "Client assertion JWT"
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-3
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.3.3.1
 */
export async function createClientAssertion({ client, audience, now = Date.now() }: ClientAssertionInput): Promise<string> {
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
 * @throws IdvError as `createClientAssertion` does
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
