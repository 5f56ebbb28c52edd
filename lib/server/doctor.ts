import 'server-only';
/**
 * The doctor, for QA pointing the app at staging: it fetches the service's discovery document and
 * JWKS through the core's HTTP rules (the same timeouts and https rule as a verification) and
 * hands them, with the configuration, to the checks (doctor-checks.ts). GET /doctor shows the
 * findings, and GET /doctor/findings gives them to `npm run doctor`, which asks the running app:
 * one set reused for 15 seconds (doctor-cache.ts), whatever the language of who asks
 * (lib/view/doctor-words.ts). Against the embedded emulator every line passes.
 */
import { discoveryUrl, fetchDiscovery, fetchJwks, type FetchLike } from '@/lib/oidc';
import type { DoctorEndpoint, DoctorFindings } from '@/lib/verification/doctor-findings';
import { configurationFailed, findingsOf, jwksUriOf, transportCause, type Fetched } from './doctor-checks';
import type { ServerConfig } from './env';

/** `host:port` of a URL, for what to do about a failed request. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A JSON object from `endpoint` at `url`, or why there is none. */
async function fetchJson(endpoint: DoctorEndpoint, url: string, send: () => Promise<Response>): Promise<Fetched> {
  try {
    const response = await send();
    if (response.status !== 200) return { url, problem: { kind: 'status', endpoint, status: response.status } };
    const body: unknown = await response.json().catch(() => undefined);
    return body && typeof body === 'object' && !Array.isArray(body)
      ? { url, body: body as Record<string, unknown> }
      : { url, problem: { kind: 'not_object', endpoint } };
  } catch (error) {
    // The core's errors name the endpoint already ("The discovery endpoint could not be reached: …").
    return { url, problem: { kind: 'error', endpoint, message: (error as Error).message, cause: transportCause(error), host: hostOf(url) } };
  }
}

/**
 * Every check, fetching discovery and then the JWKS, as data (the doctor's report before it is
 * put into words). `fetch`: how to reach the service (in emulator mode, the handler of this
 * process's own embedded emulator).
 */
export async function examine(config: ServerConfig, fetch?: FetchLike): Promise<DoctorFindings> {
  const http = { allowInsecureRequests: config.allowInsecureRequests, ...(fetch ? { fetch } : {}) };
  const discovery = await fetchJson('discovery', discoveryUrl(config.issuer), () => fetchDiscovery(config.issuer, http));
  if (!('body' in discovery)) return findingsOf(config, { discovery });
  const jwksUri = jwksUriOf(config.issuer, discovery.body);
  const jwks = await fetchJson('jwks', jwksUri, () => fetchJwks(jwksUri, http));
  return findingsOf(config, { discovery, jwks });
}

/**
 * The doctor's findings for this app as it runs: its own embedded emulator reached through its
 * handler (the very emulator its verifications use), the real service over the network; a
 * configuration that does not load is one failed line naming the variable.
 */
export async function examineThisApp(): Promise<DoctorFindings> {
  const { ConfigurationError } = await import('./env');
  let loaded;
  try {
    const { services } = await import('./services');
    loaded = await services();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    return configurationFailed(error);
  }
  const { config, emulator } = loaded;
  const viaEmulator: FetchLike | undefined = emulator ? (input, init) => emulator.handle(new Request(input, init)) : undefined;
  return examine(config, viaEmulator);
}
