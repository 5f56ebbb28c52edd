import { describe, expect, it } from 'vitest';
import { FAULTS } from '../lib/emulator/qa/faults';
import { BASELINE_CASE, CASES, CLOSING_CASE, selectCases } from './cases';

describe('the conformance cases', () => {
  it('make every fault and variant of the emulator a case, but a JWKS outage, between two normal verifications', () => {
    expect(CASES[0]).toBe(BASELINE_CASE);
    expect(CASES.at(-1)).toBe(CLOSING_CASE);
    expect(CASES.slice(1, -1).map((testCase) => testCase.id)).toEqual(FAULTS.filter((fault) => fault.target !== 'jwks_endpoint').map((fault) => fault.id));
    // A correct relying party may complete despite an outage (the key cached, a stale key set, a
    // second request after a back-off) or refuse: the kit cannot tell which is right by itself.
    expect(CASES.map((testCase) => testCase.id)).not.toContain('jwks_error');
    expect(CASES.map((testCase) => testCase.id)).not.toContain('jwks_timeout');
    expect(new Set(CASES.map((testCase) => testCase.id)).size).toBe(CASES.length);
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it('rest each case on a clause, and name conformance-suite tests by their published names', () => {
    for (const testCase of CASES) {
      expect(testCase.basis, testCase.id).toMatch(/^(spec|RFC|OpenID)/);
      if (testCase.fapiTest) expect(testCase.fapiTest, testCase.id).toMatch(/^fapi2-security-profile-final-client-test-[a-z0-9_-]+$/);
      if (testCase.otherSuiteTest) expect(testCase.otherSuiteTest, testCase.id).toMatch(/^(oidcc-client-test|fapi1-advanced-final-client-test)-[a-z0-9_-]+$/);
    }
    expect(CASES.find((testCase) => testCase.id === 'wrong_nonce')?.fapiTest).toBe('fapi2-security-profile-final-client-test-invalid-nonce');
    expect(CASES.filter((testCase) => testCase.fapiTest).length).toBeGreaterThanOrEqual(17);
  });

  it('expect a refusal for each refusal fault and an acceptance for each variant', () => {
    for (const fault of FAULTS.filter((candidate) => candidate.target !== 'jwks_endpoint')) {
      const testCase = CASES.find((candidate) => candidate.id === fault.id)!;
      if (fault.kind === 'refusal') expect(testCase.expect, fault.id).toBe('refused');
      else expect(testCase.expect, fault.id).toBe(fault.check === 'portrait_not_shown' ? 'portrait_not_shown' : 'accepted');
    }
  });

  it('arm PAR faults for the client, before the flow exists, and every other fault for the flow', () => {
    for (const testCase of CASES.slice(1, -1)) {
      const fault = FAULTS.find((candidate) => candidate.id === testCase.id)!;
      expect(testCase.armedFor, testCase.id).toBe(fault.target === 'par_endpoint' ? 'client' : 'flow');
    }
  });

  it('rotate the signing key with each JWKS variant, so the relying party must fetch the JWKS that carries it', () => {
    const shuffled = CASES.find((testCase) => testCase.id === 'jwks_keys_shuffled')!;
    expect(shuffled.faults).toEqual(['key_rotated_unpublished', 'jwks_keys_shuffled']);
    expect(shuffled.needsJwksFetch).toBe(true);
    expect(CASES.filter((testCase) => testCase.needsJwksFetch).map((testCase) => testCase.id)).toEqual([
      'key_rotated_unpublished',
      'jwks_keys_shuffled',
      'jwks_unparseable_extra_keys',
    ]);
    expect(CASES.find((testCase) => testCase.id === 'wrong_nonce')!.faults).toEqual(['wrong_nonce']);
  });
});

describe('client-wide cases', () => {
  it('are the PAR faults, the key rotation and the JWKS variants: nothing else escapes the flow it starts', () => {
    expect(CASES.filter((testCase) => testCase.clientWide).map((testCase) => testCase.id)).toEqual([
      'par_server_error',
      'par_temporarily_unavailable',
      'par_invalid_request',
      'par_invalid_client',
      'key_rotated_unpublished',
      'jwks_keys_shuffled',
      'jwks_unparseable_extra_keys',
    ]);
    for (const testCase of CASES) if (testCase.armedFor === 'client' || testCase.needsJwksFetch) expect(testCase.clientWide, testCase.id).toBe(true);
  });

  it('name the one case whose ID token carries a kid the JWKS does not hold, which the runner runs first', () => {
    expect(CASES.filter((testCase) => testCase.unknownKid).map((testCase) => testCase.id)).toEqual(['unknown_kid']);
  });

  it('are left out without clientWide, matched by a pattern or not', () => {
    const perFlow = selectCases([], { clientWide: false });
    expect(perFlow.some((testCase) => testCase.clientWide)).toBe(false);
    expect(perFlow).toHaveLength(CASES.length - 7);
    expect(selectCases(['par_*', 'wrong_nonce'], { clientWide: false }).map((testCase) => testCase.id)).toEqual(['normal', 'wrong_nonce', 'normal_again']);
  });
});

describe('selectCases', () => {
  it('selects every case without patterns', () => {
    expect(selectCases()).toEqual(CASES);
  });

  it('selects by id and by pattern, always with the two normal verifications', () => {
    expect(selectCases(['wrong_nonce', 'par_*']).map((testCase) => testCase.id)).toEqual([
      'normal',
      'wrong_nonce',
      'par_server_error',
      'par_temporarily_unavailable',
      'par_invalid_request',
      'par_invalid_client',
      'normal_again',
    ]);
  });

  it('names a pattern that matches nothing, and the cases there are', () => {
    expect(() => selectCases(['wrong_nonse'])).toThrow(/no case matches 'wrong_nonse'; the cases are: normal, wrong_nonce/);
  });

  it('reads a pattern as text, not as a regular expression', () => {
    expect(() => selectCases(['wrong.nonce'])).toThrow(/no case matches/);
    expect(() => selectCases(['(.+)'])).toThrow(/no case matches/);
  });
});
