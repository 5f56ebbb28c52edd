/**
 * The service's signing keys: GET /jwks (4.4, 2.7), cached as its Cache-Control says, keys chosen
 * by `kid` and never by position. An unknown `kid` triggers one refetch (key rotation), at most
 * once per cool-down so that forged `kid`s cannot make us hammer the endpoint. When a refresh
 * fails, the last good key set is still used for a bounded stale window (stale-if-error), and no
 * request is sent again until a back-off has passed.
 *
 * Depends on: jose.
 * Copy with: checks.ts, errors.ts, http.ts, types.ts.
 */
import { importJWK, type CryptoKey, type JWK } from 'jose';
import type { KeySource } from './checks.ts';
import { IdvError } from './errors.ts';
import { BackedOffLoader, cacheLifetimeSeconds, DEFAULT_STALE_IF_ERROR_SECONDS, readJsonObject, send, staleIfErrorMs, withCallOptions } from './http.ts';
import type { HttpOptions } from './types.ts';

/** 8: the service sends max-age=86400; without a header we keep keys for ten minutes. */
const DEFAULT_LIFETIME_SECONDS = 600;
/** As jose's createRemoteJWKSet: short enough for a rotation to heal quickly, long enough to bound refetches. */
const DEFAULT_REFETCH_COOLDOWN_MS = 30_000;
/**
 * The header members of the ID token's JWS that pick its key.
 * @see Interface specification 4.4 "GET /jwks"
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-4.1.4
 */
export interface KeySelector {
  alg: string;
  kid: string;
}

interface Entry {
  keys: JWK[];
  fetchedAt: number;
  expiresAt: number;
  imported: Map<string, CryptoKey>;
}

/**
 * Options of a JwksCache, beside those of its requests.
 * @see Interface specification 4.4 "GET /jwks"
 * @see https://www.rfc-editor.org/rfc/rfc5861#section-4
 */
export interface JwksCacheOptions extends HttpOptions {
  /** ms clock, for tests */
  now?: () => number;
  /** least time between two refetches for an unknown `kid`: 30 000 ms by default */
  refetchCooldownMs?: number;
  /**
   * Seconds past its freshness a key set is still used when a refresh fails: 86 400 (a day) by
   * default, 0 to use none. A finite number, 0 or more; anything else is a RangeError.
   */
  staleIfErrorSeconds?: number;
}

/**
 * A verification key and the JWKS entry it came from (whose `x5c` names its certificate).
 * @see Interface specification 2.7 "Key set (JWKS) resource"
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-4.7
 */
export interface VerificationKey {
  key: CryptoKey;
  jwk: JWK;
  /** where the key set it came from was: the cache, a fetch, a refetch for an unknown `kid`, or the stale set */
  source: KeySource;
}

/** Per-call options: a fetch to use if this call has to go to the network (e.g. a tracing one). */
/** The relying party's HTTP options for one lookup, each over the cache's own where given (`withCallOptions`). */
export type LookupOptions = HttpOptions;

/**
 * Sends the JWKS request. Returns the response unchecked: pass it to `processJwksResponse`.
 * @throws IdvError with code `insecure_url`, `invalid_response` (not a URL), `timeout` or
 *   `network_error`
 * @see Interface specification 4.4 "GET /jwks"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RotateSigKeys
 */
export function fetchJwks(jwksUri: string, options: HttpOptions = {}): Promise<Response> {
  return send(jwksUri, { headers: { accept: 'application/json' } }, options, 'The JWKS endpoint');
}

/**
 * Checks a JWKS response (RFC 7517 §5): 200 and an object with a `keys` array of objects.
 * Members of `keys` that are not objects are dropped; the rest are judged when a key is selected.
 * @throws IdvError with code `jwks_fetch_failed`
 * @see Interface specification 2.7 "Key set (JWKS) resource"
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-5
 */
export async function processJwksResponse(response: Response): Promise<JWK[]> {
  if (response.status !== 200) {
    throw new IdvError('jwks_fetch_failed', `The JWKS endpoint answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  const body = await readJsonObject(response, 'The JWKS', 'jwks_fetch_failed');
  if (!Array.isArray(body.keys)) {
    throw new IdvError('jwks_fetch_failed', 'The JWKS has no "keys" array');
  }
  return body.keys.filter((key): key is JWK => typeof key === 'object' && key !== null && !Array.isArray(key));
}

/**
 * 4.4: select by `kid`; the key must also fit the algorithm (ES256 → EC P-256) and, where the
 * JWK says so, be a signing key for that algorithm.
 * @returns the one matching key; undefined when none or more than one matches
 * @see Interface specification 4.4 "GET /jwks"
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-4.5
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.4.3
 */
export function selectVerificationKey(keys: JWK[], selector: KeySelector): JWK | undefined {
  const candidates = keys.filter(
    (key) =>
      key.kid === selector.kid &&
      key.kty === 'EC' &&
      key.crv === 'P-256' &&
      (key.alg === undefined || key.alg === selector.alg) &&
      (key.use === undefined || key.use === 'sig') &&
      // a published private key is a broken (or hostile) key set: never use it
      key.d === undefined,
  );
  // Two keys under one kid would make the choice ambiguous: refuse rather than guess.
  return candidates.length === 1 ? candidates[0] : undefined;
}

/**
 * JWKS documents by URI with their imported keys. Kept as Cache-Control says (4.4 sends
 * max-age=86400; ten minutes without the header). An unknown `kid` refetches at most once per
 * cool-down (`refetchCooldownMs`, 30 s by default), for key rotation. Concurrent callers share
 * one request. When a refresh fails (transport, status, body), the last good key set is still
 * used until `staleIfErrorSeconds` (a day by default) past its freshness, and the endpoint is not
 * asked again for a back-off (1 s, doubling with each failure in a row up to 30 s); meanwhile
 * a lookup that no usable key set answers fails at once with the failure's code.
 * @see Interface specification 4.4 "GET /jwks"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RotateSigKeys
 * @see https://www.rfc-editor.org/rfc/rfc9111#section-5.2.2
 * @see https://www.rfc-editor.org/rfc/rfc5861#section-4
 */
export class JwksCache {
  readonly #options: HttpOptions;
  readonly #now: () => number;
  readonly #refetchCooldownMs: number;
  readonly #staleIfErrorMs: number;
  readonly #entries = new Map<string, Entry>();
  readonly #loader: BackedOffLoader<Entry>;

  /** @throws RangeError when `staleIfErrorSeconds` is not a finite number, 0 or more */
  constructor(options: JwksCacheOptions = {}) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#refetchCooldownMs = options.refetchCooldownMs ?? DEFAULT_REFETCH_COOLDOWN_MS;
    this.#staleIfErrorMs = staleIfErrorMs(options.staleIfErrorSeconds ?? DEFAULT_STALE_IF_ERROR_SECONDS);
    this.#loader = new BackedOffLoader(this.#now);
  }

  /**
   * The public key for an ES256 ID token signature. A key set past its freshness is refreshed
   * first; if that fails, the key comes from the last good set while it is within the stale window.
   * @throws IdvError with code `id_token_key_not_found`, `jwks_fetch_failed` (including a key
   *   that cannot be imported), or a transport code (`timeout`, `network_error`, ...); while the
   *   endpoint is backed off, the code of the failure that started the back-off, without a request
   */
  async getKey(jwksUri: string, selector: KeySelector, options: LookupOptions = {}): Promise<VerificationKey> {
    let entry = this.#entries.get(jwksUri);
    let fetched = false;
    let refreshFailure: { error: unknown } | undefined;
    if (!entry || entry.expiresAt <= this.#now()) {
      fetched = true;
      try {
        entry = await this.#refresh(jwksUri, options);
      } catch (error) {
        if (!entry || this.#now() >= entry.expiresAt + this.#staleIfErrorMs) throw error;
        refreshFailure = { error };
      }
    }
    let jwk = selectVerificationKey(entry.keys, selector);
    let source: KeySource = refreshFailure ? 'stale' : fetched ? 'fetched' : 'cache';
    if (!jwk && !fetched && this.#now() - entry.fetchedAt >= this.#refetchCooldownMs) {
      // A failure here propagates: whether the new key set has this kid is unknown.
      entry = await this.#refresh(jwksUri, options);
      jwk = selectVerificationKey(entry.keys, selector);
      source = 'refetched';
    }
    if (!jwk) {
      // Not in the stale set, and the current one could not be fetched: the key may well exist.
      if (refreshFailure) throw refreshFailure.error;
      throw new IdvError('id_token_key_not_found', `The JWKS has no ${selector.alg} key with kid "${selector.kid}"`, {
        claim: 'kid',
        actual: selector.kid,
        expected: entry.keys.map((key) => key.kid),
      });
    }
    const cached = entry.imported.get(selector.kid);
    if (cached) return { key: cached, jwk, source };
    let key: CryptoKey;
    try {
      key = (await importJWK(jwk, selector.alg)) as CryptoKey;
    } catch (error) {
      throw new IdvError('jwks_fetch_failed', `The JWKS key "${selector.kid}" cannot be used: ${(error as Error).message}`);
    }
    entry.imported.set(selector.kid, key);
    return { key, jwk, source };
  }

  /** One request at a time per URI, none while backed off; a success ends the back-off. */
  #refresh(jwksUri: string, options: LookupOptions): Promise<Entry> {
    return this.#loader.load(jwksUri, async () => {
      const response = await fetchJwks(jwksUri, withCallOptions(this.#options, options));
      const lifetime = cacheLifetimeSeconds(response, DEFAULT_LIFETIME_SECONDS);
      const keys = await processJwksResponse(response);
      const fetchedAt = this.#now();
      const entry: Entry = { keys, fetchedAt, expiresAt: fetchedAt + lifetime * 1000, imported: new Map() };
      this.#entries.set(jwksUri, entry);
      return entry;
    });
  }
}
