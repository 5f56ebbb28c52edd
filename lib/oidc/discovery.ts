/**
 * Discovery: GET `{issuer}/.well-known/openid-configuration` (part 4), validated and cached.
 * The interface specification does not show this response's body, so the members we need are
 * checked as OpenID Connect Discovery 1.0 §4 defines them. A failure is kept for a back-off, and
 * a good document is still used for a bounded stale window while refreshes fail.
 *
 * Copy with: errors.ts, http.ts, types.ts.
 */
import { IdvError } from './errors.ts';
import {
  assertSecureUrl,
  BackedOffLoader,
  cacheLifetimeSeconds,
  DEFAULT_STALE_IF_ERROR_SECONDS,
  readJsonObject,
  send,
  staleIfErrorMs,
  withCallOptions,
} from './http.ts';
import type { HttpOptions, ProviderMetadata } from './types.ts';

/** Cached for an hour unless the response says otherwise. */
const DEFAULT_LIFETIME_SECONDS = 3600;

/**
 * The endpoints we call, and where each comes from when discovery leaves it out: the service's
 * own paths under `{base_url}` (part 4), or, for the authorization endpoint, which lives on a
 * separate `{flow_url}`, the flow URL the integrator configured.
 */
const ENDPOINTS = [
  ['authorization_endpoint', undefined],
  ['token_endpoint', '/token'],
  ['jwks_uri', '/jwks'],
  // part 1: PAR is mandatory for every flow
  ['pushed_authorization_request_endpoint', '/par'],
] as const;

/** The endpoint members of ProviderMetadata. */
export type EndpointName = (typeof ENDPOINTS)[number][0];

/**
 * Where an endpoint came from: the discovery document, part 4's path under the issuer (the
 * document left it out), or the configured flow URL (the authorization endpoint, left out).
 * @see Interface specification 4 "Endpoints"
 */
export type EndpointSource = 'discovery' | 'part_4_path' | 'flow_url';

/**
 * Options of discovery processing beyond HTTP.
 * @see Interface specification 4 "Endpoints"
 */
export interface DiscoveryOptions extends HttpOptions {
  /**
   * `{flow_url}` (part 4: the authorization endpoint is `{flow_url}/auth`), used when the discovery
   * document has no `authorization_endpoint`. An absolute URL without trailing slash.
   */
  flowUrl?: string;
}

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
 * every endpoint we call secure. The spec does not show the document's body, so an endpoint it
 * leaves out is not an error: PAR, token and JWKS fall back to part 4's paths under the issuer,
 * the authorization endpoint (on a separate `{flow_url}`) to `options.flowUrl` + `/auth`. When any
 * did, `endpoint_sources` says where each came from (the trace shows it).
 * @param issuer the configured issuer, the service base URL
 * @param options `allowInsecureRequests` and `flowUrl` are read
 * @throws IdvError with code `discovery_failed` (status, body, an endpoint that is not a string,
 *   or no authorization endpoint and no flow URL),
 *   `discovery_issuer_mismatch`, `insecure_url` or `invalid_response` (an endpoint that is not a URL)
 * @see Interface specification 4 "Endpoints"
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfigurationValidation
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.3
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.3.3.1
 */
export async function processDiscoveryResponse(issuer: string, response: Response, options: DiscoveryOptions = {}): Promise<ProviderMetadata> {
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
  const sources: Partial<Record<EndpointName, EndpointSource>> = {};
  for (const [member, path] of ENDPOINTS) {
    let value = metadata[member];
    let source: EndpointSource = 'discovery';
    if (value === undefined) {
      if (path !== undefined) [value, source] = [`${issuer.replace(/\/$/, '')}${path}`, 'part_4_path'];
      else if (options.flowUrl !== undefined) [value, source] = [`${options.flowUrl.replace(/\/$/, '')}/auth`, 'flow_url'];
      else {
        throw new IdvError('discovery_failed', 'The discovery document has no authorization_endpoint, and no flow URL is configured for it', { claim: member });
      }
    }
    if (typeof value !== 'string') {
      throw new IdvError('discovery_failed', `The discovery document's ${member} is not a string`, { claim: member });
    }
    assertSecureUrl(
      value,
      options,
      `The ${member} (${source === 'discovery' ? 'from the discovery document' : source === 'flow_url' ? 'from the flow URL' : "part 4's path"})`,
    );
    metadata[member] = value;
    sources[member] = source;
  }
  const fallbacks = Object.entries(sources).filter(([, source]) => source !== 'discovery');
  return { ...(metadata as ProviderMetadata), ...(fallbacks.length > 0 ? { endpoint_sources: sources } : {}) };
}

/** A validated document and when its freshness ends. */
interface Entry {
  metadata: ProviderMetadata;
  expiresAt: number;
}

/**
 * Options of a DiscoveryCache, beside those of its requests.
 * @see Interface specification 4 "Endpoints"
 * @see https://www.rfc-editor.org/rfc/rfc5861#section-4
 */
export interface DiscoveryCacheOptions extends DiscoveryOptions {
  /** ms clock, for tests */
  now?: () => number;
  /**
   * Seconds past its freshness a document is still used when a refresh fails: 86 400 (a day) by
   * default, 0 to use none. A finite number, 0 or more; anything else is a RangeError.
   */
  staleIfErrorSeconds?: number;
}

/**
 * Discovery documents by issuer, kept as long as Cache-Control allows (an hour without the
 * header, a day at most). Concurrent callers share one request. A failed request is kept too
 * (negative caching): for a back-off of 1 s, doubling with each failure in a row up to 30 s,
 * every call fails at once with that failure's code and nothing is sent. When a refresh fails,
 * the last good document is still returned until `staleIfErrorSeconds` (a day by default) past
 * its freshness.
 * @see Interface specification 4 "Endpoints"
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfig
 * @see https://www.rfc-editor.org/rfc/rfc9111#section-5.2.2
 * @see https://www.rfc-editor.org/rfc/rfc5861#section-4
 */
export class DiscoveryCache {
  readonly #options: DiscoveryOptions;
  readonly #now: () => number;
  readonly #staleIfErrorMs: number;
  readonly #entries = new Map<string, Entry>();
  readonly #loader: BackedOffLoader<ProviderMetadata>;

  /** @throws RangeError when `staleIfErrorSeconds` is not a finite number, 0 or more */
  constructor(options: DiscoveryCacheOptions = {}) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#staleIfErrorMs = staleIfErrorMs(options.staleIfErrorSeconds ?? DEFAULT_STALE_IF_ERROR_SECONDS);
    this.#loader = new BackedOffLoader(this.#now);
  }

  /**
   * The validated metadata of `issuer`: from the cache while fresh, else from the network, else
   * (the refresh failed) the last good document while within the stale window.
   * @param options the relying party's HTTP options for this call (`fetch`, e.g. a tracing one;
   *   `timeoutMs`; `allowInsecureRequests`), each over the cache's own where given
   * @throws IdvError as `fetchDiscovery` and `processDiscoveryResponse` do; while backed off,
   *   with the code of the failure that started the back-off, without a request
   */
  async get(issuer: string, options: HttpOptions = {}): Promise<ProviderMetadata> {
    const entry = this.#entries.get(issuer);
    if (entry && entry.expiresAt > this.#now()) return entry.metadata;
    try {
      return await this.#refresh(issuer, withCallOptions(this.#options, options));
    } catch (error) {
      if (!entry || this.#now() >= entry.expiresAt + this.#staleIfErrorMs) throw error;
      return entry.metadata;
    }
  }

  /** One request at a time per issuer, none while backed off; a success ends the back-off. */
  #refresh(issuer: string, options: DiscoveryOptions): Promise<ProviderMetadata> {
    return this.#loader.load(issuer, async () => {
      const response = await fetchDiscovery(issuer, options);
      const lifetime = cacheLifetimeSeconds(response, DEFAULT_LIFETIME_SECONDS);
      const metadata = await processDiscoveryResponse(issuer, response, options);
      this.#entries.set(issuer, { metadata, expiresAt: this.#now() + lifetime * 1000 });
      return metadata;
    });
  }
}
