import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '@/lib/i18n/locale';
import { discoveryUrl, generateClientKeys, type FetchLike } from '@/lib/oidc';
import { createTestEmulator } from '@/test/support/emulator';
import type { DoctorLine } from '@/lib/verification/doctor-findings';
import { describeFindings, describeLine } from '@/lib/view/doctor-words';
import { examine } from './doctor';
import { checkDiscovery, checkJwks } from './doctor-checks';
import type { ServerConfig } from './env';

const ISSUER = 'https://idv.test/emulator';
const emulator = createTestEmulator({ baseUrl: ISSUER, clients: [], rateLimits: false });
const viaEmulator: FetchLike = (input, init) => emulator.handle(new Request(input, init));
const unreachable: FetchLike = () => Promise.reject(new TypeError('fetch failed'));

async function emulatorDocument(): Promise<Record<string, unknown>> {
  return (await (await viaEmulator(discoveryUrl(ISSUER))).json()) as Record<string, unknown>;
}

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

describe('a service that cannot be reached', () => {
  let nothing: number;
  beforeAll(async () => {
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    nothing = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
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
