/**
 * Discovery: GET `{issuer}/.well-known/openid-configuration` (part 4), validated and cached.
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html §4
 */
import { IdvError } from './errors';
import { assertSecureUrl, cacheLifetimeSeconds, readJsonObject, send } from './http';
import type { HttpOptions, ProviderMetadata } from './types';

/** Cached for an hour unless the response says otherwise. */
const DEFAULT_LIFETIME_SECONDS = 3600;

const REQUIRED_ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'jwks_uri',
  // part 1: PAR is mandatory for every flow
  'pushed_authorization_request_endpoint',
] as const;

export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
}

/** Sends the discovery request. */
export function fetchDiscovery(issuer: string, options: HttpOptions = {}): Promise<Response> {
  return send(discoveryUrl(issuer), { headers: { accept: 'application/json' } }, options, 'The discovery endpoint');
}

/**
 * Checks a discovery response: 200, a JSON object, `issuer` identical to the configured issuer
 * (Discovery §4.3; DESIGN.md: the issuer must equal IDV_BASE_URL), and every endpoint we call
 * present and secure.
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
 * Discovery documents by issuer, kept as long as Cache-Control allows. Concurrent callers share
 * one request; a failed request is not cached.
 */
export class DiscoveryCache {
  readonly #options: HttpOptions;
  readonly #now: () => number;
  readonly #entries = new Map<string, { expiresAt: number; metadata: Promise<ProviderMetadata> }>();

  constructor(options: HttpOptions & { now?: () => number } = {}) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** @param options.fetch used if this call has to go to the network (e.g. a tracing fetch) */
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
