import 'server-only';
/**
 * The doctor, for QA pointing the app at staging: the configuration, the service's discovery
 * document and its JWKS, checked against what the interface specification and this client need.
 * Each line passes, warns or fails, and says what to do. `npm run doctor` prints it; GET /doctor
 * shows it. Against the embedded emulator every line passes.
 *
 * The checks of the fetched documents are pure (`checkDiscovery`, `checkJwks`); `runDoctor`
 * fetches them through the core's HTTP rules (the same timeouts and https rule as a verification).
 */
import type { JWK } from 'jose';
import { CLAIM_NAMES, clientPublicJwks, discoveryUrl, fetchDiscovery, fetchJwks, TRUST_FRAMEWORKS, type FetchLike } from '@/lib/oidc';
import type { ServerConfig } from './env';

export type DoctorStatus = 'pass' | 'warn' | 'fail';

export interface DoctorLine {
  /** stable, for tests and scripts */
  id: string;
  title: string;
  status: DoctorStatus;
  /** what was found */
  detail: string;
  /** what to do, when it is not a pass */
  fix?: string;
}

export interface DoctorReport {
  lines: DoctorLine[];
  /** our public keys, to register with the service */
  publicJwks: { keys: JWK[] };
  /** fail when any line fails, warn when any warns */
  status: DoctorStatus;
}

const line = (id: string, title: string, status: DoctorStatus, detail: string, fix?: string): DoctorLine => ({ id, title, status, detail, ...(fix && status !== 'pass' ? { fix } : {}) });

function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]' || url.hostname.endsWith('.localhost');
}

/** https, or http on a loopback host (development against a local provider or the embedded emulator). */
function secureEnough(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url));
  } catch {
    return false;
  }
}

const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined);

/** A member that lists supported values: pass when it has every one of `needed`, warn when absent, fail when it lacks one. */
function supports(metadata: Record<string, unknown>, member: string, needed: readonly string[], id: string, title: string, fix: string): DoctorLine {
  const listed = strings(metadata[member]);
  if (!listed) return line(id, title, 'warn', `${member} is not in the document, so support for ${needed.join(', ')} cannot be confirmed`, fix);
  const missing = needed.filter((value) => !listed.includes(value));
  return missing.length === 0
    ? line(id, title, 'pass', `${member}: ${listed.join(', ')}`)
    : line(id, title, 'fail', `${member} lacks ${missing.join(', ')} (it lists ${listed.join(', ') || 'nothing'})`, fix);
}

export interface DiscoveryContext {
  issuer: string;
  /** the algorithm of our signing key (client assertions and request objects) */
  signingAlg: string;
}

/** The discovery document's lines. */
export function checkDiscovery(metadata: Record<string, unknown>, { issuer, signingAlg }: DiscoveryContext): DoctorLine[] {
  const lines: DoctorLine[] = [];
  lines.push(
    metadata.issuer === issuer
      ? line('issuer', 'Issuer equals IDV_BASE_URL', 'pass', `issuer ${issuer}`)
      : line('issuer', 'Issuer equals IDV_BASE_URL', 'fail', `the document names ${JSON.stringify(metadata.issuer)}, not ${issuer}`, 'Set IDV_BASE_URL to exactly the issuer the document names (no trailing slash unless it has one).'),
  );
  const endpoints = ['pushed_authorization_request_endpoint', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const;
  const listed = endpoints.filter((name) => typeof metadata[name] === 'string');
  const insecure = listed.filter((name) => !secureEnough(metadata[name] as string));
  const absent = endpoints.filter((name) => metadata[name] === undefined);
  lines.push(
    insecure.length > 0
      ? line('https', 'Endpoints use https', 'fail', `not https: ${insecure.map((name) => `${name} ${String(metadata[name])}`).join(', ')}`, 'The service must publish https endpoints; the app refuses plain http except on a loopback host.')
      : line(
          'https',
          'Endpoints use https',
          absent.length > 0 ? 'warn' : 'pass',
          `${listed.map((name) => `${name} ${String(metadata[name])}`).join(', ') || 'no endpoint listed'}${
            listed.some((name) => (metadata[name] as string).startsWith('http:')) ? ' (plain http on a loopback host: development only)' : ''
          }${absent.length > 0 ? `; not in the document: ${absent.join(', ')} (part 4's paths are used instead)` : ''}`,
          'Nothing to do if part 4\'s paths are right; ask the provider to publish its endpoints otherwise.',
        ),
  );
  const par = metadata.require_pushed_authorization_requests;
  lines.push(
    par === true
      ? line('par', 'Pushed authorization requests required', 'pass', 'require_pushed_authorization_requests: true')
      : par === undefined
        ? line('par', 'Pushed authorization requests required', 'warn', 'require_pushed_authorization_requests is not in the document (part 4 requires PAR; this client always uses it)', 'Nothing to do for this client; the provider may add the member.')
        : line('par', 'Pushed authorization requests required', 'fail', `require_pushed_authorization_requests: ${JSON.stringify(par)}, but part 4 requires PAR`, 'Check that IDV_BASE_URL names the identity verification service.'),
  );
  lines.push(supports(metadata, 'id_token_signing_alg_values_supported', ['ES256'], 'id-token-signing', 'ID tokens signed with ES256', 'The app verifies ES256 ID tokens (spec 2.6): ask the provider.'));
  lines.push(supports(metadata, 'id_token_encryption_alg_values_supported', ['RSA-OAEP-256'], 'id-token-encryption-alg', 'ID tokens encrypted with RSA-OAEP-256', 'The app decrypts RSA-OAEP-256 (spec 2.6): ask the provider.'));
  lines.push(supports(metadata, 'id_token_encryption_enc_values_supported', ['A256GCM'], 'id-token-encryption-enc', 'ID token content encrypted with A256GCM', 'The app decrypts A256GCM (spec 2.6): ask the provider.'));
  lines.push(supports(metadata, 'token_endpoint_auth_methods_supported', ['private_key_jwt'], 'client-authentication', 'Client authentication by private_key_jwt', 'The app authenticates with private_key_jwt only (spec 5).'));
  lines.push(
    supports(metadata, 'token_endpoint_auth_signing_alg_values_supported', [signingAlg], 'client-assertion-alg', `Client assertions signed with our key's ${signingAlg}`, `Use a signing key the service accepts: npm run keys -- --alg ES256 (ES256 is the spec's).`),
  );
  lines.push(
    supports(metadata, 'request_object_signing_alg_values_supported', [signingAlg], 'request-object-alg', `Request objects signed with our key's ${signingAlg}`, `Use a signing key the service accepts: npm run keys -- --alg ES256 (ES256 is the spec's).`),
  );
  lines.push(supports(metadata, 'trust_frameworks_supported', TRUST_FRAMEWORKS, 'trust-frameworks', 'Trust frameworks standard and standard_etsi', 'The picker offers what the document lists; a missing framework cannot be requested.'));
  lines.push(supports(metadata, 'claims_in_verified_claims_supported', CLAIM_NAMES, 'claims', 'Every claim the picker offers, as verified claims', 'A claim the service does not support comes back "not provided".'));
  lines.push(supports(metadata, 'evidence_supported', ['document', 'electronic_record'], 'evidence', 'Document and register evidence', 'Evidence the service does not support comes back "not provided".'));
  lines.push(
    metadata.authorization_response_iss_parameter_supported === true
      ? line('response-issuer', 'Issuer in the authorization response (RFC 9207)', 'pass', 'authorization_response_iss_parameter_supported: true; the app then requires iss')
      : line('response-issuer', 'Issuer in the authorization response (RFC 9207)', 'warn', 'not advertised: the app checks iss only when it is sent', 'Nothing to do; mix-up protection then rests on state and the issuer of the pending flow.'),
  );
  return lines;
}

/** The JWKS's lines. */
export function checkJwks(jwks: Record<string, unknown>): DoctorLine[] {
  const keys = Array.isArray(jwks.keys) ? (jwks.keys.filter((key) => key && typeof key === 'object') as JWK[]) : undefined;
  if (!keys) return [line('jwks-keys', 'Signing keys published', 'fail', 'the JWKS has no keys array', 'Check the jwks_uri of the discovery document.')];
  const lines: DoctorLine[] = [];
  const signing = keys.filter((key) => key.kty === 'EC' && key.crv === 'P-256' && (key.use === undefined || key.use === 'sig') && (key.alg === undefined || key.alg === 'ES256') && typeof key.kid === 'string');
  lines.push(
    signing.length > 0
      ? line('jwks-keys', 'An ES256 signing key with a kid', 'pass', `${keys.length} key${keys.length === 1 ? '' : 's'}, ${signing.length} for ES256 (kid ${signing.map((key) => key.kid).join(', ')})`)
      : line('jwks-keys', 'An ES256 signing key with a kid', 'fail', `none of the ${keys.length} keys is an EC P-256 signing key with a kid`, 'ID tokens cannot be verified: ask the provider.'),
  );
  const kids = keys.map((key) => key.kid).filter((kid): kid is string => typeof kid === 'string');
  const duplicates = [...new Set(kids.filter((kid, index) => kids.indexOf(kid) !== index))];
  lines.push(
    duplicates.length === 0
      ? line('jwks-kids', 'Key ids unique', 'pass', `${kids.length} kid${kids.length === 1 ? '' : 's'}, all different`)
      : line('jwks-kids', 'Key ids unique', 'fail', `repeated kid: ${duplicates.join(', ')}`, 'A kid must name one key (spec 4.4); ask the provider.'),
  );
  const privateKeys = keys.filter((key) => ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].some((member) => member in key));
  lines.push(
    privateKeys.length === 0
      ? line('jwks-public', 'Public keys only', 'pass', 'no private key material')
      : line('jwks-public', 'Public keys only', 'fail', `private members in kid ${privateKeys.map((key) => key.kid ?? '(none)').join(', ')}`, 'The service publishes private keys: stop and tell the provider. The app refuses such a JWKS.'),
  );
  return lines;
}

/** Our own configuration's lines. */
export function checkConfiguration(config: Pick<ServerConfig, 'mode' | 'issuer' | 'appUrl' | 'redirectUri' | 'client'>): DoctorLine[] {
  const { signingKey, encryptionKey } = config.client;
  const redirect = new URL(config.redirectUri);
  return [
    line('mode', 'Configuration valid', 'pass', `${config.mode} mode, issuer ${config.issuer}, client ${config.client.clientId}`),
    redirect.protocol === 'https:' || isLoopback(redirect)
      ? line('redirect-uri', 'Redirect URI', 'pass', `${config.redirectUri} (register exactly this one with the service)`)
      : line('redirect-uri', 'Redirect URI', 'fail', `${config.redirectUri} is plain http on a public host`, 'Set APP_URL to the https address the app is reached at.'),
    line('signing-key', 'Our signing key', 'pass', `${signingKey.alg}, kid ${signingKey.kid}`),
    line('encryption-key', 'Our encryption key', 'pass', `${encryptionKey.alg ?? 'RSA-OAEP-256'}, kid ${encryptionKey.kid}`),
  ];
}

async function fetchJson(what: string, send: () => Promise<Response>): Promise<Record<string, unknown> | string> {
  try {
    const response = await send();
    if (response.status !== 200) return `${what} answered HTTP ${response.status}`;
    const body: unknown = await response.json().catch(() => undefined);
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : `${what} did not answer with a JSON object`;
  } catch (error) {
    // The core's errors name the endpoint already ("The discovery endpoint could not be reached: …").
    return (error as Error).message;
  }
}

function summary(lines: readonly DoctorLine[]): DoctorStatus {
  return lines.some((l) => l.status === 'fail') ? 'fail' : lines.some((l) => l.status === 'warn') ? 'warn' : 'pass';
}

/**
 * Every check, fetching discovery and the JWKS. `fetch`: how to reach the service (the embedded
 * emulator's handler in emulator mode, so the doctor needs no running server).
 */
export async function runDoctor(config: ServerConfig, fetch?: FetchLike): Promise<DoctorReport> {
  const http = { allowInsecureRequests: config.allowInsecureRequests, ...(fetch ? { fetch } : {}) };
  const lines = checkConfiguration(config);
  const discovery = await fetchJson('The discovery endpoint', () => fetchDiscovery(config.issuer, http));
  if (typeof discovery === 'string') {
    lines.push(line('discovery', 'Discovery document', 'fail', `${discovery} (${discoveryUrl(config.issuer)})`, 'Check IDV_BASE_URL and the network.'));
  } else {
    lines.push(line('discovery', 'Discovery document', 'pass', discoveryUrl(config.issuer)));
    lines.push(...checkDiscovery(discovery, { issuer: config.issuer, signingAlg: config.client.signingKey.alg }));
    const jwksUri = typeof discovery.jwks_uri === 'string' ? discovery.jwks_uri : `${config.issuer.replace(/\/$/, '')}/jwks`;
    const jwks = await fetchJson('The JWKS endpoint', () => fetchJwks(jwksUri, http));
    if (typeof jwks === 'string') lines.push(line('jwks', 'Key set (JWKS)', 'fail', `${jwks} (${jwksUri})`, 'Check the jwks_uri of the discovery document.'));
    else lines.push(line('jwks', 'Key set (JWKS)', 'pass', jwksUri), ...checkJwks(jwks));
  }
  return { lines, publicJwks: clientPublicJwks(config.client), status: summary(lines) };
}

/** `make`'s last result while it is younger than `ms`, a new one after (`now`: ms clock). */
export function reusedFor<T>(ms: number, make: () => T, now: () => number = Date.now): () => T {
  let recent: { value: T; at: number } | undefined;
  return () => {
    const at = now();
    if (!recent || at - recent.at >= ms) recent = { value: make(), at };
    return recent.value;
  };
}

/**
 * The doctor for this app as configured, at most one fresh report per 15 seconds (GET /doctor is
 * public: nobody may make us hammer the service through it): the embedded emulator is reached
 * through its handler (no network, no running server needed), the real service over the network.
 */
export const doctorReport: () => Promise<DoctorReport> = reusedFor(15_000, () => freshReport());

/** A configuration that does not load is a report of one failed line naming the variable. */
async function freshReport(): Promise<DoctorReport> {
  const { ConfigurationError } = await import('./env');
  let loaded;
  try {
    const { services } = await import('./services');
    loaded = await services();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    return { lines: [line('configuration', 'Configuration valid', 'fail', error.message, `Fix ${error.variable} (README "Configuration").`)], publicJwks: { keys: [] }, status: 'fail' };
  }
  const { config, emulator } = loaded;
  const fetch: FetchLike | undefined = emulator ? (input, init) => emulator.handle(new Request(input, init)) : undefined;
  return runDoctor(config, fetch);
}
