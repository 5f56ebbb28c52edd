import { describe, expect, it } from 'vitest';
import { discoveryUrl, generateClientKeys, type FetchLike } from '@/lib/oidc';
import { createTestEmulator } from '@/test/support/emulator';
import { TRANSPORT_CAUSES, type DetailValues, type DoctorLine } from '@/lib/verification/doctor-findings';
import { checkDiscovery, checkJwks, examine } from './doctor';
import { describeFindings, describeLine, runDoctor } from './doctor-words';
import { DOCTOR_MESSAGES, type DoctorMessages } from './doctor-messages';
import type { ServerConfig } from './env';

const ISSUER = 'https://idv.test/emulator';
const emulator = createTestEmulator({ baseUrl: ISSUER, clients: [], rateLimits: false });
const viaEmulator: FetchLike = (input, init) => emulator.handle(new Request(input, init));
const unreachable: FetchLike = () => Promise.reject(new TypeError('fetch failed'));

async function emulatorDocument(): Promise<Record<string, unknown>> {
  return (await (await viaEmulator(discoveryUrl(ISSUER))).json()) as Record<string, unknown>;
}

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

const byId = (lines: DoctorLine[], id: string) => lines.find((line) => line.id === id)!;

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

type Details = DoctorMessages['details'];
/** Values for every detail (tsc holds it complete). */
const DETAIL_VALUES: DetailValues = {
  asWritten: ['https://idv.test/.well-known/openid-configuration'],
  mode: ['provider', 'https://idv.test', 'rp'],
  redirectRegister: ['https://rp.test/auth/callback'],
  redirectInsecure: ['http://rp.test/auth/callback'],
  key: ['ES256', 'k1'],
  devKey: ['ES256', 'k1', 'IDV_SIGNING_KEY'],
  redirectHttp: ['http://localhost:3000/auth/callback', 'https://idv.test'],
  fetchFailed: [{ kind: 'status', endpoint: 'jwks', status: 500 }, 'https://idv.test/jwks'],
  issuerMatches: ['https://idv.test'],
  issuerDiffers: ['"https://other.test"', 'https://idv.test'],
  notHttps: [[['token_endpoint', 'http://idv.test/token']]],
  endpoints: [[['token_endpoint', 'http://localhost/token']], true, ['jwks_uri']],
  parRequired: [],
  parAbsent: [],
  parNotRequired: ['false'],
  notListed: ['evidence_supported', ['document']],
  listed: ['evidence_supported', ['document']],
  lacks: ['evidence_supported', ['document'], []],
  encryptionAdvertised: [['RSA-OAEP-256', 'RSA1_5'], ['A256GCM'], ['RSA-OAEP-256 / A256GCM'], ['RSA1_5']],
  encryptionNoneAccepted: [['RSA1_5'], ['A128CBC-HS256']],
  encryptionNotAdvertised: [['RSA-OAEP-256 / A256GCM']],
  encryptionPinned: [['RSA-OAEP / A128GCM'], ['RSA-OAEP / A128GCM']],
  uiLocalesSent: [true],
  uiLocalesNotSent: [false],
  issuerParameter: [],
  issuerParameterAbsent: [],
  noKeysArray: [],
  signingKeys: [2, ['k1', 'k2']],
  noSigningKey: [3],
  kidsUnique: [2],
  kidsRepeated: [['k1']],
  noPrivateKeys: [],
  privateKeys: [['k1', undefined]],
};
/** Details that hold nothing but what is never translated. */
const AS_WRITTEN = ['asWritten', 'key', 'listed', 'parRequired'];

const say = (entry: unknown, args: readonly unknown[]) => (typeof entry === 'function' ? (entry as (...all: unknown[]) => string)(...args) : entry);

describe('the doctor’s catalog', () => {
  it('has every title, detail and fix in Norwegian, none a copy of the English', () => {
    const { en, nb } = DOCTOR_MESSAGES;
    for (const key of Object.keys(en.titles) as (keyof DoctorMessages['titles'])[])
      expect(say(nb.titles[key], ['ES256']), key).not.toBe(say(en.titles[key], ['ES256']));
    for (const key of Object.keys(en.fixes) as (keyof DoctorMessages['fixes'])[]) {
      if (key !== 'unreachable') expect(say(nb.fixes[key], ['IDV_CLIENT_ID']), key).not.toBe(say(en.fixes[key], ['IDV_CLIENT_ID']));
    }
    for (const cause of TRANSPORT_CAUSES) {
      expect(nb.causes[cause], cause).not.toBe(en.causes[cause]);
      for (const variable of ['IDV_BASE_URL', 'jwks_uri'] as const) {
        const [english, norwegian] = [en.fixes.unreachable(cause, variable, 'idv.test:443'), nb.fixes.unreachable(cause, variable, 'idv.test:443')];
        expect(english, cause).toMatch(/\S/);
        expect(norwegian, cause).not.toBe(english);
      }
      const problem = { kind: 'error', endpoint: 'discovery', message: 'The discovery endpoint could not be reached: x', cause, host: 'idv.test' } as const;
      expect(nb.details.fetchFailed(problem, 'https://idv.test'), cause).not.toBe(en.details.fetchFailed(problem, 'https://idv.test'));
    }
    for (const key of Object.keys(en.details) as (keyof Details)[]) {
      const [english, norwegian] = [say(en.details[key], DETAIL_VALUES[key]), say(nb.details[key], DETAIL_VALUES[key])];
      if (AS_WRITTEN.includes(key)) expect(norwegian, key).toBe(english);
      else expect(norwegian, key).not.toBe(english);
    }
  });

  it('has the page’s and the command’s words in Norwegian', () => {
    const { en, nb } = DOCTOR_MESSAGES;
    for (const key of ['title', 'command', 'checks', 'whatToDo', 'publicJwks', 'publicJwksPrinted'] as const) expect(nb[key], key).not.toBe(en[key]);
    expect(nb.intro).not.toEqual(en.intro);
    expect(nb.statuses).toEqual({ pass: 'OK', warn: 'Advarsel', fail: 'Feil' });
    expect(`${nb.passed(17)}${nb.others(1, 0)}`).toBe('17 OK, 1 med advarsel, 0 med feil.');
    expect(`${en.passed(17)}${en.others(1, 0)}`).toBe('17 passed, 1 with a warning, 0 failed.');
  });
});
