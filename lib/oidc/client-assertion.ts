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
  /** where an EdDSA key's `exp` seconds are claimed; defaults to `inProcessExpAllocator` */
  expAllocator?: ExpAllocator;
}

/**
 * At least this much of an EdDSA assertion's lifetime is left when it is made (more, by the
 * fraction of the current second): time for the outbound call (10 s by default,
 * `HttpOptions.timeoutMs`) and for a service clock up to 20 s ahead of ours.
 * @see Interface specification 2.1 "Client assertion JWT"
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-3
 */
export const EDDSA_ASSERTION_MIN_REMAINING_SECONDS = 30;

/**
 * How many EdDSA assertions one key signs at once: one per whole second from now + 31 s to now +
 * 60 s. Beyond that, `client_assertion_rate_exceeded` until the clock brings the next second
 * into reach.
 * @see Interface specification 2.1 "Client assertion JWT"
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4
 */
export const EDDSA_ASSERTION_BURST = CLIENT_ASSERTION_LIFETIME_SECONDS - EDDSA_ASSERTION_MIN_REMAINING_SECONDS;

/**
 * Hands out the `exp` seconds of an EdDSA key's client assertions, each once. Give instances that
 * sign with one key one allocator over a store they share: with Redis, `claimExp` is
 * `SET <kid>:<second> 1 NX EX 60`, true when Redis answers OK.
 */
export interface ExpAllocator {
  /**
   * Claims the whole second `second` (a Unix timestamp) as the `exp` of one assertion signed by
   * the key `kid`: true when no assertion of that key had it (and from now on none other will),
   * false when one had. A claim must hold until `second` has passed: `second` is never more than
   * `CLIENT_ASSERTION_LIFETIME_SECONDS` ahead, so holding each claim that long is enough.
   */
  claimExp(kid: string, second: number): Promise<boolean>;
}

const USED_EDDSA_EXP = Symbol.for('idv-oidc.client-assertion.used-eddsa-exp-seconds');

/**
 * The default `ExpAllocator`: the seconds each key used, in this process only, shared by every
 * copy of this module in it.
 */
export const inProcessExpAllocator: ExpAllocator = {
  async claimExp(kid, second) {
    const holder = globalThis as typeof globalThis & { [USED_EDDSA_EXP]?: Map<string, Set<number>> };
    const keys = (holder[USED_EDDSA_EXP] ??= new Map());
    let used = keys.get(kid);
    if (!used) keys.set(kid, (used = new Set()));
    if (used.has(second)) return false;
    // A second a lifetime or more below this one has passed: no assertion asks for it again.
    for (const old of used) if (old <= second - CLIENT_ASSERTION_LIFETIME_SECONDS) used.delete(old);
    used.add(second);
    return true;
  },
};

/**
 * Ed25519 signatures are deterministic and 2.1 allows no `jti`, so two EdDSA assertions with the
 * same `exp` are byte-identical and the service refuses the second as a replay; and `exp` must be
 * a whole number of seconds (2.1: "Unix timestamp"). So each EdDSA key signs at most one assertion
 * per `exp` second, and every `exp` stays within the lifetime: an assertion takes the latest whole
 * second at or below now + 60 s that its key has not used, going down to now + 31 s at the
 * earliest, so that it has always more than `EDDSA_ASSERTION_MIN_REMAINING_SECONDS` (30 s) left.
 * When all 30 are taken, `client_assertion_rate_exceeded` is thrown. So a key serves a burst of
 * `EDDSA_ASSERTION_BURST` (30) assertions at once and one per second sustained: each second, one
 * more second comes into reach. A verification takes two (PAR and token).
 *
 * The seconds used are claimed from an `ExpAllocator`. The default one keeps them in this
 * process, on `globalThis` under a registered symbol, so every copy of this module in the process
 * (two bundles, two copies of the core) shares them. Instances that share one EdDSA key must share
 * an allocator too (`RelyingParty.expAllocator`): otherwise two of them signing in the same second
 * make the same assertion, and the service refuses the second.
 */
async function expiry(signingKey: ClientConfig['signingKey'], now: number, allocator: ExpAllocator): Promise<number> {
  const latest = Math.floor(now / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS;
  if (signingKey.alg !== 'EdDSA') return latest;
  const earliest = latest - EDDSA_ASSERTION_BURST + 1;
  for (let second = latest; second >= earliest; second--) {
    if (await allocator.claimExp(signingKey.kid, second)) return second;
  }
  throw new IdvError(
    'client_assertion_rate_exceeded',
    `The EdDSA key "${signingKey.kid}" has signed a client assertion for every exp second from ${earliest} to ${latest}, the ${EDDSA_ASSERTION_BURST} that leave it at least ${EDDSA_ASSERTION_MIN_REMAINING_SECONDS} s of its ${CLIENT_ASSERTION_LIFETIME_SECONDS} s lifetime: an Ed25519 key signs at most one per second (its signatures are deterministic and each exp second can be used once). Wait a moment, or use an ES256 or PS256 key`,
    { kid: signingKey.kid, expected: `a free exp second from ${earliest} to ${latest}`, actual: 'none free' },
  );
}

/**
 * Builds a client assertion with exactly three header claims (`alg`, `kid`, `typ`) and exactly
 * four payload claims (`iss`, `sub`, `aud`, `exp`). `aud` is the issuer as a string, as FAPI 2.0
 * asks of clients. `exp` is a whole number of seconds, at most `CLIENT_ASSERTION_LIFETIME_SECONDS`
 * ahead; an EdDSA key's never repeats (see `EDDSA_ASSERTION_BURST`).
 * @throws IdvError with code `invalid_client_key` when the signing key cannot be used, or
 *   `client_assertion_rate_exceeded` when an EdDSA key has used every `exp` second within reach;
 *   whatever `expAllocator.claimExp` throws (a store that cannot answer)
 * @see Interface specification 2.1 "Client assertion JWT"
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7523#section-3
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.3.3.1
 */
export async function createClientAssertion({
  client,
  audience,
  now = Date.now(),
  expAllocator = inProcessExpAllocator,
}: ClientAssertionInput): Promise<string> {
  return signWithClientKey(
    {
      iss: client.clientId,
      sub: client.clientId,
      aud: audience,
      exp: await expiry(client.signingKey, now, expAllocator),
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
