import { describe, expect, it } from 'vitest';
import { TRANSPORT_CAUSES, type DetailValues } from '@/lib/verification/doctor-findings';
import { DOCTOR_MESSAGES, type DoctorMessages } from './doctor-messages';

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
