import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryUrl, fetchDiscovery, generateClientKeys, type FetchLike } from '@/lib/oidc';
import { createTestEmulator } from '@/test/support/emulator';
import { fetchTrusting, issueCertificate, startTlsServer } from '@/test/support/tls-server';
import type { DoctorLine } from '@/lib/verification/doctor-findings';
import type { Locale } from '@/lib/i18n/locale';
import { describeFindings, describeLine, environmentText } from '@/lib/view/doctor-words';
import { checkConfiguration, checkDiscovery, checkJwks, examine, stagingEnvironment, transportCause } from './doctor';
import { reusedFor } from './doctor-cache';
import type { ServerConfig } from './env';

const ISSUER = 'https://idv.test/emulator';
const emulator = createTestEmulator({ baseUrl: ISSUER, clients: [], rateLimits: false });
const viaEmulator: FetchLike = (input, init) => emulator.handle(new Request(input, init));
const unreachable: FetchLike = () => Promise.reject(new TypeError('fetch failed'));

async function emulatorDocument(): Promise<Record<string, unknown>> {
  return (await (await viaEmulator(discoveryUrl(ISSUER))).json()) as Record<string, unknown>;
}

const statusOf = (lines: DoctorLine[], id: string) => lines.find((line) => line.id === id)?.status;
const byId = (lines: DoctorLine[], id: string) => lines.find((line) => line.id === id)!;

/** Every check, in `locale`'s words: what GET /doctor shows and `npm run doctor` prints. */
async function runDoctor(config: ServerConfig, fetch?: FetchLike, locale: Locale = 'en') {
  return describeFindings(await examine(config, fetch), locale);
}

/** The app in emulator mode, as the doctor reads its configuration. */
async function config(): Promise<ServerConfig> {
  const keys = await generateClientKeys('ES256');
  return {
    mode: 'emulator',
    issuer: ISSUER,
    appUrl: 'https://rp.test',
    redirectUri: 'https://rp.test/auth/callback',
    allowInsecureRequests: false,
    client: { clientId: 'rp', redirectUri: 'https://rp.test/auth/callback', ...keys },
    uiLocales: { send: true, source: 'default' },
    emulatorStrict: false,
    generated: [] as string[],
  } as ServerConfig;
}

describe('checkDiscovery', () => {
  it('passes every line for the emulator’s document', async () => {
    const lines = checkDiscovery(await emulatorDocument(), { issuer: ISSUER, signingAlg: 'ES256' });
    expect(lines.filter((line) => line.status !== 'pass')).toEqual([]);
    expect(lines.length).toBeGreaterThan(10);
  });

  it.each([
    ['another issuer', { issuer: 'https://other.test' }, 'issuer', 'fail'],
    ['a plain http endpoint on a public host', { token_endpoint: 'http://idv.test/emulator/token' }, 'https', 'fail'],
    ['an endpoint left out', { token_endpoint: undefined }, 'https', 'warn'],
    ['PAR not required', { require_pushed_authorization_requests: false }, 'par', 'fail'],
    ['PAR not advertised', { require_pushed_authorization_requests: undefined }, 'par', 'warn'],
    ['ID tokens signed with RS256 only', { id_token_signing_alg_values_supported: ['RS256'] }, 'id-token-signing', 'fail'],
    ['ID token encryption only with RSA1_5', { id_token_encryption_alg_values_supported: ['RSA1_5'] }, 'id-token-encryption', 'fail'],
    [
      'ID token encryption only with dir',
      { id_token_encryption_alg_values_supported: ['dir'], id_token_encryption_enc_values_supported: ['A256GCM'] },
      'id-token-encryption',
      'fail',
    ],
    ['RSA1_5 besides RSA-OAEP-256', { id_token_encryption_alg_values_supported: ['RSA1_5', 'RSA-OAEP-256'] }, 'id-token-encryption', 'warn'],
    [
      'ID token encryption not advertised',
      { id_token_encryption_alg_values_supported: undefined, id_token_encryption_enc_values_supported: undefined },
      'id-token-encryption',
      'warn',
    ],
    ['client secrets only', { token_endpoint_auth_methods_supported: ['client_secret_basic'] }, 'client-authentication', 'fail'],
    ['no standard_etsi', { trust_frameworks_supported: ['standard'] }, 'trust-frameworks', 'fail'],
    ['a claim missing', { claims_in_verified_claims_supported: ['name', 'birthdate'] }, 'claims', 'fail'],
    ['no RFC 9207', { authorization_response_iss_parameter_supported: undefined }, 'response-issuer', 'warn'],
  ])('flags %s', async (_name, change, id, status) => {
    const document = { ...(await emulatorDocument()), ...change };
    const lines = checkDiscovery(document, { issuer: ISSUER, signingAlg: 'ES256' });
    expect(statusOf(lines, id)).toBe(status);
    expect(lines.find((line) => line.id === id)?.fix).toBeTruthy();
  });

  it('shows what the service advertises for ID token encryption and what we accept of it', async () => {
    const document = {
      ...(await emulatorDocument()),
      id_token_encryption_alg_values_supported: ['RSA-OAEP'],
      id_token_encryption_enc_values_supported: ['A128CBC-HS256', 'A256GCM'],
    };
    const found = checkDiscovery(document, { issuer: ISSUER, signingAlg: 'ES256' }).find((line) => line.id === 'id-token-encryption');
    expect(found).toMatchObject({
      status: 'pass',
      detail: { code: 'encryptionAdvertised', values: [['RSA-OAEP'], ['A128CBC-HS256', 'A256GCM'], ['RSA-OAEP / A256GCM', 'RSA-OAEP / A128CBC-HS256'], []] },
    });
  });

  it('passes a pinned ID token encryption the service advertises, and warns of one it does not', async () => {
    const document = {
      ...(await emulatorDocument()),
      id_token_encryption_alg_values_supported: ['RSA-OAEP-256'],
      id_token_encryption_enc_values_supported: ['A256GCM'],
    };
    const pinned = (idTokenEncryption: { alg: 'RSA-OAEP-256' | 'RSA-OAEP'; enc: 'A256GCM' }[]) =>
      checkDiscovery(document, { issuer: ISSUER, signingAlg: 'ES256', idTokenEncryption }).find((line) => line.id === 'id-token-encryption');
    expect(pinned([{ alg: 'RSA-OAEP-256', enc: 'A256GCM' }])?.status).toBe('pass');
    expect(pinned([{ alg: 'RSA-OAEP', enc: 'A256GCM' }])).toMatchObject({
      status: 'warn',
      detail: { code: 'encryptionPinned', values: [['RSA-OAEP / A256GCM'], ['RSA-OAEP / A256GCM']] },
    });
  });

  it('fails our signing algorithm when the service does not accept it', async () => {
    const document = { ...(await emulatorDocument()), token_endpoint_auth_signing_alg_values_supported: ['ES256'] };
    expect(statusOf(checkDiscovery(document, { issuer: ISSUER, signingAlg: 'EdDSA' }), 'client-assertion-alg')).toBe('fail');
  });
});

describe('checkJwks', () => {
  it('passes the emulator’s key set and fails a private key, a repeated kid or no ES256 key', async () => {
    const jwks = (await (await viaEmulator(`${ISSUER}/jwks`)).json()) as { keys: Record<string, unknown>[] };
    expect(checkJwks(jwks).every((line) => line.status === 'pass')).toBe(true);
    const [first] = jwks.keys;
    expect(statusOf(checkJwks({ keys: [{ ...first, d: 'secret' }] }), 'jwks-public')).toBe('fail');
    expect(statusOf(checkJwks({ keys: [first, first] }), 'jwks-kids')).toBe('fail');
    expect(statusOf(checkJwks({ keys: [{ kty: 'RSA', kid: 'r', n: 'AQAB', e: 'AQAB' }] }), 'jwks-keys')).toBe('fail');
    expect(statusOf(checkJwks({}), 'jwks-keys')).toBe('fail');
  });
});

describe('examine: every check, discovery and the JWKS fetched', () => {
  it('passes every line against the emulator and gives our public keys to register', async () => {
    const report = await runDoctor(await config(), viaEmulator);
    expect(report.lines.filter((line) => line.status !== 'pass')).toEqual([]);
    expect(report.status).toBe('pass');
    expect(report.publicJwks.keys.map((key) => key.use)).toEqual(['sig', 'enc']);
    expect(JSON.stringify(report.publicJwks)).not.toMatch(/"d":/);
  });

  it('says whether request objects carry ui_locales, and warns where a strict service refuses it', async () => {
    const uiLocales = async (change: Partial<ServerConfig>) =>
      (await runDoctor({ ...(await config()), ...change }, viaEmulator)).lines.find((line) => line.id === 'ui-locales');
    expect(await uiLocales({})).toMatchObject({ status: 'pass', detail: expect.stringMatching(/^sent \(the default against the embedded emulator\)/) });
    expect(await uiLocales({ uiLocales: { send: false, source: 'default' } })).toMatchObject({
      status: 'pass',
      detail: expect.stringMatching(/^not sent \(the default\)/),
    });
    expect(await uiLocales({ mode: 'provider', uiLocales: { send: true, source: 'IDV_UI_LOCALES' } })).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^sent \(IDV_UI_LOCALES=on\)/),
      fix: expect.stringMatching(/^Spec 2.2 does not list ui_locales/),
    });
    expect(await uiLocales({ emulatorStrict: true, uiLocales: { send: true, source: 'IDV_UI_LOCALES' } })).toMatchObject({
      status: 'warn',
      fix: expect.stringMatching(/EMULATOR_STRICT/),
    });
  });

  it('fails when the service cannot be reached, saying so', async () => {
    const report = await runDoctor(await config(), unreachable);
    expect(report.status).toBe('fail');
    expect(report.lines.find((line) => line.id === 'discovery')).toMatchObject({ status: 'fail', fix: 'Check IDV_BASE_URL and the network.' });
  });
});

describe('the doctor in Norwegian', () => {
  it('words every line against the emulator in bokmål, member names and algorithms as written', async () => {
    const report = await runDoctor(await config(), viaEmulator, 'nb');
    expect(report.status).toBe('pass');
    const english = await runDoctor(await config(), viaEmulator, 'en');
    expect(report.lines.map((line) => line.id)).toEqual(english.lines.map((line) => line.id));
    report.lines.forEach((line, index) => expect(line.title, line.id).not.toBe(english.lines[index]!.title));
    expect(report.lines.find((line) => line.id === 'issuer')).toEqual({
      id: 'issuer',
      title: 'Utstederen er lik IDV_BASE_URL',
      status: 'pass',
      detail: `utsteder ${ISSUER}`,
    });
    expect(report.lines.find((line) => line.id === 'redirect-uri')?.detail).toBe('https://rp.test/auth/callback (registrer nøyaktig denne hos tjenesten)');
    expect(report.lines.find((line) => line.id === 'client-assertion-alg')?.title).toBe('Klientpåstander signert med ES256 (vår nøkkels algoritme)');
    expect(report.lines.find((line) => line.id === 'jwks-public')).toMatchObject({ title: 'Bare offentlige nøkler', detail: 'ingen private nøkkeldata' });
  });

  it('says what failed and what to do, the core’s own words as written', async () => {
    const report = await runDoctor(await config(), unreachable, 'nb');
    expect(report.lines.find((line) => line.id === 'discovery')).toEqual({
      id: 'discovery',
      title: 'Discovery-dokument',
      status: 'fail',
      detail: `Discovery-endepunktet feilet: The discovery endpoint could not be reached: fetch failed (${discoveryUrl(ISSUER)})`,
      fix: 'Kontroller IDV_BASE_URL og nettverket.',
    });
  });

  it('words warnings and failures of the documents', async () => {
    const document = { ...(await emulatorDocument()), require_pushed_authorization_requests: false, trust_frameworks_supported: ['standard'] };
    const lines = checkDiscovery(document, { issuer: ISSUER, signingAlg: 'ES256' });
    expect(describeLine(byId(lines, 'par'), 'nb')).toMatchObject({
      detail: 'require_pushed_authorization_requests: false, men del 4 krever PAR',
      fix: 'Kontroller at IDV_BASE_URL peker på identitetstjenesten.',
    });
    expect(describeLine(byId(lines, 'trust-frameworks'), 'nb')).toMatchObject({
      title: 'Tillitsrammeverkene standard og standard_etsi',
      detail: 'trust_frameworks_supported mangler standard_etsi (oppført: standard)',
    });
    const absent = checkDiscovery({ ...document, authorization_response_iss_parameter_supported: undefined }, { issuer: ISSUER, signingAlg: 'ES256' });
    expect(describeLine(byId(absent, 'response-issuer'), 'nb')).toMatchObject({
      status: 'warn',
      detail: 'ikke oppgitt: appen kontrollerer iss bare når den blir sendt',
    });
    const jwks = checkJwks({
      keys: [
        { kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x', y: 'y', d: 'secret' },
        { kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x', y: 'y' },
      ],
    });
    expect(describeLine(byId(jwks, 'jwks-kids'), 'nb')).toMatchObject({
      detail: 'gjentatt kid: k1',
      fix: 'En kid skal vise til bare én nøkkel (spesifikasjonen 4.4); spør leverandøren.',
    });
    expect(describeLine(byId(jwks, 'jwks-public'), 'nb').detail).toBe('private felt i kid k1');
  });
});

describe('a reused report (GET /doctor keeps one for 15 s)', () => {
  it('is kept as data, with no words of either language, and reads in each', async () => {
    const findings = await examine(await config(), unreachable);
    const kept = JSON.stringify(findings);
    expect(kept).not.toContain('Check IDV_BASE_URL');
    expect(kept).not.toContain('Discovery document');
    expect(describeFindings(findings, 'en').lines.find((line) => line.id === 'discovery')).toMatchObject({
      title: 'Discovery document',
      fix: 'Check IDV_BASE_URL and the network.',
    });
    expect(describeFindings(findings, 'nb').lines.find((line) => line.id === 'discovery')).toMatchObject({
      title: 'Discovery-dokument',
      fix: 'Kontroller IDV_BASE_URL og nettverket.',
    });
    expect(JSON.stringify(findings)).toBe(kept);
  });
});

describe('reusedFor (GET /doctor at most one fresh report per 15 s)', () => {
  it('gives the same result until it is 15 s old, then makes a new one', () => {
    let clock = 0;
    let made = 0;
    const report = reusedFor(
      15_000,
      () => (made += 1),
      () => clock,
    );
    expect([report(), report()]).toEqual([1, 1]);
    clock = 14_999;
    expect(report()).toBe(1);
    clock = 15_000;
    expect(report()).toBe(2);
  });
});

describe('the cause of a failed request, from a real failing connection', () => {
  const stops: (() => unknown)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });
  async function listen(onConnection: (socket: Socket) => void): Promise<number> {
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => {
      sockets.add(socket);
      onConnection(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stops.push(
      () =>
        new Promise((resolve) => {
          server.close(resolve);
          for (const socket of sockets) socket.destroy();
        }),
    );
    return (server.address() as { port: number }).port;
  }
  /** What the doctor makes of asking for discovery under `issuer`, as examine asks. */
  async function causeOf(issuer: string, options: { fetch?: FetchLike; timeoutMs?: number } = {}) {
    const error = await fetchDiscovery(issuer, { allowInsecureRequests: true, ...options }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    return transportCause(error);
  }
  let nothing: number;
  beforeAll(async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    nothing = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
  });

  it('DNS: a .invalid host name', async () => {
    expect(await causeOf('https://idv.invalid/')).toBe('dns');
  });

  it('refused: a port with nothing listening', async () => {
    expect(await causeOf(`http://127.0.0.1:${nothing}/`)).toBe('refused');
  });

  it('closed: a server that closes every connection', async () => {
    const port = await listen((socket) => socket.destroy());
    expect(await causeOf(`http://127.0.0.1:${port}/`)).toBe('closed');
  });

  it('timeout: a server that never answers', async () => {
    const port = await listen(() => undefined);
    expect(await causeOf(`http://127.0.0.1:${port}/`, { timeoutMs: 300 })).toBe('timeout');
  });

  it('TLS, not trusted: a self-signed certificate, and one from a CA this machine does not know', async () => {
    const selfSigned = await startTlsServer(await issueCertificate());
    stops.push(selfSigned.close);
    expect(await causeOf(`https://127.0.0.1:${selfSigned.port}/`)).toBe('tls_untrusted');
    const ca = await issueCertificate({ ca: true });
    const unknownCa = await startTlsServer(await issueCertificate({ issuer: ca }));
    stops.push(unknownCa.close);
    expect(await causeOf(`https://127.0.0.1:${unknownCa.port}/`)).toBe('tls_untrusted');
  });

  it('TLS, expired, and for another host name: certificates from a CA the client trusts', async () => {
    const ca = await issueCertificate({ ca: true });
    const trusting = fetchTrusting(ca.certificate);
    const good = await startTlsServer(await issueCertificate({ issuer: ca }));
    const expired = await startTlsServer(await issueCertificate({ issuer: ca, notAfter: new Date(Date.now() - 86_400_000) }));
    const otherHost = await startTlsServer(await issueCertificate({ issuer: ca, names: [{ type: 'dns', value: 'idv.test' }] }));
    stops.push(good.close, expired.close, otherHost.close);
    // The trusted one answers: what fails below is the certificate's fault alone.
    expect(await causeOf(`https://127.0.0.1:${good.port}/`, { fetch: trusting })).toBe('other');
    expect((await trusting(`https://127.0.0.1:${good.port}/`)).status).toBe(200);
    expect(await causeOf(`https://127.0.0.1:${expired.port}/`, { fetch: trusting })).toBe('tls_expired');
    expect(await causeOf(`https://127.0.0.1:${otherHost.port}/`, { fetch: trusting })).toBe('tls_hostname');
  });

  it('TLS, not TLS at all: https to a server that speaks plain http', async () => {
    const port = await listen((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}'));
    expect(await causeOf(`https://127.0.0.1:${port}/`)).toBe('tls_not_tls');
  });

  it.each([
    ['EAI_AGAIN', 'dns'],
    ['ECONNRESET', 'closed'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'tls_untrusted'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'tls_untrusted'],
    ['CERT_NOT_YET_VALID', 'tls_expired'],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'tls'],
    ['EHOSTUNREACH', 'other'],
  ])('the code %s is named %s', async (code, cause) => {
    const failing: FetchLike = () => Promise.reject(new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) }));
    expect(await causeOf('https://idv.test/', { fetch: failing })).toBe(cause);
  });

  it('the doctor names it, with what to do, in each language', async () => {
    const keys = await generateClientKeys('ES256');
    const issuer = `http://127.0.0.1:${nothing}`;
    const config = {
      mode: 'provider',
      issuer,
      appUrl: 'http://localhost:3000',
      redirectUri: 'http://localhost:3000/auth/callback',
      allowInsecureRequests: true,
      client: { clientId: 'rp', redirectUri: 'http://localhost:3000/auth/callback', ...keys },
      uiLocales: { send: false, source: 'default' },
      emulatorStrict: false,
      generated: [] as string[],
    } as ServerConfig;
    const en = (await runDoctor(config)).lines.find((line) => line.id === 'discovery');
    expect(en).toMatchObject({
      status: 'fail',
      detail: `connection refused: nothing listens there: The discovery endpoint could not be reached: connect ECONNREFUSED 127.0.0.1:${nothing} (${issuer}/.well-known/openid-configuration)`,
      fix: `Nothing accepts connections at 127.0.0.1:${nothing}: check the port in IDV_BASE_URL, that the service is running, and that no firewall refuses the connection.`,
    });
    const nb = (await runDoctor(config, undefined, 'nb')).lines.find((line) => line.id === 'discovery');
    expect(nb?.detail).toMatch(/^tilkoblingen ble avvist: ingenting lytter der: Discovery-endepunktet feilet: /);
    expect(nb?.fix).toMatch(new RegExp(`^Ingenting tar imot tilkoblinger på 127\\.0\\.0\\.1:${nothing}`));
    const dns = (await runDoctor({ ...config, issuer: 'https://idv.invalid' })).lines.find((line) => line.id === 'discovery');
    expect(dns?.fix).toMatch(/^idv\.invalid does not resolve from this machine: check the host name in IDV_BASE_URL/);
  });
});

describe('provider mode on the wrong footing', () => {
  async function providerConfig(change: Partial<ServerConfig> = {}): Promise<ServerConfig> {
    const keys = await generateClientKeys('ES256');
    return {
      mode: 'provider',
      issuer: 'https://idv.test',
      appUrl: 'https://rp.test',
      redirectUri: 'https://rp.test/auth/callback',
      client: { clientId: 'rp', redirectUri: 'https://rp.test/auth/callback', ...keys },
      uiLocales: { send: false, source: 'default' },
      emulatorStrict: false,
      generated: [] as string[],
      ...change,
    } as ServerConfig;
  }
  const lineOf = (lines: DoctorLine[], id: string) => lines.find((line) => line.id === id)!;

  it('warns of generated development keys in provider mode, not in emulator mode', async () => {
    const generated = ['SESSION_SECRET', 'IDV_SIGNING_KEY', 'IDV_ENCRYPTION_KEY'];
    const provider = checkConfiguration(await providerConfig({ generated }));
    expect(lineOf(provider, 'signing-key')).toMatchObject({
      status: 'warn',
      detail: { code: 'devKey', values: [expect.any(String), expect.any(String), 'IDV_SIGNING_KEY'] },
      fix: { code: 'devKeyProvider' },
    });
    expect(lineOf(provider, 'encryption-key')).toMatchObject({
      status: 'warn',
      detail: { code: 'devKey', values: ['RSA-OAEP-256', expect.any(String), 'IDV_ENCRYPTION_KEY'] },
    });
    const configured = checkConfiguration(await providerConfig({ generated: ['SESSION_SECRET'] }));
    expect([lineOf(configured, 'signing-key').status, lineOf(configured, 'encryption-key').status]).toEqual(['pass', 'pass']);
    const emulator = checkConfiguration(await providerConfig({ mode: 'emulator', generated }));
    expect(lineOf(emulator, 'signing-key')).toMatchObject({ status: 'pass', detail: { code: 'devKey' } });
  });

  it('warns of an http redirect URI in provider mode against an https service', async () => {
    const local = { appUrl: 'http://localhost:3000', redirectUri: 'http://localhost:3000/auth/callback' };
    expect(lineOf(checkConfiguration(await providerConfig(local)), 'redirect-uri')).toMatchObject({
      status: 'warn',
      detail: { code: 'redirectHttp', values: [local.redirectUri, 'https://idv.test'] },
    });
    expect(lineOf(checkConfiguration(await providerConfig({ ...local, issuer: 'http://localhost:8080' })), 'redirect-uri').status).toBe('pass');
    expect(lineOf(checkConfiguration(await providerConfig({ ...local, mode: 'emulator' })), 'redirect-uri').status).toBe('pass');
    expect(lineOf(checkConfiguration(await providerConfig()), 'redirect-uri').status).toBe('pass');
  });
});

describe('loopback hosts', () => {
  it('takes plain http on any of 127.0.0.0/8 as loopback, as the configuration does', async () => {
    const document = { ...(await emulatorDocument()) };
    for (const member of ['pushed_authorization_request_endpoint', 'authorization_endpoint', 'token_endpoint', 'jwks_uri']) {
      document[member] = String(document[member]).replace('https://idv.test', 'http://127.0.0.4:8080');
    }
    expect(statusOf(checkDiscovery(document, { issuer: ISSUER, signingAlg: 'ES256' }), 'https')).toBe('pass');
    document.token_endpoint = 'http://128.0.0.4/token';
    expect(statusOf(checkDiscovery(document, { issuer: ISSUER, signingAlg: 'ES256' }), 'https')).toBe('fail');
  });
});

describe('the variables for staging', () => {
  it('gives what the app knows as values and the rest as placeholders, never a private key or secret', async () => {
    const keys = await generateClientKeys('ES256');
    const config = {
      mode: 'emulator',
      issuer: 'http://localhost:3000/emulator',
      appUrl: 'http://localhost:3000',
      redirectUri: 'http://localhost:3000/auth/callback',
      client: { clientId: 'demo-rp', ...keys },
    } as ServerConfig;
    const text = environmentText(stagingEnvironment(config), 'en');
    expect(text.split('\n').filter((row) => !row.startsWith('#'))).toEqual([
      'IDV_BASE_URL=<https://base URL of the service>',
      'IDV_CLIENT_ID=<client_id>',
      'IDV_SIGNING_KEY=<private signing JWK from npm run keys>',
      'IDV_ENCRYPTION_KEY=<private encryption JWK from npm run keys>',
      'APP_URL=http://localhost:3000',
      'SESSION_SECRET=<32+ random characters>',
      'IDV_UI_LOCALES=off',
    ]);
    expect(text).toContain('# IDV_FLOW_URL=<https://flow URL of the service>');
    expect(text).toContain('the redirect URI to register with the service is http://localhost:3000/auth/callback');
    expect(text).not.toContain(String(keys.signingKey.d));
    expect(text).not.toContain('demo-rp');
    const provider = environmentText(
      stagingEnvironment({ ...config, mode: 'provider', issuer: 'https://idv.test', client: { ...config.client, clientId: 'rp-7' } }),
      'nb',
    );
    expect(provider).toContain('IDV_BASE_URL=https://idv.test\n');
    expect(provider).toContain('IDV_CLIENT_ID=rp-7\n');
    expect(provider).toContain('# Der appen nås; omdirigerings-URI-en som skal registreres hos tjenesten, er http://localhost:3000/auth/callback');
    expect(provider).toContain('IDV_SIGNING_KEY=<privat signerings-JWK fra npm run keys>');
  });
});
