import { describe, expect, it } from 'vitest';
import type { DoctorFindings, DoctorLine } from '@/lib/verification/doctor-findings';
import { describeFindings, describeLine } from './doctor-words';

const par: DoctorLine = {
  id: 'par',
  title: { code: 'par', values: [] },
  status: 'fail',
  detail: { code: 'parNotRequired', values: ['false'] },
  fix: { code: 'parNotRequired', values: [] },
};

describe('describeLine', () => {
  it('words a line’s codes with their values in the reader’s language', () => {
    expect(describeLine(par, 'en')).toEqual({
      id: 'par',
      title: 'Pushed authorization requests required',
      status: 'fail',
      detail: 'require_pushed_authorization_requests: false, but part 4 requires PAR',
      fix: 'Check that IDV_BASE_URL names the identity verification service.',
    });
    expect(describeLine(par, 'nb')).toEqual({
      id: 'par',
      title: 'Pushed authorization requests (PAR) kreves',
      status: 'fail',
      detail: 'require_pushed_authorization_requests: false, men del 4 krever PAR',
      fix: 'Kontroller at IDV_BASE_URL peker på identitetstjenesten.',
    });
  });

  it('gives a title with values, and no fix where the line has none', () => {
    const alg: DoctorLine = {
      id: 'client-assertion-alg',
      title: { code: 'clientAssertionAlg', values: ['EdDSA'] },
      status: 'pass',
      detail: { code: 'listed', values: ['token_endpoint_auth_signing_alg_values_supported', ['ES256', 'EdDSA']] },
    };
    expect(describeLine(alg, 'nb')).toEqual({
      id: 'client-assertion-alg',
      title: 'Klientpåstander signert med EdDSA (vår nøkkels algoritme)',
      status: 'pass',
      detail: 'token_endpoint_auth_signing_alg_values_supported: ES256, EdDSA',
    });
  });
});

describe('describeFindings', () => {
  it('words every line and the variables for staging, and keeps the keys, status and mode as found', () => {
    const findings: DoctorFindings = {
      lines: [par],
      publicJwks: { keys: [{ kty: 'EC', kid: 'k1' }] },
      status: 'fail',
      service: { mode: 'provider', issuer: 'https://idv.test' },
      environment: {
        redirectUri: 'https://rp.test/auth/callback',
        variables: [
          { name: 'APP_URL', value: 'https://rp.test' },
          { name: 'SESSION_SECRET', placeholder: 'sessionSecret' },
        ],
      },
    };
    const report = describeFindings(findings, 'nb');
    expect(report).toMatchObject({ status: 'fail', mode: 'provider', publicJwks: findings.publicJwks, lines: [describeLine(par, 'nb')] });
    expect(report.environment).toBe(
      '# Der appen nås; omdirigerings-URI-en som skal registreres hos tjenesten, er https://rp.test/auth/callback\nAPP_URL=https://rp.test\n# 32 eller flere tilfeldige tegn: openssl rand -base64 32\nSESSION_SECRET=<32+ tilfeldige tegn>',
    );
  });

  it('has neither mode nor variables when the configuration does not load', () => {
    const failed: DoctorFindings = {
      lines: [
        {
          id: 'configuration',
          title: { code: 'configuration', values: [] },
          status: 'fail',
          detail: { code: 'asWritten', values: ['IDV_CLIENT_ID: is required'] },
          fix: { code: 'configuration', values: ['IDV_CLIENT_ID'] },
        },
      ],
      publicJwks: { keys: [] },
      status: 'fail',
    };
    const report = describeFindings(failed, 'en');
    expect(report).toEqual({
      lines: [
        {
          id: 'configuration',
          title: 'Configuration valid',
          status: 'fail',
          detail: 'IDV_CLIENT_ID: is required',
          fix: 'Fix IDV_CLIENT_ID (docs/operations.md "Configuration").',
        },
      ],
      publicJwks: { keys: [] },
      status: 'fail',
    });
  });
});
