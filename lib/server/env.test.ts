import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import { X509CertificateGenerator } from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { generateClientKeys, type GeneratedClientKeys } from '@/lib/oidc';
import { emulatorProductionNotice, parseServerConfig } from './env';
import { loadServerConfig } from './configuration';

const keys: GeneratedClientKeys = await generateClientKeys('ES256');
/** The configuration the app starts with, in a working folder of its own (its data folder there). */
async function load(env: Record<string, string | undefined>) {
  return loadServerConfig(env, await mkdtemp(join(tmpdir(), 'idv-env-')));
}

const providerEnv = () => ({
  IDV_BASE_URL: 'https://idv.staging.example',
  IDV_CLIENT_ID: 'client-1',
  IDV_SIGNING_KEY: JSON.stringify(keys.signingKey),
  IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryptionKey),
});

describe('parseServerConfig: the environment alone', () => {
  it('reads no file, no store and no interface: what start-up must read or make, it names', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'idv-parse-'));
    const parsed = await parseServerConfig(
      { IDV_DEMO_LOGO: 'no-such-logo.png', IDV_DATA_DIR: 'never-made', REDIS_URL: 'redis://127.0.0.1:1', SESSION_SECRET: 'x'.repeat(32) },
      { cwd: folder, lanAddress: '192.168.7.7' },
    );
    expect(parsed.demoLogo).toEqual({ raw: 'no-such-logo.png', path: join(folder, 'no-such-logo.png') });
    expect(parsed.keys).toEqual({ development: { variables: ['IDV_SIGNING_KEY', 'IDV_ENCRYPTION_KEY'], from: 'shared-store' } });
    expect(parsed.config.emulatorDeviceUrl).toBe('http://192.168.7.7:3000/emulator');
    expect((await readdir(folder)).length).toBe(0);
    const development = await parseServerConfig({}, { cwd: folder });
    expect(development.sessionSecret).toBeUndefined();
    expect(development.keys.development?.from).toBe('data-folder');
    expect(development.config.emulatorDeviceUrl).toBe('http://localhost:3000/emulator');
    expect((await readdir(folder)).length).toBe(0);
  });
});

describe('the environment as the app starts with it', () => {
  it('points the QR code of the emulated app at EMULATOR_DEVICE_URL when set', async () => {
    expect((await load({ EMULATOR_DEVICE_URL: 'http://192.168.1.20:3000' })).emulatorDeviceUrl).toBe('http://192.168.1.20:3000/emulator');
    await expect(load({ EMULATOR_DEVICE_URL: 'http://192.168.1.20:3000/x' })).rejects.toThrow(/^EMULATOR_DEVICE_URL: /);
  });

  it('keeps a public APP_URL for the QR code', async () => {
    expect((await load({ APP_URL: 'https://rp.example' })).emulatorDeviceUrl).toBe('https://rp.example/emulator');
  });

  it('derives APP_URL from PORT', async () => {
    expect((await load({ PORT: '4100' })).appUrl).toBe('http://localhost:4100');
  });

  it('uses provider mode with IDV_* variables and plain https', async () => {
    const config = await load(providerEnv());
    expect(config).toMatchObject({ mode: 'provider', issuer: 'https://idv.staging.example', allowInsecureRequests: false });
    expect(config.client.signingKey.alg).toBe('ES256');
    expect(config.generated).toEqual(['SESSION_SECRET']);
  });

  it.each([
    ['APP_URL', { APP_URL: 'not a url' }, /^APP_URL: /],
    ['APP_URL', { APP_URL: 'https://rp.example/app' }, /^APP_URL: must be an origin/],
    ['APP_URL', { APP_URL: 'http://rp.example' }, /^APP_URL: must use https unless its host is a loopback address/],
    ['APP_URL', { APP_URL: 'http://192.168.1.20:3000' }, /^APP_URL: must use https unless/],
    ['APP_URL', { APP_URL: 'http://localhost.example:3000' }, /^APP_URL: must use https unless/],
    ['PORT', { PORT: 'eighty' }, /^PORT: /],
    ['SESSION_SECRET', { SESSION_SECRET: 'short' }, /^SESSION_SECRET: must be at least 32 characters/],
    ['IDV_CLIENT_ID', { ...providerEnv(), IDV_CLIENT_ID: undefined }, /^IDV_CLIENT_ID: is required/],
    ['IDV_BASE_URL', { ...providerEnv(), IDV_BASE_URL: 'http://idv.example' }, /^IDV_BASE_URL: must use https/],
    ['IDV_BASE_URL', { ...providerEnv(), IDV_BASE_URL: 'https://idv.example/' }, /^IDV_BASE_URL: must not end with "\/"/],
    ['IDV_SIGNING_KEY', { ...providerEnv(), IDV_SIGNING_KEY: '{not json' }, /^IDV_SIGNING_KEY: is not JSON/],
    ['IDV_SIGNING_KEY', { ...providerEnv(), IDV_SIGNING_KEY: '{"kty":"EC","crv":"P-256","x":"a","y":"b","d":"c"}' }, /^IDV_SIGNING_KEY: needs a "kid"/],
    [
      'IDV_SIGNING_KEY',
      { ...providerEnv(), IDV_SIGNING_KEY: '{"kty":"EC","crv":"P-256","x":"a","y":"b","kid":"k"}' },
      /^IDV_SIGNING_KEY: must be a private key/,
    ],
    [
      'IDV_ENCRYPTION_KEY',
      { ...providerEnv(), IDV_ENCRYPTION_KEY: JSON.stringify({ kty: 'EC', kid: 'k', d: 'x' }) },
      /^IDV_ENCRYPTION_KEY: must be an RSA key/,
    ],
    ['EMULATOR_CLIENTS', { EMULATOR_CLIENTS: '[{"client_id": 3}]' }, /^EMULATOR_CLIENTS: /],
    ['REDIS_URL', { REDIS_URL: 'http://cache.example:6379', SESSION_SECRET: 's'.repeat(32) }, /^REDIS_URL: must use redis:\/\/ or rediss:\/\//],
    ['REDIS_URL', { REDIS_URL: 'cache.example', SESSION_SECRET: 's'.repeat(32) }, /^REDIS_URL: /],
    ['IDV_REDIS_PREFIX', { REDIS_URL: 'redis://cache.example', IDV_REDIS_PREFIX: 'has space', SESSION_SECRET: 's'.repeat(32) }, /^IDV_REDIS_PREFIX: /],
    ['IDV_REDIS_PREFIX', { IDV_REDIS_PREFIX: 'idv:' }, /^IDV_REDIS_PREFIX: is used only with REDIS_URL/],
    ['SESSION_SECRET', { REDIS_URL: 'redis://cache.example' }, /^SESSION_SECRET: is required when REDIS_URL is set/],
    ['TRUST_PROXY', { TRUST_PROXY: 'yes' }, /^TRUST_PROXY: must be the number of proxies/],
    ['TRUST_PROXY', { TRUST_PROXY: '11' }, /^TRUST_PROXY: /],
    ['IDV_START_LIMIT_PER_ADDRESS', { IDV_START_LIMIT_PER_ADDRESS: '0' }, /^IDV_START_LIMIT_PER_ADDRESS: must be a whole number/],
    ['IDV_START_LIMIT_OVERALL', { IDV_START_LIMIT_OVERALL: 'many' }, /^IDV_START_LIMIT_OVERALL: /],
    ['EMULATOR_RATE_LIMITS', { EMULATOR_RATE_LIMITS: '{"par":' }, /^EMULATOR_RATE_LIMITS: /],
    ['EMULATOR_RATE_LIMITS', { EMULATOR_RATE_LIMITS: '[600]' }, /^EMULATOR_RATE_LIMITS: must be a JSON object/],
    ['EMULATOR_RATE_LIMITS', { EMULATOR_RATE_LIMITS: '{"par":0}' }, /^EMULATOR_RATE_LIMITS: rateLimits.par must be a whole number/],
    ['EMULATOR_RATE_LIMITS', { EMULATOR_RATE_LIMITS: '{"tokens":5}' }, /^EMULATOR_RATE_LIMITS: rateLimits: unknown group 'tokens'/],
  ])('names the variable that is wrong (%s)', async (_variable, env, message) => {
    await expect(load(env)).rejects.toThrow(message);
  });

  it('keeps state in memory by default, and in Redis under the default prefix with REDIS_URL', async () => {
    expect((await load({})).state).toEqual({ store: 'memory', budgetMiB: 64 });
    expect((await load({ IDV_MEMORY_BUDGET_MIB: '256' })).state).toEqual({ store: 'memory', budgetMiB: 256 });
    for (const budget of ['3', '4097', '64.5', 'lots']) {
      await expect(load({ IDV_MEMORY_BUDGET_MIB: budget }), budget).rejects.toThrow(/IDV_MEMORY_BUDGET_MIB: must be a whole number of MiB from 4 to 4096/);
    }
    expect((await load({})).trustedProxies).toBe(0);
    expect((await load({ TRUST_PROXY: '2' })).trustedProxies).toBe(2);
    expect((await load({})).startLimits).toEqual({ perAddress: 20, overall: 300 });
    expect((await load({ IDV_START_LIMIT_PER_ADDRESS: '5', IDV_START_LIMIT_OVERALL: '50' })).startLimits).toEqual({ perAddress: 5, overall: 50 });
    expect((await load({})).emulatorRateLimits).toEqual({ par: 300, token: 300, interaction: 1200, panel: 60, qa: 600 });
    expect((await load({ EMULATOR_RATE_LIMITS: '{"par":6000}' })).emulatorRateLimits).toEqual({ par: 6000, token: 300, interaction: 1200, panel: 60, qa: 600 });
    // (With the client keys configured: otherwise they would be fetched from that Redis, shared-dev-keys.test.ts.)
    const config = await load({ ...providerEnv(), REDIS_URL: 'rediss://default:pw@cache.example:6380/1', SESSION_SECRET: 's'.repeat(32) });
    expect(config.state).toEqual({ store: 'redis', url: 'rediss://default:pw@cache.example:6380/1', prefix: 'idv:' });
  });

  it('refuses to start in provider mode with REDIS_URL and a client key not configured, naming it, before reaching Redis', async () => {
    // An unreachable Redis: reaching for it would fail naming REDIS_URL instead.
    const cluster = { ...providerEnv(), REDIS_URL: 'redis://127.0.0.1:1', SESSION_SECRET: 's'.repeat(32) };
    await expect(load({ ...cluster, IDV_SIGNING_KEY: undefined, IDV_ENCRYPTION_KEY: undefined })).rejects.toThrow(
      /^IDV_SIGNING_KEY: is required in provider mode when REDIS_URL is set \(so is IDV_ENCRYPTION_KEY\): every instance must use the keys registered with the service/,
    );
    await expect(load({ ...cluster, IDV_ENCRYPTION_KEY: undefined })).rejects.toThrow(
      /^IDV_ENCRYPTION_KEY: is required in provider mode when REDIS_URL is set: /,
    );
  });

  it('never repeats a Redis password in a configuration error', async () => {
    const error = await load({ REDIS_URL: 'http://user:hunter2@cache.example', SESSION_SECRET: 's'.repeat(32) }).then(
      () => undefined,
      (thrown: Error) => thrown,
    );
    expect(error?.message).toMatch(/^REDIS_URL: /);
    expect(error?.message).not.toContain('hunter2');
  });

  it('accepts plain http for APP_URL only on a loopback host', async () => {
    for (const appUrl of ['http://localhost:3000', 'http://app.localhost:3000', 'http://127.0.0.2:3200', 'http://[::1]:3000', 'https://rp.example']) {
      expect((await load({ APP_URL: appUrl })).appUrl).toBe(appUrl);
    }
    expect((await load({ APP_URL: 'http://127.0.0.1:3000' })).secureCookies).toBe(false);
    expect((await load({ APP_URL: 'https://rp.example' })).secureCookies).toBe(true);
  });

  it('accepts plain http only for a loopback provider', async () => {
    const config = await load({ ...providerEnv(), IDV_BASE_URL: 'http://127.0.0.1:3100/emulator' });
    expect(config.allowInsecureRequests).toBe(true);
  });

  it('requires SESSION_SECRET under NODE_ENV=production, in either mode, and generates none', async () => {
    await expect(load({ ...providerEnv(), NODE_ENV: 'production' })).rejects.toThrow(/^SESSION_SECRET: is required under NODE_ENV=production/);
    await expect(load({ NODE_ENV: 'production' })).rejects.toThrow(/^SESSION_SECRET: is required under NODE_ENV=production/);
    const config = await load({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) });
    expect(config.generated).not.toContain('SESSION_SECRET');
  });

  it('guards the emulator’s QA panel: open in development, read-only in production, a sign-in with EMULATOR_PANEL_PASSWORD', async () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) };
    expect((await load({})).emulatorPanel).toEqual({ mode: 'open' });
    const readOnly = await load(production);
    expect(readOnly.emulatorPanel).toMatchObject({ mode: 'read-only', reason: expect.stringContaining('EMULATOR_PANEL_PASSWORD') });
    const guarded = await load({ ...production, EMULATOR_PANEL_PASSWORD: 'p'.repeat(12) });
    expect(guarded.emulatorPanel).toEqual({ mode: 'password', password: 'p'.repeat(12) });
    expect((await load({ EMULATOR_PANEL_PASSWORD: 'p'.repeat(12) })).emulatorPanel.mode).toBe('password');
    await expect(load({ ...production, EMULATOR_PANEL_PASSWORD: 'short' })).rejects.toThrow(
      /^EMULATOR_PANEL_PASSWORD: must be at least 12 characters \(it has 5\)/,
    );
  });

  it('says at start-up when the emulator serves in production, and how its panel is guarded', async () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), APP_URL: 'https://demo.example' };
    expect(emulatorProductionNotice(await load(production))).toMatch(
      /^the embedded emulator is running under NODE_ENV=production: anyone who reaches https:\/\/demo.example can verify .* its QA panel is read-only \(set EMULATOR_PANEL_PASSWORD/,
    );
    expect(emulatorProductionNotice(await load({ ...production, EMULATOR_PANEL_PASSWORD: 'p'.repeat(12) }))).toContain('ask for EMULATOR_PANEL_PASSWORD');
    expect(emulatorProductionNotice(await load({}))).toBeUndefined();
    expect(emulatorProductionNotice(await load({ ...providerEnv(), NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32) }))).toBeUndefined();
  });

  it('reads the population register’s name for our requests and for the emulator apart, Folkeregisteret by default', async () => {
    const defaults = await load({});
    expect([defaults.populationRegisterName, defaults.emulatorPopulationRegisterName]).toEqual(['Folkeregisteret', 'Folkeregisteret']);
    const apart = await load({ IDV_POPULATION_REGISTER_NAME: 'Det sentrale folkeregister', EMULATOR_POPULATION_REGISTER_NAME: 'Folkeregisteret' });
    expect([apart.populationRegisterName, apart.emulatorPopulationRegisterName]).toEqual(['Det sentrale folkeregister', 'Folkeregisteret']);
    await expect(load({ IDV_POPULATION_REGISTER_NAME: 'Folke\nregisteret' })).rejects.toThrow(/^IDV_POPULATION_REGISTER_NAME: must be the register's name/);
    await expect(load({ EMULATOR_POPULATION_REGISTER_NAME: 'x'.repeat(101) })).rejects.toThrow(/^EMULATOR_POPULATION_REGISTER_NAME: /);
  });

  it('reads IDV_FLOW_URL for an authorization endpoint discovery leaves out; the emulator’s own in emulator mode', async () => {
    expect((await load({ ...providerEnv(), IDV_FLOW_URL: 'https://flow.idv.staging.example' })).flowUrl).toBe('https://flow.idv.staging.example');
    expect((await load(providerEnv())).flowUrl).toBeUndefined();
    expect((await load({})).flowUrl).toBe('http://localhost:3000/emulator');
    await expect(load({ ...providerEnv(), IDV_FLOW_URL: 'http://flow.example' })).rejects.toThrow(/^IDV_FLOW_URL: must use https/);
    await expect(load({ ...providerEnv(), IDV_FLOW_URL: 'https://flow.example/' })).rejects.toThrow(/^IDV_FLOW_URL: must be a base URL/);
    await expect(load({ IDV_FLOW_URL: 'https://flow.example' })).rejects.toThrow(/^IDV_FLOW_URL: is used only with IDV_BASE_URL/);
  });

  it('reads EMULATOR_FLOW_URL: the emulator’s /auth on an origin of its own, which our relying party then uses', async () => {
    const config = await load({ EMULATOR_FLOW_URL: 'http://127.0.0.1:3102', HOST: '127.0.0.1' });
    expect(config.emulatorFlow).toEqual({ baseUrl: 'http://127.0.0.1:3102/emulator', listen: { host: '127.0.0.1', port: 3102 } });
    expect(config.flowUrl).toBe('http://127.0.0.1:3102/emulator');
    await expect(load({ EMULATOR_FLOW_URL: 'http://localhost:3000' })).rejects.toThrow(/^EMULATOR_FLOW_URL: must be another origin than APP_URL/);
    await expect(load({ EMULATOR_FLOW_URL: 'http://127.0.0.1:3102/emulator' })).rejects.toThrow(/^EMULATOR_FLOW_URL: must be an origin/);
    await expect(load({ EMULATOR_FLOW_URL: 'http://flow.example:3102' })).rejects.toThrow(/^EMULATOR_FLOW_URL: must use https/);
    expect((await load({ ...providerEnv(), EMULATOR_FLOW_URL: 'http://127.0.0.1:3102' })).emulatorFlow).toBeUndefined();
  });

  it('refuses an encryption key under 2048 bits', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const small = { ...generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'jwk' }), kid: 'small' };
    await expect(load({ ...providerEnv(), IDV_ENCRYPTION_KEY: JSON.stringify(small) })).rejects.toThrow(
      /^IDV_ENCRYPTION_KEY: must be an RSA key of at least 2048 bits \(it has 1024\)/,
    );
  });

  it('refuses a signing key of an algorithm the service does not accept', async () => {
    const rsa = await generateClientKeys('PS256');
    const env = { ...providerEnv(), IDV_SIGNING_KEY: JSON.stringify({ ...rsa.signingKey, alg: 'RS256' }) };
    await expect(load(env)).rejects.toThrow(/^IDV_SIGNING_KEY: must be an ES256/);
  });
});

/** A self-signed CA certificate in PEM, as an operator would paste it. */
async function caPem(name: string): Promise<{ pem: string; base64: string }> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.subtle.generateKey(algorithm, false, ['sign', 'verify']);
  const certificate = await X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name}`,
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2036-01-01T00:00:00Z'),
    signingAlgorithm: algorithm,
    keys,
  });
  return { pem: certificate.toString('pem'), base64: certificate.toString('base64') };
}

describe('IDV_TRUST_ANCHOR', () => {
  it('is optional: without it no chain is validated', async () => {
    expect((await load(providerEnv())).trustAnchors).toEqual([]);
  });

  it('takes a PEM certificate, several concatenated, or one line with \\n for the line breaks', async () => {
    const [first, second] = [await caPem('IDV Root'), await caPem('IDV Root 2')];
    expect((await load({ ...providerEnv(), IDV_TRUST_ANCHOR: first.pem })).trustAnchors).toEqual([first.base64]);
    expect((await load({ ...providerEnv(), IDV_TRUST_ANCHOR: `# bundle\n${first.pem}\n${second.pem}\n` })).trustAnchors).toEqual([first.base64, second.base64]);
    const oneLine = first.pem.replace(/\r?\n/g, '\\n');
    expect(oneLine).not.toContain('\n');
    expect((await load({ IDV_TRUST_ANCHOR: oneLine })).trustAnchors).toEqual([first.base64]);
  });

  it('refuses at start-up what is not a readable PEM certificate, naming the variable', async () => {
    const { pem } = await caPem('IDV Root');
    await expect(load({ ...providerEnv(), IDV_TRUST_ANCHOR: 'not a certificate' })).rejects.toThrow(/^IDV_TRUST_ANCHOR: is not a PEM certificate/);
    const garbage = '-----BEGIN CERTIFICATE-----\nZ2FyYmFnZQ==\n-----END CERTIFICATE-----';
    await expect(load({ ...providerEnv(), IDV_TRUST_ANCHOR: garbage })).rejects.toThrow(
      /^IDV_TRUST_ANCHOR: certificate 1 of 1 is not a readable X.509 certificate/,
    );
    await expect(load({ ...providerEnv(), IDV_TRUST_ANCHOR: `${pem}\n${garbage}` })).rejects.toThrow(/^IDV_TRUST_ANCHOR: certificate 2 of 2 /);
    const truncated = `${pem}\n-----BEGIN CERTIFICATE-----\nMIIB`;
    await expect(load({ ...providerEnv(), IDV_TRUST_ANCHOR: truncated })).rejects.toThrow(/^IDV_TRUST_ANCHOR: is not a PEM certificate/);
  });

  it('refuses a private key, and does not repeat it', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const privatePem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const error = await load({ ...providerEnv(), IDV_TRUST_ANCHOR: privatePem }).then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error).toMatchObject({ name: 'ConfigurationError', variable: 'IDV_TRUST_ANCHOR' });
    expect(error?.message).toMatch(/^IDV_TRUST_ANCHOR: holds a private key/);
    expect(error?.message).not.toContain(privatePem.split('\n')[1]);
  });
});

describe('IDV_UI_LOCALES', () => {
  it('sends ui_locales by default only to the lenient embedded emulator: spec 2.2 does not list it', async () => {
    expect((await load({})).uiLocales).toEqual({ send: true, source: 'default' });
    expect((await load(providerEnv())).uiLocales).toEqual({ send: false, source: 'default' });
    expect((await load({ EMULATOR_STRICT: 'on' })).uiLocales).toEqual({ send: false, source: 'default' });
  });

  it('is on or off as set, in either mode', async () => {
    expect((await load({ ...providerEnv(), IDV_UI_LOCALES: 'on' })).uiLocales).toEqual({ send: true, source: 'IDV_UI_LOCALES' });
    expect((await load({ IDV_UI_LOCALES: 'OFF' })).uiLocales).toEqual({ send: false, source: 'IDV_UI_LOCALES' });
    expect((await load({ IDV_UI_LOCALES: 'true', EMULATOR_STRICT: '1' })).uiLocales.send).toBe(true);
  });

  it('refuses anything but on or off, naming the variable', async () => {
    await expect(load({ IDV_UI_LOCALES: 'nb' })).rejects.toThrow(/^IDV_UI_LOCALES: must be on or off, not "nb"/);
  });
});

describe('IDV_ID_TOKEN_ENCRYPTION', () => {
  it('is unset by default: the combinations discovery advertises are accepted', async () => {
    expect((await load(providerEnv())).idTokenEncryption).toBeUndefined();
  });

  it('pins a list of alg/enc combinations', async () => {
    const config = await load({ ...providerEnv(), IDV_ID_TOKEN_ENCRYPTION: 'RSA-OAEP/A128CBC-HS256, RSA-OAEP-256/A256GCM' });
    expect(config.idTokenEncryption).toEqual([
      { alg: 'RSA-OAEP', enc: 'A128CBC-HS256' },
      { alg: 'RSA-OAEP-256', enc: 'A256GCM' },
    ]);
  });

  it('refuses RSA1_5, dir and anything unreadable at start-up, naming the variable', async () => {
    await expect(load({ ...providerEnv(), IDV_ID_TOKEN_ENCRYPTION: 'RSA1_5/A128CBC-HS256' })).rejects.toThrow(
      /^IDV_ID_TOKEN_ENCRYPTION: RSA1_5 \/ A128CBC-HS256 is not accepted/,
    );
    await expect(load({ ...providerEnv(), IDV_ID_TOKEN_ENCRYPTION: 'dir/A256GCM' })).rejects.toThrow(/^IDV_ID_TOKEN_ENCRYPTION: /);
    await expect(load({ ...providerEnv(), IDV_ID_TOKEN_ENCRYPTION: 'A256GCM' })).rejects.toThrow(
      /^IDV_ID_TOKEN_ENCRYPTION: "A256GCM" is not an alg\/enc combination/,
    );
  });

  it('accepts an encryption key whose alg is RSA-OAEP, and refuses RSA1_5', async () => {
    const rsaOaep = JSON.stringify({ ...keys.encryptionKey, alg: 'RSA-OAEP' });
    expect((await load({ ...providerEnv(), IDV_ENCRYPTION_KEY: rsaOaep })).client.encryptionKey.alg).toBe('RSA-OAEP');
    await expect(load({ ...providerEnv(), IDV_ENCRYPTION_KEY: JSON.stringify({ ...keys.encryptionKey, alg: 'RSA1_5' }) })).rejects.toThrow(
      /^IDV_ENCRYPTION_KEY: /,
    );
  });
});

describe('EMULATOR_STRICT and EMULATOR_REDIRECT_ISS', () => {
  it('start the embedded emulator lenient and with iss on its redirects', async () => {
    expect(await load({})).toMatchObject({ emulatorStrict: false, emulatorRedirectIss: true });
  });

  it('are read as on or off', async () => {
    expect(await load({ EMULATOR_STRICT: 'yes', EMULATOR_REDIRECT_ISS: 'off' })).toMatchObject({ emulatorStrict: true, emulatorRedirectIss: false });
    await expect(load({ EMULATOR_STRICT: 'strict' })).rejects.toThrow(/^EMULATOR_STRICT: must be on or off/);
  });
});

describe('IDV_DEMO_NAME, IDV_DEMO_LOGO and IDV_CUSTOMER_MODE: a demo in the customer’s name', () => {
  it('are unset by default: no name or logo of its own, links to QA and the doctor shown', async () => {
    expect(await load({})).toMatchObject({ demo: {}, customerMode: false });
  });

  it('takes a display name of 1 to 60 printable characters, letters of any script included', async () => {
    expect((await load({ IDV_DEMO_NAME: '  Ærlig Bank ASA  ' })).demo.name).toBe('Ærlig Bank ASA');
    expect((await load({ IDV_DEMO_NAME: 'x'.repeat(60) })).demo.name).toHaveLength(60);
    await expect(load({ IDV_DEMO_NAME: 'x'.repeat(61) })).rejects.toThrow(/^IDV_DEMO_NAME: must be at most 60 characters \(it has 61\)/);
    for (const unprintable of ['Acme\nBank', 'Acme\u0007', 'Acme \u202eknaB', 'Ac\u200bme']) {
      await expect(load({ IDV_DEMO_NAME: unprintable })).rejects.toThrow(/^IDV_DEMO_NAME: must be printable characters only/);
    }
  });

  it('reads the customer mode as on or off, off by default', async () => {
    expect((await load({ IDV_CUSTOMER_MODE: 'on' })).customerMode).toBe(true);
    expect((await load({ IDV_CUSTOMER_MODE: 'off' })).customerMode).toBe(false);
    await expect(load({ IDV_CUSTOMER_MODE: 'customer' })).rejects.toThrow(/^IDV_CUSTOMER_MODE: must be on or off/);
  });
});
