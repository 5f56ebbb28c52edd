/**
 * Discovery: GET `{issuer}/.well-known/openid-configuration` (part 4), validated and cached.
 * The interface specification does not show this response's body, so the members we need are
 * checked as OpenID Connect Discovery 1.0 §4 defines them.
 *
 * Copy with: errors.ts, http.ts, types.ts.
 */
import { IdvError } from './errors.ts';
import { assertSecureUrl, cacheLifetimeSeconds, readJsonObject, send } from './http.ts';
import type { HttpOptions, ProviderMetadata } from './types.ts';

/** Cached for an hour unless the response says otherwise. */
const DEFAULT_LIFETIME_SECONDS = 3600;

const REQUIRED_ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'jwks_uri',
  // part 1: PAR is mandatory for every flow
  'pushed_authorization_request_endpoint',
] as const;

/**
 * The discovery document's URL: the issuer, without a trailing slash, plus
 * `/.well-known/openid-configuration`.
 * @see Interface specification 4 "Endpoints"
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfigurationRequest
 */
export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

/**
 * Sends the discovery request. Returns the response unchecked: pass it to `processDiscoveryResponse`.
 * @throws IdvError with code `insecure_url`, `invalid_response` (not a URL), `timeout` or
 *   `network_error`
 * @see Interface specification 4 "Endpoints"
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfigurationRequest
 */
export function fetchDiscovery(issuer: string, options: HttpOptions = {}): Promise<Response> {
  return send(discoveryUrl(issuer), { headers: { accept: 'application/json' } }, options, 'The discovery endpoint');
}

/**
 * Checks a discovery response: 200, a JSON object, `issuer` identical to the configured issuer
 * (Discovery §4.3; the issuer must equal the configured base URL exactly, no normalising), and
 * every endpoint we call present and secure.
 * @param issuer the configured issuer, the service base URL
 * @param options only `allowInsecureRequests` is read
 * @throws IdvError with code `discovery_failed` (status, body or a missing endpoint),
 *   `discovery_issuer_mismatch`, `insecure_url` or `invalid_response` (an endpoint that is not a URL)
 * @see Interface specification 4 "Endpoints"
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfigurationValidation
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.3
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.3.3.1
 */
export async function processDiscoveryResponse(
  issuer: string,
  response: Response,
  options: HttpOptions = {},
): Promise<ProviderMetadata> {
  if (response.status !== 200) {
    throw new IdvError('discovery_failed', `The discovery endpoint answered HTTP ${response.status}`, {
      status: response.status,
    });
  }
  const metadata = await readJsonObject(response, 'The discovery document', 'discovery_failed');
  if (metadata.issuer !== issuer) {
    throw new IdvError('discovery_issuer_mismatch', 'The discovery document names another issuer', {
      claim: 'issuer',
      expected: issuer,
      actual: metadata.issuer,
    });
  }
  for (const member of REQUIRED_ENDPOINTS) {
    const value = metadata[member];
    if (typeof value !== 'string') {
      throw new IdvError('discovery_failed', `The discovery document has no ${member}`, { claim: member });
    }
    assertSecureUrl(value, options, `The discovery document's ${member}`);
  }
  return metadata as ProviderMetadata;
}

/**
 * Discovery documents by issuer, kept as long as Cache-Control allows (an hour without the
 * header, a day at most). Concurrent callers share one request; a failed request is not cached.
 * @see Interface specification 4 "Endpoints"
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfig
 * @see https://www.rfc-editor.org/rfc/rfc9111#section-5.2.2
 */
export class DiscoveryCache {
  readonly #options: HttpOptions;
  readonly #now: () => number;
  readonly #entries = new Map<string, { expiresAt: number; metadata: Promise<ProviderMetadata> }>();

  constructor(options: HttpOptions & { now?: () => number } = {}) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The validated metadata of `issuer`, from the cache or the network.
   * @param options.fetch used if this call has to go to the network (e.g. a tracing fetch)
   * @throws IdvError as `fetchDiscovery` and `processDiscoveryResponse` do
   */
  get(issuer: string, options: { fetch?: HttpOptions['fetch'] } = {}): Promise<ProviderMetadata> {
    const cached = this.#entries.get(issuer);
    if (cached && cached.expiresAt > this.#now()) return cached.metadata;

    const entry = { expiresAt: Number.POSITIVE_INFINITY, metadata: this.#load(issuer, options.fetch) };
    this.#entries.set(issuer, entry);
    entry.metadata.then(
      () => undefined,
      () => this.#entries.get(issuer) === entry && this.#entries.delete(issuer),
    );
    return entry.metadata;
  }

  async #load(issuer: string, fetch: HttpOptions['fetch']): Promise<ProviderMetadata> {
    const response = await fetchDiscovery(issuer, { ...this.#options, ...(fetch ? { fetch } : {}) });
    const lifetime = cacheLifetimeSeconds(response, DEFAULT_LIFETIME_SECONDS);
    const metadata = await processDiscoveryResponse(issuer, response, this.#options);
    const entry = this.#entries.get(issuer);
    if (entry) entry.expiresAt = this.#now() + lifetime * 1000;
    return metadata;
  }
}
