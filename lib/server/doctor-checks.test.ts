import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryUrl, fetchDiscovery, generateClientKeys, type FetchLike } from '@/lib/oidc';
import { createTestEmulator } from '@/test/support/emulator';
import { fetchTrusting, issueCertificate, startTlsServer } from '@/test/support/tls-server';
import type { DoctorLine } from '@/lib/verification/doctor-findings';
import { environmentText } from '@/lib/view/doctor-words';
import { checkConfiguration, checkDiscovery, checkJwks, configurationFailed, findingsOf, stagingEnvironment, transportCause } from './doctor-checks';
import { ConfigurationError, type ServerConfig } from './env';

const ISSUER = 'https://idv.test/emulator';
const emulator = createTestEmulator({ baseUrl: ISSUER, clients: [], rateLimits: false });
const viaEmulator: FetchLike = (input, init) => emulator.handle(new Request(input, init));

async function emulatorDocument(): Promise<Record<string, unknown>> {
  return (await (await viaEmulator(discoveryUrl(ISSUER))).json()) as Record<string, unknown>;
}

const statusOf = (lines: DoctorLine[], id: string) => lines.find((line) => line.id === id)?.status;

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

describe('findingsOf: the configuration and the documents as fetched', () => {
  async function config(): Promise<ServerConfig> {
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
    } as ServerConfig;
  }
  const refused = {
    kind: 'error',
    endpoint: 'discovery',
    message: 'The discovery endpoint could not be reached: connect ECONNREFUSED',
    cause: 'refused',
    host: 'idv.test',
  } as const;

  it('fails discovery that could not be fetched, says what to do for its cause, and checks no document', async () => {
    const findings = findingsOf(await config(), { discovery: { url: 'https://idv.test/.well-known/openid-configuration', problem: refused } });
    expect(findings.lines.map((line) => line.id)).toEqual(['mode', 'redirect-uri', 'signing-key', 'encryption-key', 'ui-locales', 'discovery']);
    expect(findings.lines.at(-1)).toEqual({
      id: 'discovery',
      title: { code: 'discovery', values: [] },
      status: 'fail',
      detail: { code: 'fetchFailed', values: [refused, 'https://idv.test/.well-known/openid-configuration'] },
      fix: { code: 'unreachable', values: ['refused', 'IDV_BASE_URL', 'idv.test'] },
    });
    expect(findings).toMatchObject({ status: 'fail', service: { mode: 'provider', issuer: 'https://idv.test', problem: refused } });
  });

  it('checks the JWKS once discovery was fetched, and names the JWKS endpoint when only it fails', async () => {
    const discovery = { url: 'https://idv.test/.well-known/openid-configuration', body: { ...(await emulatorDocument()), issuer: 'https://idv.test' } };
    const status = { kind: 'status', endpoint: 'jwks', status: 503 } as const;
    const findings = findingsOf(await config(), { discovery, jwks: { url: 'https://idv.test/jwks', problem: status } });
    expect(findings.lines.find((line) => line.id === 'jwks')).toMatchObject({ status: 'fail', fix: { code: 'jwksUri', values: [] } });
    expect(findings.lines.some((line) => line.id === 'jwks-kids')).toBe(false);
    expect(findings.service?.problem).toEqual(status);
    const jwks = (await (await viaEmulator(`${ISSUER}/jwks`)).json()) as Record<string, unknown>;
    const fetched = findingsOf(await config(), { discovery, jwks: { url: 'https://idv.test/jwks', body: jwks } });
    expect(fetched.lines.find((line) => line.id === 'jwks')).toMatchObject({
      status: 'pass',
      detail: { code: 'asWritten', values: ['https://idv.test/jwks'] },
    });
    expect(fetched.lines.filter((line) => line.id.startsWith('jwks-')).map((line) => line.status)).toEqual(['pass', 'pass', 'pass']);
    expect(fetched.service).toEqual({ mode: 'provider', issuer: 'https://idv.test' });
    expect(fetched.publicJwks.keys.map((key) => key.use)).toEqual(['sig', 'enc']);
  });

  it('makes a configuration that does not load one failed line in its own words, naming the variable', () => {
    const findings = configurationFailed(new ConfigurationError('IDV_CLIENT_ID', 'is required when IDV_BASE_URL is set'));
    expect(findings).toEqual({
      lines: [
        {
          id: 'configuration',
          title: { code: 'configuration', values: [] },
          status: 'fail',
          detail: { code: 'asWritten', values: ['IDV_CLIENT_ID: is required when IDV_BASE_URL is set'] },
          fix: { code: 'configuration', values: ['IDV_CLIENT_ID'] },
        },
      ],
      publicJwks: { keys: [] },
      status: 'fail',
    });
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
