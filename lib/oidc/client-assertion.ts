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
 * The last `exp` used per EdDSA key. Ed25519 signatures are deterministic and 2.1 allows no `jti`,
 * so two assertions made in the same second would be byte-identical and the second refused as a
 * replay. For EdDSA keys `exp` therefore moves forward by at least a second per assertion.
 * (ES256 and PS256 signatures are randomised and need no such care.)
 */
const lastEdDsaExp = new Map<string, number>();

function expiry(signingKey: ClientConfig['signingKey'], now: number): number {
  const exp = Math.floor(now / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS;
  if (signingKey.alg !== 'EdDSA') return exp;
  const unique = Math.max(exp, (lastEdDsaExp.get(signingKey.kid) ?? 0) + 1);
  lastEdDsaExp.set(signingKey.kid, unique);
  return unique;
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
