/**
 * Client assertion (2.1, part 5; RFC 7523 §2.2): private-key JWT client authentication.
 * A new assertion is built for every PAR and token request.
 */
import { signWithClientKey } from './client-keys';
import type { ClientConfig } from './types';

/** 5.1 */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** DESIGN.md: "exp (short, about 60 s)". */
export const CLIENT_ASSERTION_LIFETIME_SECONDS = 60;

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
 * four payload claims (`iss`, `sub`, `aud`, `exp`).
 * @see spec 2.1
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

/** The form parameters that authenticate the client (5.1). */
export async function clientAuthenticationParameters(input: ClientAssertionInput): Promise<Record<string, string>> {
  return {
    client_id: input.client.clientId,
    client_assertion_type: CLIENT_ASSERTION_TYPE,
    client_assertion: await createClientAssertion(input),
  };
}
