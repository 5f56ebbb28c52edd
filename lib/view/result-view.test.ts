import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION, type Selection, type VerifiedClaims } from '@/lib/oidc';
import type { SigningCertificateCheck } from '@/lib/verification/signing-certificate';
import { ageOn } from '@/lib/verification/verified-identity';
import { buildChecks, buildResultView, buildVerificationView, formatNumericDate, keptUntilText } from './result-view';

const verified: VerifiedClaims = {
  trustFramework: 'standard',
  evidence: [
    {
      type: 'document',
      documentDetails: {
        type: 'passport',
        document_number: 'FH1234567',
        date_of_expiry: '2026-11-20',
        issuer: { country_code: 'NOR', name: 'Politiet' },
        personal_number: { type: 'no-fnr', value: '14038712345' },
      },
    },
  ],
  claims: { name: 'Ingrid Solberg Haugen', birthdate: '1987-03-14', nationalities: ['NOR', 'PRT'], gender: 'female' },
};

describe('buildResultView', () => {
  it('shows values, "not provided" for requested-but-absent data and "not requested" for the rest', () => {
    const selection: Selection = {
      ...DEFAULT_SELECTION,
      claims: { name: { essential: true }, given_name: { essential: true }, birthdate: { essential: true } },
    };
    const view = buildResultView([verified], selection, '2026-11-21', 'en');
    expect(view.identity.name).toEqual({ state: 'value', text: 'Ingrid Solberg Haugen' });
    expect(view.identity.givenName).toEqual({ state: 'not_provided' });
    expect(view.identity.gender).toEqual({ state: 'not_requested' });
    expect(view.identity.portrait).toEqual({ state: 'not_requested' });
    expect(view.identity.birthdate).toEqual({ state: 'value', text: '14 March 1987', hint: '39 years old' });
  });

  it('names countries and marks an expired document', () => {
    const view = buildResultView([verified], DEFAULT_SELECTION, '2026-11-21', 'en');
    expect(view.identity.nationalities).toEqual({ state: 'value', text: 'Norway (NOR), Portugal (PRT)' });
    expect(view.document.issuingCountry).toEqual({ state: 'value', text: 'Norway (NOR)' });
    expect(view.document.expired).toBe(true);
    expect(buildResultView([verified], DEFAULT_SELECTION, '2026-11-20', 'en').document.expired).toBe(false);
    expect(view.document.personalNumber).toEqual({ state: 'value', text: '14038712345', hint: 'no-fnr' });
    expect(view.document.issuerCheck).toEqual({ state: 'not_provided' });
  });

  it('words the chip and issuer check results in Norwegian as the emulator does, and leaves them as sent in English', () => {
    const checked: VerifiedClaims = {
      ...verified,
      evidence: [{ type: 'document', documentDetails: { active_authentication_result: 'passed', issuer_check: { valid: 'VALID' } } }],
    };
    const nb = buildResultView([checked], DEFAULT_SELECTION, '2026-11-21', 'nb').document;
    expect(nb.chipAuthentication).toEqual({ state: 'value', text: 'bestått' });
    expect(nb.issuerCheck).toEqual({ state: 'value', text: 'gyldig' });
    const en = buildResultView([checked], DEFAULT_SELECTION, '2026-11-21', 'en').document;
    expect(en.chipAuthentication).toEqual({ state: 'value', text: 'passed' });
    expect(en.issuerCheck).toEqual({ state: 'value', text: 'VALID' });
    const unknown: VerifiedClaims = { ...checked, evidence: [{ type: 'document', documentDetails: { issuer_check: { valid: 'SOMETHING_NEW' } } }] };
    expect(buildResultView([unknown], DEFAULT_SELECTION, '2026-11-21', 'nb').document.issuerCheck).toEqual({ state: 'value', text: 'SOMETHING_NEW' });
  });

  it('says when document evidence was requested but none came back', () => {
    const view = buildResultView([{ ...verified, evidence: [] }], DEFAULT_SELECTION, '2026-11-21', 'en');
    expect(view.document).toMatchObject({ requested: true, provided: false });
  });
});

describe('the population-register view', () => {
  const record = { type: 'electronic_record' as const, record: { type: 'population_register', sourceName: 'Folkeregisteret', personalNumber: '14038712345' } };

  it('shows the matched record when register evidence was requested and returned', () => {
    const selection: Selection = { ...DEFAULT_SELECTION, populationRegister: {} };
    const view = buildResultView([{ ...verified, evidence: [...verified.evidence, record] }], selection, '2026-11-21', 'en');
    expect(view.populationRegister).toEqual({
      requested: true,
      provided: true,
      lookedUp: undefined,
      source: { state: 'value', text: 'Folkeregisteret' },
      personalNumber: { state: 'value', text: '14038712345' },
      extras: [],
    });
  });

  it('says "not provided" when there was no match, and "not requested" when it was not asked for', () => {
    const asked = buildResultView([verified], { ...DEFAULT_SELECTION, populationRegister: { personalNumber: '01010112345' } }, '2026-11-21', 'en');
    expect(asked.populationRegister).toMatchObject({ requested: true, provided: false, lookedUp: '01010112345', personalNumber: { state: 'not_provided' } });
    const notAsked = buildResultView([{ ...verified, evidence: [record] }], DEFAULT_SELECTION, '2026-11-21', 'en');
    expect(notAsked.populationRegister).toMatchObject({ requested: false, personalNumber: { state: 'not_requested' } });
  });
});

describe('ageOn', () => {
  it('counts a birthday only once it has come', () => {
    expect(ageOn('1987-03-14', '2026-03-13')).toBe(38);
    expect(ageOn('1987-03-14', '2026-03-14')).toBe(39);
  });
});

describe('hostile values from the provider', () => {
  it('shows inherited property names as plain text rather than objects', () => {
    const hostile: VerifiedClaims = {
      ...verified,
      claims: { gender: '__proto__' },
      evidence: [{ type: 'document', documentDetails: { type: 'constructor' } }],
    };
    const view = buildResultView([hostile], DEFAULT_SELECTION, '2026-11-21', 'en');
    expect(view.identity.gender).toEqual({ state: 'value', text: '__proto__' });
    expect(view.document.type).toEqual({ state: 'value', text: 'constructor' });
  });

  it('drops an auth_time that is not a usable date', () => {
    expect(formatNumericDate(1e13)).toBeUndefined();
    expect(formatNumericDate(Infinity)).toBeUndefined();
    expect(formatNumericDate('1700000000')).toBeUndefined();
    expect(formatNumericDate(1_700_000_000)).toBe('2023-11-14 22:13:20 UTC');
  });
});

describe('buildVerificationView and buildChecks', () => {
  const input = {
    issuer: 'https://idv.example',
    clientId: 'client-1',
    selection: { ...DEFAULT_SELECTION, trustFramework: 'standard_etsi' },
    verifiedClaims: [verified],
    idToken: {
      jweHeader: { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'enc-1' },
      jwsHeader: { alg: 'ES256', kid: 'abc123' },
      claims: {
        iss: 'https://idv.example',
        aud: 'client-1',
        sub: 's',
        exp: 1_700_003_600,
        iat: 1_700_000_000,
        amr: ['face', 'user'],
        acr: 'urn:x:idcheck',
        auth_time: 1e13,
      },
    },
    signingCertificate: { subject: 'CN=Signer', issuer: 'CN=CA', serialNumber: 'abc123' },
  };

  it('flags a trust framework other than the one requested', () => {
    const view = buildVerificationView(input, 'en');
    expect(view).toMatchObject({ trustFramework: { state: 'value', text: 'standard' }, trustFrameworkMatches: false, hasVerifiedClaims: true });
    expect(view.amr).toEqual({ state: 'value', text: 'face, user' });
    expect(view.authTime).toEqual({ state: 'not_provided' });
  });

  it("names the issuer and words auth_time as a date and time in the reader's language", () => {
    const withAuthTime = { ...input, idToken: { ...input.idToken, claims: { ...input.idToken.claims, auth_time: 1_795_569_182 } } };
    expect(buildVerificationView(withAuthTime, 'en')).toMatchObject({
      issuer: { state: 'value', text: 'https://idv.example' },
      authTime: { state: 'value', text: '25 November 2026, 01:13:02\u00a0UTC' },
    });
    expect(buildVerificationView(withAuthTime, 'nb').authTime).toEqual({ state: 'value', text: '25. november 2026 kl.\u00a001:13:02\u00a0UTC' });
  });

  it('lists each validation with what it compared', () => {
    const checks = buildChecks(input, 'en');
    expect(checks.map((c) => c.label)).toContain('Signature verified');
    expect(checks.find((c) => c.label === 'Signature verified')).toEqual({
      label: 'Signature verified',
      detail: 'ES256 with the service key abc123 from the JWKS',
      outcome: 'passed',
    });
    expect(checks.find((c) => c.label === 'Decrypted with our key')?.detail).toBe('JWE RSA-OAEP-256 / A256GCM, key enc-1');
    expect(checks.find((c) => c.label === 'Not expired')?.detail).toBe('exp 14 November 2023, 23:13:20\u00a0UTC is in the future');
    expect(buildChecks(input, 'nb').find((c) => c.label === 'Ikke utløpt')?.detail).toBe('exp 14. november 2023 kl.\u00a023:13:20\u00a0UTC er fram i tid');
  });
});

describe('buildChecks: the signing certificate (spec 2.7) claims no more than was checked', () => {
  const input = {
    issuer: 'https://idv.example',
    clientId: 'client-1',
    selection: DEFAULT_SELECTION,
    verifiedClaims: [verified],
    idToken: {
      jweHeader: { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'enc-1' },
      jwsHeader: { alg: 'ES256', kid: 'ABC123' },
      claims: { iss: 'https://idv.example', aud: 'client-1', sub: 's', exp: 1_700_003_600, iat: 1_700_000_000 },
    },
    signingCertificate: { subject: 'CN=Signer', issuer: 'CN=CA', serialNumber: 'abc123' },
  };
  /** The rows after "Signature verified"; `null`: no certificate could be described. */
  const certificateRows = (check: SigningCertificateCheck | undefined, certificate: typeof input.signingCertificate | null = input.signingCertificate) => {
    const checks = buildChecks({ ...input, signingCertificate: certificate ?? undefined, signingCertificateCheck: check }, 'en');
    const signature = checks.findIndex((c) => c.label === 'Signature verified');
    expect(checks[signature]?.detail).toBe('ES256 with the service key ABC123 from the JWKS');
    return { key: checks[signature + 1]!, chain: checks[signature + 2]!, count: checks.length };
  };

  it('shows a matching key as passed, with the certificate it was found in', () => {
    const { key, count } = certificateRows({ key: 'matches', chain: { state: 'not_validated' } });
    expect(key).toEqual({
      label: 'Signing key matches its certificate',
      detail: 'key matches certificate: x5c[0] (CN=Signer, issued by CN=CA, serial number = kid) holds the public key that verified the signature',
      outcome: 'passed',
    });
    expect(count).toBe(12);
  });

  it('shows a key that does not match its certificate as a failed check, the token accepted on the JWK', () => {
    const { key } = certificateRows({ key: 'differs', chain: { state: 'not_validated' } });
    expect(key).toEqual({
      label: 'Signing key does NOT match its certificate',
      detail:
        'key does NOT match certificate: x5c[0] (CN=Signer, issued by CN=CA, serial number = kid) holds another public key than the one that verified the signature; the token was accepted on the JWKS key alone',
      outcome: 'failed',
    });
    expect(certificateRows({ key: 'differs', chain: { state: 'not_validated' } }, { ...input.signingCertificate, serialNumber: 'ff' }).key.detail).toContain(
      '(CN=Signer, issued by CN=CA, its serial number is not the kid)',
    );
  });

  it('says when there was no certificate to compare, or it could not be read', () => {
    expect(certificateRows({ key: 'no_certificate', chain: { state: 'not_validated' } }, null).key).toEqual({
      label: 'Signing key not compared with a certificate',
      detail: 'the JWKS entry has no x5c certificate; the token was accepted on the JWKS key alone',
      outcome: 'not_checked',
    });
    expect(certificateRows({ key: 'unreadable', chain: { state: 'not_validated' } }, null).key).toMatchObject({
      detail: 'x5c[0] is not a readable X.509 certificate, so the key was not compared; the token was accepted on the JWKS key alone',
      outcome: 'failed',
    });
  });

  it('says the chain was not validated without IDV_TRUST_ANCHOR', () => {
    expect(certificateRows({ key: 'matches', chain: { state: 'not_validated' } }).chain).toEqual({
      label: 'Certificate chain not validated',
      detail: 'chain not validated (no IDV_TRUST_ANCHOR configured): the certificate is shown as the service sent it, not trusted',
      outcome: 'not_checked',
    });
  });

  it('names the trust anchor of a validated chain, and what was checked on the way', () => {
    const { chain } = certificateRows({ key: 'matches', chain: { state: 'validated', anchor: 'CN=IDV Root' } });
    expect(chain).toEqual({
      label: 'Certificate chain validated',
      detail:
        'chain validated to CN=IDV Root, an IDV_TRUST_ANCHOR certificate: every signature, every validity period at the time of verification, the CA flag of each issuer in x5c; revocation not checked',
      outcome: 'passed',
    });
    expect(certificateRows({ key: 'differs', chain: { state: 'validated', anchor: 'CN=IDV Root' } }).chain.detail).toMatch(
      /^chain validated to CN=IDV Root \(for a certificate that does not hold the signing key\), /,
    );
  });

  it('shows a chain that is not valid as a failed check, with why', () => {
    expect(
      certificateRows({ key: 'matches', chain: { state: 'not_valid', reason: 'it ends at CN=Other, which is not an IDV_TRUST_ANCHOR certificate' } }).chain,
    ).toEqual({
      label: 'Certificate chain NOT valid',
      detail: 'chain NOT valid: it ends at CN=Other, which is not an IDV_TRUST_ANCHOR certificate',
      outcome: 'failed',
    });
  });

  it('claims nothing of the certificate for a result stored before it was checked', () => {
    const { key, chain } = certificateRows(undefined);
    expect([key.outcome, chain.outcome]).toEqual(['not_checked', 'not_checked']);
    expect(chain.label).toBe('Certificate chain not validated');
  });

  it('marks every other check as passed', () => {
    const checks = buildChecks({ ...input, signingCertificateCheck: { key: 'differs', chain: { state: 'not_valid', reason: 'x' } } }, 'en');
    expect(checks.filter((c) => c.outcome !== 'passed').map((c) => c.label)).toEqual([
      'Signing key does NOT match its certificate',
      'Certificate chain NOT valid',
    ]);
  });
});

describe('keptUntilText', () => {
  it('gives the UTC time of day a result expires', () => {
    expect(keptUntilText(Date.UTC(2026, 10, 23, 14, 5, 59), 'en')).toBe('14:05');
  });
});

/** A verification input like the ones above, for the views that need one. */
function verificationInput() {
  return {
    issuer: 'https://idv.example',
    clientId: 'client-1',
    selection: DEFAULT_SELECTION,
    verifiedClaims: [] as VerifiedClaims[],
    idToken: {
      jweHeader: { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'enc-1' },
      jwsHeader: { alg: 'ES256', kid: 'abc123' },
      claims: { iss: 'https://idv.example', aud: 'client-1', sub: 's', exp: 1_700_003_600, iat: 1_700_000_000 },
    },
  };
}

describe('OpenID Connect for Identity Assurance 1.0 shapes on the result page', () => {
  const document: VerifiedClaims = {
    trustFramework: 'standard',
    verificationTime: '2026-11-23T10:15:00Z',
    assuranceLevel: 'substantial',
    claims: { name: 'Ingrid Solberg Haugen' },
    evidence: [
      {
        type: 'document',
        documentDetails: { type: 'passport' },
        checkDetails: [{ checkMethod: 'vcrypt', organization: 'Politiet', txn: 'DE-1234', time: '2026-11-23T10:14:00Z' }],
        attachments: [{ description: 'Front of the card', contentType: 'image/jpeg', embeddedBytes: 24_576 }, { url: 'https://idv.example/a/2' }],
      },
    ],
  };
  const register: VerifiedClaims = {
    trustFramework: 'standard',
    claims: { birthdate: '1987-03-14' },
    evidence: [{ type: 'electronic_record', record: { type: 'population_register', sourceName: 'Folkeregisteret', personalNumber: '14038726421' } }],
  };
  const selection: Selection = {
    trustFramework: 'standard',
    claims: { name: { essential: true }, birthdate: { essential: true } },
    document: { details: ['type'] },
    populationRegister: {},
  };

  it('merges verified_claims sent as an array: claims and evidence from every element', () => {
    const view = buildResultView([document, register], selection, '2026-11-23', 'en');
    expect(view.identity.name).toEqual({ state: 'value', text: 'Ingrid Solberg Haugen' });
    expect(view.identity.birthdate).toMatchObject({ state: 'value', text: '14 March 1987' });
    expect(view.document.provided).toBe(true);
    expect(view.populationRegister.personalNumber).toEqual({ state: 'value', text: '14038726421' });
  });

  it('lists check details and attachments as sent, and shows verification time and assurance level', () => {
    const view = buildResultView([document], selection, '2026-11-23', 'en');
    expect(view.document.extras).toEqual([
      'Check: vcrypt by Politiet, transaction DE-1234, 23 November 2026 10:14 UTC',
      'Attachment: Front of the card (image/jpeg, embedded, 24 KiB)',
      'Attachment: no description (at https://idv.example/a/2)',
    ]);
    const verification = buildVerificationView({ ...verificationInput(), verifiedClaims: [document] }, 'en');
    expect(verification).toMatchObject({ verificationTime: '23 November 2026 10:15 UTC', assuranceLevel: 'substantial' });
    const plain = buildVerificationView({ ...verificationInput(), verifiedClaims: [register] }, 'en');
    expect(plain).not.toHaveProperty('verificationTime');
    expect(buildResultView([register], selection, '2026-11-23', 'en').populationRegister.extras).toEqual([]);
  });
});

describe('the result in Norwegian (bokmål)', () => {
  it('writes dates, ages, genders, document types and countries in Norwegian, codes as sent', () => {
    const view = buildResultView([verified], DEFAULT_SELECTION, '2026-11-21', 'nb');
    expect(view.identity.birthdate).toEqual({ state: 'value', text: '14. mars 1987', hint: '39 år' });
    expect(view.identity.gender).toEqual({ state: 'value', text: 'Kvinne' });
    expect(view.identity.nationalities).toEqual({ state: 'value', text: 'Norge (NOR), Portugal (PRT)' });
    expect(view.document.type).toEqual({ state: 'value', text: 'Pass' });
    expect(view.document.dateOfExpiry).toEqual({ state: 'value', text: '20. november 2026' });
    expect(view.document.personalNumber).toEqual({ state: 'value', text: '14038712345', hint: 'no-fnr' });
  });

  it('lists the checks in Norwegian, in the same order, keeping claim and parameter names', () => {
    const input = {
      issuer: 'https://idv.example',
      clientId: 'client-1',
      selection: DEFAULT_SELECTION,
      verifiedClaims: [verified],
      idToken: {
        jweHeader: { alg: 'RSA-OAEP-256', enc: 'A256GCM' },
        jwsHeader: { alg: 'ES256', kid: 'k1' },
        claims: { iss: 'https://idv.example', aud: 'client-1', sub: 's', exp: 1, iat: 1 },
      },
    };
    const english = buildChecks(input, 'en');
    const norwegian = buildChecks(input, 'nb');
    expect(norwegian.map((check) => check.outcome)).toEqual(english.map((check) => check.outcome));
    expect(norwegian.find((check) => check.label === 'Signaturen er verifisert')?.detail).toBe('ES256 med tjenestens nøkkel k1 fra JWKS');
    expect(norwegian.find((check) => check.label === 'Mottaker')?.detail).toBe('aud = "client-1", vår client_id client-1');
    expect(norwegian.map((check) => check.label)).toContain('Signeringsnøkkelen er ikke sammenlignet med sertifikatet');
    expect(keptUntilText(Date.UTC(2026, 10, 23, 9, 5), 'nb')).toBe('09:05');
  });
});
