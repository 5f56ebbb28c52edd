import { describe, expect, it } from 'vitest';
import { discoveryUrl, generateClientKeys, type FetchLike } from '@/lib/oidc';
import { createTestEmulator } from '@/test/support/emulator';
import { checkDiscovery, checkJwks, reusedFor, runDoctor, type DoctorLine } from './doctor';
import type { ServerConfig } from './env';

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
    ['ID token encryption only with dir', { id_token_encryption_alg_values_supported: ['dir'], id_token_encryption_enc_values_supported: ['A256GCM'] }, 'id-token-encryption', 'fail'],
    ['RSA1_5 besides RSA-OAEP-256', { id_token_encryption_alg_values_supported: ['RSA1_5', 'RSA-OAEP-256'] }, 'id-token-encryption', 'warn'],
    ['ID token encryption not advertised', { id_token_encryption_alg_values_supported: undefined, id_token_encryption_enc_values_supported: undefined }, 'id-token-encryption', 'warn'],
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
    expect(found).toMatchObject({ status: 'pass', detail: { key: 'encryptionAdvertised', args: [['RSA-OAEP'], ['A128CBC-HS256', 'A256GCM'], ['RSA-OAEP / A256GCM', 'RSA-OAEP / A128CBC-HS256'], []] } });
  });

  it('passes a pinned ID token encryption the service advertises, and warns of one it does not', async () => {
    const document = { ...(await emulatorDocument()), id_token_encryption_alg_values_supported: ['RSA-OAEP-256'], id_token_encryption_enc_values_supported: ['A256GCM'] };
    const pinned = (idTokenEncryption: { alg: 'RSA-OAEP-256' | 'RSA-OAEP'; enc: 'A256GCM' }[]) =>
      checkDiscovery(document, { issuer: ISSUER, signingAlg: 'ES256', idTokenEncryption }).find((line) => line.id === 'id-token-encryption');
    expect(pinned([{ alg: 'RSA-OAEP-256', enc: 'A256GCM' }])?.status).toBe('pass');
    expect(pinned([{ alg: 'RSA-OAEP', enc: 'A256GCM' }])).toMatchObject({ status: 'warn', detail: { key: 'encryptionPinned', args: [['RSA-OAEP / A256GCM'], ['RSA-OAEP / A256GCM']] } });
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

describe('runDoctor', () => {
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
    } as ServerConfig;
  }

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
    expect(await uiLocales({ uiLocales: { send: false, source: 'default' } })).toMatchObject({ status: 'pass', detail: expect.stringMatching(/^not sent \(the default\)/) });
    expect(await uiLocales({ mode: 'provider', uiLocales: { send: true, source: 'IDV_UI_LOCALES' } })).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^sent \(IDV_UI_LOCALES=on\)/),
      fix: expect.stringMatching(/^Spec 2.2 does not list ui_locales/),
    });
    expect(await uiLocales({ emulatorStrict: true, uiLocales: { send: true, source: 'IDV_UI_LOCALES' } })).toMatchObject({ status: 'warn', fix: expect.stringMatching(/EMULATOR_STRICT/) });
  });

  it('fails when the service cannot be reached, saying so', async () => {
    const unreachable: FetchLike = () => Promise.reject(new TypeError('fetch failed'));
    const report = await runDoctor(await config(), unreachable);
    expect(report.status).toBe('fail');
    expect(report.lines.find((line) => line.id === 'discovery')).toMatchObject({ status: 'fail', fix: 'Check IDV_BASE_URL and the network.' });
  });
});

describe('reusedFor (GET /doctor at most one fresh report per 15 s)', () => {
  it('gives the same result until it is 15 s old, then makes a new one', () => {
    let clock = 0;
    let made = 0;
    const report = reusedFor(15_000, () => (made += 1), () => clock);
    expect([report(), report()]).toEqual([1, 1]);
    clock = 14_999;
    expect(report()).toBe(1);
    clock = 15_000;
    expect(report()).toBe(2);
  });
});
