import 'server-only';
/**
 * The configuration, read from the environment and validated once (the table of variables in
 * docs/operations.md "Configuration"). This is the only module that reads `process.env`. Every problem is reported with
 * the variable's name.
 */
import { createPublicKey, X509Certificate, type JsonWebKey as NodeJsonWebKey } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { importJWK, type JWK } from 'jose';
import {
  CLIENT_SIGNING_ALGORITHMS,
  ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS,
  parseIdTokenEncryption,
  POPULATION_REGISTER_NAME,
  type ClientConfig,
  type ClientSigningAlgorithm,
  type GeneratedClientKeys,
  type IdTokenEncryption,
} from '@/lib/oidc';
import {
  checkRateLimits,
  MIN_PANEL_PASSWORD_LENGTH,
  parseRegisteredClients,
  RATE_LIMITS,
  type PanelAccess,
  type RateLimits,
  type RegisteredClient,
} from '@/lib/emulator';
import { redisUrlProblem } from '@/lib/store/redis-store';

/** The client_id of the app's own registration with the embedded emulator. */
export const DEMO_CLIENT_ID = 'demo-relying-party';

export interface ServerConfig {
  mode: 'emulator' | 'provider';
  appUrl: string;
  /** `APP_URL/auth/callback` */
  redirectUri: string;
  /** the service's base URL = its issuer */
  issuer: string;
  /**
   * `{flow_url}` (part 4), for an authorization endpoint the discovery document leaves out:
   * IDV_FLOW_URL in provider mode; the embedded emulator's own base URL in emulator mode.
   */
  flowUrl?: string;
  client: ClientConfig;
  sessionSecret: string;
  /**
   * The emulator's base URL as a phone on the same network reaches it, for the QR code of the
   * simulated identity app (EMULATOR_DEVICE_URL, or this machine's LAN address when APP_URL is a
   * loopback address a phone cannot reach).
   */
  emulatorDeviceUrl: string;
  /**
   * EMULATOR_FLOW_URL: the embedded emulator's `{flow_url}` on an origin of its own (another
   * port), where its authorization endpoint is advertised and a second listener serves it; with
   * `listen`, where that listener binds. Undefined: /auth is advertised under the issuer.
   */
  emulatorFlow?: { baseUrl: string; listen: { host: string; port: number } };
  /** clients registered with the embedded emulator besides the app itself (EMULATOR_CLIENTS) */
  extraEmulatorClients: RegisteredClient[];
  /** the embedded emulator's rate limits, requests per minute per client address (EMULATOR_RATE_LIMITS) */
  emulatorRateLimits: RateLimits;
  /**
   * Who may use the embedded emulator's QA panel actions: signed in with EMULATOR_PANEL_PASSWORD
   * when it is set; otherwise anyone in development and nobody under NODE_ENV=production.
   */
  emulatorPanel: PanelAccess;
  /** NODE_ENV=production */
  production: boolean;
  /** the population register's name our register requests carry (IDV_POPULATION_REGISTER_NAME) */
  populationRegisterName: string;
  /** the name the embedded emulator expects and returns (EMULATOR_POPULATION_REGISTER_NAME) */
  emulatorPopulationRegisterName: string;
  /** plain http is allowed only for a loopback issuer (the embedded emulator, or one on this machine) */
  allowInsecureRequests: boolean;
  secureCookies: boolean;
  dataDir: string;
  /** what was generated into the data folder rather than configured, for the start-up log */
  generated: string[];
  /**
   * Development client keys taken from the shared store rather than configured (emulator mode
   * with REDIS_URL, shared-dev-keys.ts): the variables they stand in for, the pair as stored
   * (services.ts renews it while this instance runs), its full key in Redis, and whether this
   * instance stored it. Undefined otherwise.
   */
  sharedDevKeys?: { variables: string[]; keys: GeneratedClientKeys; storeKey: string; createdHere: boolean };
  /** how many proxies in front of the app to trust for X-Forwarded-For (rate limits); TRUST_PROXY */
  trustedProxies: number;
  /** verifications that may start per minute, per client address and overall */
  startLimits: { perAddress: number; overall: number };
  /** where state lives: this process's memory (one instance), or a Redis shared by every instance */
  /** where state lives: this process's memory within a budget (IDV_MEMORY_BUDGET_MIB), or Redis */
  state: { store: 'memory'; budgetMiB: number } | { store: 'redis'; url: string; prefix: string };
  /**
   * Whether request objects carry `ui_locales` (OpenID Connect Core §3.1.2.1), so the service's
   * pages follow the app's language. Spec 2.2 does not list it, so a service that checks the
   * letter refuses it: IDV_UI_LOCALES, on by default only in emulator mode with a lenient emulator.
   */
  uiLocales: { send: boolean; source: 'IDV_UI_LOCALES' | 'default' };
  /**
   * The ID token encryptions to accept, pinned (IDV_ID_TOKEN_ENCRYPTION); undefined: those the
   * service's discovery document advertises of our family, else RSA-OAEP-256 / A256GCM.
   */
  idTokenEncryption?: IdTokenEncryption[];
  /** EMULATOR_STRICT: the embedded emulator starts as strict as the letter of the spec */
  emulatorStrict: boolean;
  /** EMULATOR_REDIRECT_ISS: the embedded emulator starts with `iss` on its redirects (RFC 9207); default on */
  emulatorRedirectIss: boolean;
  /**
   * The certificates the service's signing certificate chain (`x5c`, spec 2.7) is validated up
   * to, base64 DER (IDV_TRUST_ANCHOR); empty: chains are not validated, and the result page says so.
   */
  trustAnchors: string[];
  /**
   * The relying party a demo is given in the name of (IDV_DEMO_NAME, IDV_DEMO_LOGO): the header
   * shows them, and the embedded emulator's pages name the client by them.
   */
  demo: { name?: string; logo?: DemoLogo };
  /** IDV_CUSTOMER_MODE: the pages show nothing of QA's (links to the QA panel and the doctor, which stay reachable by URL; the health badge; QA's controls) */
  customerMode: boolean;
}

/** Where the app serves the demo's logo (app/demo-logo/route.ts). */
export const DEMO_LOGO_PATH = '/demo-logo';

/** The demo's logo, read and checked at start-up; GET /demo-logo serves these bytes. */
export interface DemoLogo {
  contentType: 'image/png' | 'image/jpeg' | 'image/webp';
  bytes: Uint8Array;
}

export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

/**
 * A loopback host, where plain http is allowed (development): localhost and its subdomains
 * (RFC 6761 §6.3 keeps them on loopback), 127.0.0.0/8 and [::1]. The doctor judges a provider's
 * endpoints by the same rule.
 */
export function isLoopback(url: URL): boolean {
  return url.hostname === 'localhost' || url.hostname.endsWith('.localhost') || url.hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(url.hostname);
}

function parseUrl(name: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigurationError(name, `"${raw}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigurationError(name, 'must be an http(s) URL');
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigurationError(name, 'must not contain a query, fragment or credentials');
  }
  return url;
}

/**
 * The app's public origin: APP_URL, else http://localhost:$PORT (3000). Also where `npm run doctor`
 * asks the running app for its findings.
 */
export function parseAppUrl(env: Env): string {
  const port = value(env, 'PORT') ?? '3000';
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new ConfigurationError('PORT', `"${port}" is not a port number`);
  const raw = value(env, 'APP_URL') ?? `http://localhost:${port}`;
  const url = parseUrl('APP_URL', raw);
  if (url.pathname !== '/') throw new ConfigurationError('APP_URL', 'must be an origin such as https://rp.example.com, without a path');
  // Over plain http the session cookie could not be Secure (nor __Host-), and the redirect URI
  // would carry the code in the clear: RFC 9700 §2.6 and FAPI 2.0 require https.
  if (url.protocol === 'http:' && !isLoopback(url)) {
    throw new ConfigurationError('APP_URL', `must use https unless its host is a loopback address (localhost, 127.0.0.0/8, [::1]), not "${url.origin}"`);
  }
  return url.origin;
}

function parseDeviceUrl(env: Env, appUrl: string, lanAddress: string | undefined): string {
  const raw = value(env, 'EMULATOR_DEVICE_URL');
  if (raw) {
    const url = parseUrl('EMULATOR_DEVICE_URL', raw);
    if (url.pathname !== '/') throw new ConfigurationError('EMULATOR_DEVICE_URL', 'must be an origin such as http://192.168.1.20:3000, without a path');
    return `${url.origin}/emulator`;
  }
  const app = new URL(appUrl);
  if (isLoopback(app) && lanAddress) app.hostname = lanAddress;
  return `${app.origin}/emulator`;
}

/**
 * EMULATOR_FLOW_URL: an origin such as http://localhost:3102 on which a second listener serves
 * the emulator's authorization endpoint (spec part 4: `{flow_url}/auth`, another origin than
 * `{base_url}`). Another origin than APP_URL; the listener binds to HOST, as scripts/start.mjs does (default all interfaces).
 */
function parseEmulatorFlow(env: Env, appUrl: string): ServerConfig['emulatorFlow'] {
  const raw = value(env, 'EMULATOR_FLOW_URL');
  if (!raw) return undefined;
  const url = parseUrl('EMULATOR_FLOW_URL', raw);
  if (url.pathname !== '/' || raw.endsWith('/'))
    throw new ConfigurationError('EMULATOR_FLOW_URL', 'must be an origin such as http://localhost:3102, without a path or trailing slash');
  if (url.protocol === 'http:' && !isLoopback(url)) throw new ConfigurationError('EMULATOR_FLOW_URL', 'must use https unless its host is a loopback address');
  if (url.origin === new URL(appUrl).origin)
    throw new ConfigurationError('EMULATOR_FLOW_URL', 'must be another origin than APP_URL (that one already serves /emulator/auth)');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return { baseUrl: `${url.origin}/emulator`, listen: { host: value(env, 'HOST') ?? '0.0.0.0', port } };
}

function parseIssuer(raw: string): string {
  const url = parseUrl('IDV_BASE_URL', raw);
  if (url.protocol === 'http:' && !isLoopback(url)) {
    throw new ConfigurationError('IDV_BASE_URL', 'must use https (plain http is accepted only for localhost)');
  }
  if (raw.endsWith('/')) throw new ConfigurationError('IDV_BASE_URL', 'must not end with "/": it must equal the issuer exactly');
  return raw;
}

function parseJwk(name: string, raw: string): JWK {
  let jwk: unknown;
  try {
    jwk = JSON.parse(raw);
  } catch {
    throw new ConfigurationError(name, 'is not JSON; expected a private JWK such as {"kty":"EC",...,"d":"…","kid":"…"}');
  }
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk)) throw new ConfigurationError(name, 'must be a JSON object (a JWK)');
  const key = jwk as JWK;
  if (typeof key.kid !== 'string' || !key.kid) throw new ConfigurationError(name, 'needs a "kid"');
  if (typeof key.d !== 'string') throw new ConfigurationError(name, 'must be a private key (it has no "d")');
  return key;
}

/** 5.2: the algorithm follows from the key type when `alg` is not given. */
function signingAlgorithm(jwk: JWK): ClientSigningAlgorithm {
  const implied =
    jwk.kty === 'EC' && jwk.crv === 'P-256' ? 'ES256' : jwk.kty === 'OKP' && jwk.crv === 'Ed25519' ? 'EdDSA' : jwk.kty === 'RSA' ? 'PS256' : undefined;
  const alg = jwk.alg ?? implied;
  if (!alg || !(CLIENT_SIGNING_ALGORITHMS as readonly string[]).includes(alg)) {
    throw new ConfigurationError(
      'IDV_SIGNING_KEY',
      `must be an ES256 (EC P-256), PS256 (RSA) or EdDSA (Ed25519) key; got alg ${alg ?? 'none'}, kty ${jwk.kty}`,
    );
  }
  return alg as ClientSigningAlgorithm;
}

async function assertImportable(name: string, jwk: JWK, alg: string): Promise<void> {
  try {
    await importJWK(jwk, alg);
  } catch (error) {
    throw new ConfigurationError(name, `cannot be used as an ${alg} key: ${(error as Error).message}`);
  }
}

async function parseSigningKey(raw: string): Promise<ClientConfig['signingKey']> {
  const jwk = parseJwk('IDV_SIGNING_KEY', raw);
  const alg = signingAlgorithm(jwk);
  await assertImportable('IDV_SIGNING_KEY', jwk, alg);
  return { ...jwk, kid: jwk.kid!, alg };
}

async function parseEncryptionKey(raw: string): Promise<ClientConfig['encryptionKey']> {
  const jwk = parseJwk('IDV_ENCRYPTION_KEY', raw);
  if (jwk.kty !== 'RSA') throw new ConfigurationError('IDV_ENCRYPTION_KEY', `must be an RSA key (kty "RSA"), got "${jwk.kty}"`);
  if (jwk.alg !== undefined && !(ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS as readonly string[]).includes(jwk.alg)) {
    throw new ConfigurationError('IDV_ENCRYPTION_KEY', `must be an RSA-OAEP-256 (or RSA-OAEP) key, got alg "${jwk.alg}"`);
  }
  await assertImportable('IDV_ENCRYPTION_KEY', jwk, 'RSA-OAEP-256');
  const bits = createPublicKey({ key: jwk as NodeJsonWebKey, format: 'jwk' }).asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 2048) throw new ConfigurationError('IDV_ENCRYPTION_KEY', `must be an RSA key of at least 2048 bits (it has ${bits})`);
  return { ...jwk, kid: jwk.kid! };
}

/**
 * IDV_SIGNING_KEY and IDV_ENCRYPTION_KEY, as configured; what is not configured is a development
 * key, read at start-up (configuration.ts):
 * - with one instance (no REDIS_URL), generated once into the data folder;
 * - with REDIS_URL in emulator mode, the pair in the shared store, the same on every instance
 *   (each instance's emulator registers its own configuration's keys, so they must all agree);
 * - with REDIS_URL in provider mode, none: the service trusts only the keys registered with it,
 *   and private keys registered with a real service do not belong in Redis.
 */
async function parseClientKeys(env: Env, { mode, state }: { mode: ServerConfig['mode']; state: ServerConfig['state'] }): Promise<ParsedConfig['keys']> {
  const rawSigning = value(env, 'IDV_SIGNING_KEY');
  const rawEncryption = value(env, 'IDV_ENCRYPTION_KEY');
  const signingKey = rawSigning ? await parseSigningKey(rawSigning) : undefined;
  const encryptionKey = rawEncryption ? await parseEncryptionKey(rawEncryption) : undefined;
  const missing = [...(signingKey ? [] : ['IDV_SIGNING_KEY']), ...(encryptionKey ? [] : ['IDV_ENCRYPTION_KEY'])];
  if (missing.length > 0 && state.store === 'redis' && mode === 'provider') {
    const also = missing.length > 1 ? ` (so is ${missing[1]})` : '';
    throw new ConfigurationError(
      missing[0]!,
      `is required in provider mode when REDIS_URL is set${also}: every instance must use the keys registered with the service, never development keys of its own. Generate a pair with \`npm run keys\`, register its public JWKS, and give every instance the same private keys`,
    );
  }
  return {
    ...(signingKey ? { signingKey } : {}),
    ...(encryptionKey ? { encryptionKey } : {}),
    ...(missing.length > 0 ? { development: { variables: missing, from: state.store === 'redis' ? 'shared-store' : 'data-folder' } } : {}),
  };
}

/** The client's keys: those configured, the development pair for the rest (read at start-up). */
export function clientKeysOf(keys: ParsedConfig['keys'], development: GeneratedClientKeys | undefined): Pick<ClientConfig, 'signingKey' | 'encryptionKey'> {
  const signingKey = keys.signingKey ?? development!.signingKey;
  const encryptionKey = keys.encryptionKey ?? development!.encryptionKey;
  if (keys.encryptionKey && encryptionKey.kid === signingKey.kid) {
    throw new ConfigurationError('IDV_ENCRYPTION_KEY', "must have a kid of its own, not the signing key's");
  }
  return { signingKey, encryptionKey };
}

/** A whole number from 1 to 100000, or the default when unset. */
function parseLimit(env: Env, name: string, fallback: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > 100_000) {
    throw new ConfigurationError(name, `must be a whole number of verifications per minute, 1 to 100000, not "${raw.slice(0, 20)}"`);
  }
  return Number(raw);
}

/** REDIS_URL and IDV_REDIS_PREFIX; a message never repeats the URL (it may carry a password). */
function parseState(env: Env): ServerConfig['state'] {
  const url = value(env, 'REDIS_URL');
  const rawPrefix = value(env, 'IDV_REDIS_PREFIX');
  if (!url) {
    if (rawPrefix) throw new ConfigurationError('IDV_REDIS_PREFIX', 'is used only with REDIS_URL, which is not set');
    const rawBudget = value(env, 'IDV_MEMORY_BUDGET_MIB') ?? '64';
    if (!/^\d{1,4}$/.test(rawBudget) || Number(rawBudget) < 4 || Number(rawBudget) > 4096) {
      throw new ConfigurationError('IDV_MEMORY_BUDGET_MIB', `must be a whole number of MiB from 4 to 4096, not "${rawBudget.slice(0, 20)}"`);
    }
    return { store: 'memory', budgetMiB: Number(rawBudget) };
  }
  if (value(env, 'IDV_MEMORY_BUDGET_MIB') !== undefined) {
    throw new ConfigurationError('IDV_MEMORY_BUDGET_MIB', 'is used only without REDIS_URL (Redis keeps the state, within its own maxmemory)');
  }
  const problem = redisUrlProblem(url);
  if (problem) throw new ConfigurationError('REDIS_URL', problem);
  const prefix = rawPrefix ?? 'idv:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(prefix)) {
    throw new ConfigurationError('IDV_REDIS_PREFIX', 'must be 1 to 64 letters, digits or : _ . - (e.g. "idv:" or "staging:idv:")');
  }
  return { store: 'redis', url, prefix };
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([^-]*)-----END CERTIFICATE-----/g;

/**
 * IDV_TRUST_ANCHOR: one PEM certificate or several concatenated (a CA bundle), each of which must
 * parse. A one-line value may write its line breaks as `\n`. Returned as base64 DER.
 */
function parseTrustAnchors(env: Env): string[] {
  const raw = value(env, 'IDV_TRUST_ANCHOR');
  if (raw === undefined) return [];
  const pem = raw.replace(/\\n/g, '\n');
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
    throw new ConfigurationError('IDV_TRUST_ANCHOR', "holds a private key: give only the certificate of the CA the service's signing certificates chain up to");
  }
  const blocks = [...pem.matchAll(PEM_CERTIFICATE)].map((match) => match[1]!.replace(/\s+/g, ''));
  if (blocks.length === 0 || blocks.length !== pem.split('-----BEGIN ').length - 1) {
    throw new ConfigurationError(
      'IDV_TRUST_ANCHOR',
      'is not a PEM certificate, or several: expected "-----BEGIN CERTIFICATE-----", base64, "-----END CERTIFICATE-----" for each',
    );
  }
  return blocks.map((base64, index) => {
    try {
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw new Error('not base64');
      new X509Certificate(Buffer.from(base64, 'base64'));
    } catch {
      throw new ConfigurationError('IDV_TRUST_ANCHOR', `certificate ${index + 1} of ${blocks.length} is not a readable X.509 certificate`);
    }
    return base64;
  });
}

/**
 * IDV_FLOW_URL: `{flow_url}`, the base of the authorization endpoint `{flow_url}/auth` (part 4),
 * used only when the discovery document has no `authorization_endpoint`. https, or http on a
 * loopback host (as IDV_BASE_URL); no trailing slash, query or fragment.
 */
function parseFlowUrl(raw: string): string {
  const url = parseUrl('IDV_FLOW_URL', raw);
  if (url.search || url.hash || raw.endsWith('/'))
    throw new ConfigurationError('IDV_FLOW_URL', 'must be a base URL without trailing slash, query or fragment, e.g. https://flow.idv.example');
  if (url.protocol !== 'https:' && !isLoopback(url)) throw new ConfigurationError('IDV_FLOW_URL', 'must use https (http only on a loopback host)');
  return raw;
}

/**
 * A population register's name (spec 2.3 shows only `<population_register_name>`): 1 to 100
 * characters without control characters; default 'Folkeregisteret'.
 */
function parseRegisterName(env: Env, name: string): string {
  const raw = value(env, name);
  if (raw === undefined) return POPULATION_REGISTER_NAME;
  if (raw.length > 100 || /[\u0000-\u001f\u007f]/.test(raw)) {
    throw new ConfigurationError(name, "must be the register's name as the service spells it: 1 to 100 characters, no control characters");
  }
  return raw;
}

/** The longest demo name: it sits in the header beside the switches, and in the emulator's "<name> wants to verify your identity". */
export const MAX_DEMO_NAME_LENGTH = 60;
/** The largest demo logo: a header mark of 32 px needs far less, and every page links it. */
export const MAX_DEMO_LOGO_BYTES = 64 * 1024;

/**
 * IDV_DEMO_NAME: 1 to 60 printable characters. No control or format characters (Unicode's
 * category C: line breaks, bidirectional overrides, zero-width marks), which could make the name
 * read other than it is.
 */
function parseDemoName(env: Env): string | undefined {
  const raw = value(env, 'IDV_DEMO_NAME');
  if (raw === undefined) return undefined;
  const length = [...raw].length;
  if (length > MAX_DEMO_NAME_LENGTH) {
    throw new ConfigurationError(
      'IDV_DEMO_NAME',
      `must be at most ${MAX_DEMO_NAME_LENGTH} characters (it has ${length}): the relying party's display name, e.g. "Acme Bank"`,
    );
  }
  if (/\p{C}/u.test(raw))
    throw new ConfigurationError('IDV_DEMO_NAME', 'must be printable characters only: no control characters, line breaks or invisible formatting marks');
  return raw;
}

/** The image types a demo logo may be, by the bytes each file starts with. */
const LOGO_SIGNATURES: ReadonlyArray<{ contentType: DemoLogo['contentType']; matches: (bytes: Uint8Array) => boolean }> = [
  { contentType: 'image/png', matches: (b) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, i) => b[i] === byte) },
  { contentType: 'image/jpeg', matches: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  {
    contentType: 'image/webp',
    matches: (b) => Buffer.from(b.subarray(0, 4)).toString('latin1') === 'RIFF' && Buffer.from(b.subarray(8, 12)).toString('latin1') === 'WEBP',
  },
];

/**
 * IDV_DEMO_LOGO's bytes, as read at start-up (configuration.ts): a PNG, JPEG or WebP file of at
 * most 64 KiB, its type told by its first bytes, not its name. Never SVG: an SVG is a document
 * that can carry script.
 */
export function checkDemoLogo(bytes: Uint8Array): DemoLogo {
  if (bytes.length === 0 || bytes.length > MAX_DEMO_LOGO_BYTES)
    throw new ConfigurationError('IDV_DEMO_LOGO', `must be a file of 1 byte to ${MAX_DEMO_LOGO_BYTES / 1024} KiB (it has ${bytes.length} bytes)`);
  const type = LOGO_SIGNATURES.find((signature) => signature.matches(bytes));
  if (!type)
    throw new ConfigurationError('IDV_DEMO_LOGO', 'must be a PNG, JPEG or WebP image (judged by its first bytes); SVG is refused, since it can carry script');
  return { contentType: type.contentType, bytes };
}

/** An on/off setting: on, off, true, false, 1, 0, yes or no (any case); the default when unset. */
function parseSwitch(env: Env, name: string, fallback: boolean): boolean {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const normal = raw.toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(normal)) return true;
  if (['off', 'false', '0', 'no'].includes(normal)) return false;
  throw new ConfigurationError(name, `must be on or off, not "${raw.slice(0, 20)}"`);
}

/** IDV_ID_TOKEN_ENCRYPTION: alg/enc combinations such as `RSA-OAEP-256/A256GCM, RSA-OAEP/A128CBC-HS256`. */
function parseIdTokenEncryptionSetting(env: Env): IdTokenEncryption[] | undefined {
  const raw = value(env, 'IDV_ID_TOKEN_ENCRYPTION');
  if (raw === undefined) return undefined;
  try {
    return parseIdTokenEncryption(raw);
  } catch (error) {
    throw new ConfigurationError(
      'IDV_ID_TOKEN_ENCRYPTION',
      `${(error as Error).message.replace(/^idTokenEncryption: /, '')} (e.g. RSA-OAEP-256/A256GCM, RSA-OAEP/A128CBC-HS256)`,
    );
  }
}

/** EMULATOR_PANEL_PASSWORD: at least 12 characters; without it the panel is open in development only. */
function parsePanelAccess(env: Env, production: boolean): PanelAccess {
  const password = value(env, 'EMULATOR_PANEL_PASSWORD');
  if (password !== undefined) {
    if (password.length < MIN_PANEL_PASSWORD_LENGTH) {
      throw new ConfigurationError(
        'EMULATOR_PANEL_PASSWORD',
        `must be at least ${MIN_PANEL_PASSWORD_LENGTH} characters (it has ${password.length}); e.g. \`openssl rand -base64 18\``,
      );
    }
    return { mode: 'password', password };
  }
  if (!production) return { mode: 'open' };
  return {
    mode: 'read-only',
    reason:
      'this site runs the emulator under NODE_ENV=production without EMULATOR_PANEL_PASSWORD, so nobody may rotate its keys, arm faults or change entitlements. Set EMULATOR_PANEL_PASSWORD (12 or more characters) and restart to use them.',
  };
}

/**
 * What start-up says about the embedded emulator when it serves under NODE_ENV=production (a
 * hosted demo): anyone who reaches the site can verify its fictional people, and how its panel
 * is guarded. Undefined in provider mode or development.
 */
export function emulatorProductionNotice(config: Pick<ServerConfig, 'mode' | 'production' | 'appUrl' | 'emulatorPanel'>): string | undefined {
  if (config.mode !== 'emulator' || !config.production) return undefined;
  const panel =
    config.emulatorPanel.mode === 'password'
      ? 'its QA panel’s actions ask for EMULATOR_PANEL_PASSWORD'
      : 'its QA panel is read-only (set EMULATOR_PANEL_PASSWORD to use its actions)';
  return `the embedded emulator is running under NODE_ENV=production: anyone who reaches ${config.appUrl} can verify its fictional people, and ${panel}. Set IDV_BASE_URL and IDV_CLIENT_ID to use the real service.`;
}

/**
 * The configuration as the environment gives it, validated, and what it asks to be read at
 * start-up (configuration.ts reads it): the development session secret and client keys (the
 * data folder's, or the shared store's), and the demo's logo file.
 */
export interface ParsedConfig {
  config: Omit<ServerConfig, 'sessionSecret' | 'client' | 'generated' | 'sharedDevKeys' | 'demo'> & { clientId: string; demo: { name?: string } };
  /** SESSION_SECRET; undefined: the data folder's, made on first start (never in production nor with Redis) */
  sessionSecret?: string;
  /** IDV_DEMO_LOGO: the file, and the value as given */
  demoLogo?: { path: string; raw: string };
  /** the keys configured, and the variables a development pair stands in for, and where it comes from */
  keys: Partial<Pick<ClientConfig, 'signingKey' | 'encryptionKey'>> & { development?: { variables: string[]; from: 'data-folder' | 'shared-store' } };
}

/**
 * Parses and validates the whole configuration, reading nothing but `env`: missing secrets are
 * named for start-up to read or make (configuration.ts). `lanAddress` is this machine's LAN
 * address, for the phone's address of the embedded emulator.
 */
export async function parseServerConfig(env: Env, { cwd, lanAddress }: { cwd: string; lanAddress?: string | undefined }): Promise<ParsedConfig> {
  const appUrl = parseAppUrl(env);
  const rawDataDir = value(env, 'IDV_DATA_DIR') ?? '.data';
  // (A run-time folder, not a file of the build: the comment keeps Turbopack's file tracing off it.)
  const dataDir = isAbsolute(rawDataDir) ? rawDataDir : resolve(/* turbopackIgnore: true */ cwd, rawDataDir);
  const rawIssuer = value(env, 'IDV_BASE_URL');
  const mode = rawIssuer ? 'provider' : 'emulator';
  const issuer = rawIssuer ? parseIssuer(rawIssuer) : `${appUrl}/emulator`;
  const production = env.NODE_ENV === 'production';
  const state = parseState(env);
  const rawTrustProxy = value(env, 'TRUST_PROXY') ?? '0';
  if (!/^\d{1,2}$/.test(rawTrustProxy) || Number(rawTrustProxy) > 10) {
    throw new ConfigurationError('TRUST_PROXY', `must be the number of proxies in front of the app, 0 to 10, not "${rawTrustProxy.slice(0, 20)}"`);
  }

  let clientId = value(env, 'IDV_CLIENT_ID');
  if (!clientId) {
    if (mode === 'provider')
      throw new ConfigurationError('IDV_CLIENT_ID', 'is required when IDV_BASE_URL is set (the client identifier the service issued to you)');
    clientId = DEMO_CLIENT_ID;
  }

  const sessionSecret = value(env, 'SESSION_SECRET');
  if (sessionSecret !== undefined && sessionSecret.length < 32) {
    throw new ConfigurationError('SESSION_SECRET', `must be at least 32 characters (it has ${sessionSecret.length})`);
  }
  if (!sessionSecret) {
    // In production another instance (or a serverless host's next invocation) may open the cookie.
    if (production) {
      throw new ConfigurationError(
        'SESSION_SECRET',
        'is required under NODE_ENV=production: every instance must seal and open the same cookies (32+ random characters, e.g. `openssl rand -base64 32`)',
      );
    }
    if (state.store === 'redis') {
      throw new ConfigurationError(
        'SESSION_SECRET',
        'is required when REDIS_URL is set: every instance must seal and open the same cookies (32+ random characters)',
      );
    }
  }

  let extraEmulatorClients: RegisteredClient[] = [];
  const rawClients = value(env, 'EMULATOR_CLIENTS');
  if (rawClients) {
    try {
      extraEmulatorClients = parseRegisteredClients(rawClients);
    } catch (error) {
      throw new ConfigurationError('EMULATOR_CLIENTS', (error as Error).message);
    }
  }

  let emulatorRateLimits = RATE_LIMITS;
  const rawRateLimits = value(env, 'EMULATOR_RATE_LIMITS');
  if (rawRateLimits) {
    try {
      const parsed: unknown = JSON.parse(rawRateLimits);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('must be a JSON object, e.g. {"par": 600}');
      emulatorRateLimits = checkRateLimits(parsed as Partial<RateLimits>);
    } catch (error) {
      throw new ConfigurationError('EMULATOR_RATE_LIMITS', (error as Error).message);
    }
  }

  const trustAnchors = parseTrustAnchors(env);
  const rawFlowUrl = value(env, 'IDV_FLOW_URL');
  const emulatorFlow = mode === 'emulator' ? parseEmulatorFlow(env, appUrl) : undefined;
  const emulatorStrict = parseSwitch(env, 'EMULATOR_STRICT', false);
  // A strict emulator refuses what 2.2 does not list, as a strict service would: ui_locales only
  // by default where the lenient embedded emulator reads it.
  const uiLocalesSet = value(env, 'IDV_UI_LOCALES') !== undefined;
  const uiLocales = {
    send: parseSwitch(env, 'IDV_UI_LOCALES', mode === 'emulator' && !emulatorStrict),
    source: uiLocalesSet ? 'IDV_UI_LOCALES' : 'default',
  } as const;
  const idTokenEncryption = parseIdTokenEncryptionSetting(env);
  if (rawFlowUrl && mode === 'emulator')
    throw new ConfigurationError('IDV_FLOW_URL', 'is used only with IDV_BASE_URL (provider mode); the embedded emulator serves its own /auth');
  const flowUrl = rawFlowUrl ? parseFlowUrl(rawFlowUrl) : mode === 'emulator' ? (emulatorFlow?.baseUrl ?? issuer) : undefined;
  const emulatorPanel = parsePanelAccess(env, production);
  const populationRegisterName = parseRegisterName(env, 'IDV_POPULATION_REGISTER_NAME');
  const emulatorPopulationRegisterName = parseRegisterName(env, 'EMULATOR_POPULATION_REGISTER_NAME');
  const startLimits = { perAddress: parseLimit(env, 'IDV_START_LIMIT_PER_ADDRESS', 20), overall: parseLimit(env, 'IDV_START_LIMIT_OVERALL', 300) };
  const emulatorRedirectIss = parseSwitch(env, 'EMULATOR_REDIRECT_ISS', true);
  const emulatorDeviceUrl = parseDeviceUrl(env, appUrl, lanAddress);
  const demoName = parseDemoName(env);
  const rawLogo = value(env, 'IDV_DEMO_LOGO');
  const customerMode = parseSwitch(env, 'IDV_CUSTOMER_MODE', false);
  const keys = await parseClientKeys(env, { mode, state });
  const config: ParsedConfig['config'] = {
    flowUrl,
    emulatorPanel,
    production,
    populationRegisterName,
    emulatorPopulationRegisterName,
    mode,
    appUrl,
    redirectUri: `${appUrl}/auth/callback`,
    issuer,
    clientId,
    emulatorDeviceUrl,
    ...(emulatorFlow ? { emulatorFlow } : {}),
    extraEmulatorClients,
    emulatorRateLimits,
    allowInsecureRequests: new URL(issuer).protocol === 'http:',
    secureCookies: appUrl.startsWith('https:'),
    dataDir,
    trustedProxies: Number(rawTrustProxy),
    startLimits,
    state,
    trustAnchors,
    uiLocales,
    ...(idTokenEncryption ? { idTokenEncryption } : {}),
    emulatorStrict,
    emulatorRedirectIss,
    demo: demoName !== undefined ? { name: demoName } : {},
    customerMode,
  };
  return {
    config,
    ...(sessionSecret ? { sessionSecret } : {}),
    ...(rawLogo !== undefined ? { demoLogo: { raw: rawLogo, path: isAbsolute(rawLogo) ? rawLogo : resolve(/* turbopackIgnore: true */ cwd, rawLogo) } } : {}),
    keys,
  };
}
