import { describe, expect, it } from 'vitest';
import { validateAuthorizationResponse } from './callback.ts';

const ISSUER = 'https://idv.example';
const STATE = 'state-of-at-least-thirty-two-characters';

function check(query: string, { expectedState = STATE as string | undefined, requireIss = false } = {}) {
  return () => validateAuthorizationResponse(new URLSearchParams(query), { issuer: ISSUER, expectedState, requireIss });
}

/** a callback for which this browser has no pending authorization */
function checkWithoutPending(query: string) {
  return () => validateAuthorizationResponse(new URLSearchParams(query), { issuer: ISSUER, expectedState: undefined });
}

describe('validateAuthorizationResponse (4.2, RFC 9207)', () => {
  it('returns the code of a response with matching state and issuer', () => {
    expect(check(`code=abc&state=${STATE}&iss=${encodeURIComponent(ISSUER)}`)()).toEqual({ code: 'abc' });
    expect(check(`code=abc&state=${STATE}`)()).toEqual({ code: 'abc' });
  });

  it('checks iss first: another issuer is refused even with a matching state', () => {
    expect(check(`code=abc&state=${STATE}&iss=https://evil.example`)).toThrow(expect.objectContaining({ code: 'callback_issuer_mismatch' }));
    expect(check('error=access_denied&iss=https://evil.example')).toThrow(expect.objectContaining({ code: 'callback_issuer_mismatch' }));
  });

  it('requires iss when the service promised it', () => {
    expect(check(`code=abc&state=${STATE}`, { requireIss: true })).toThrow(expect.objectContaining({ code: 'callback_issuer_mismatch' }));
  });

  it('checks state before error, so a forged error is not shown', () => {
    expect(check('error=access_denied')).toThrow(expect.objectContaining({ code: 'state_missing' }));
    expect(check('error=access_denied&state=forged')).toThrow(expect.objectContaining({ code: 'state_mismatch' }));
    expect(checkWithoutPending(`code=abc&state=${STATE}`)).toThrow(expect.objectContaining({ code: 'state_mismatch' }));
  });

  it('surfaces the service’s error once the state matched', () => {
    expect(check(`error=access_denied&error_description=Cancelled&state=${STATE}`)).toThrow(
      expect.objectContaining({ code: 'access_denied', cause: expect.objectContaining({ description: 'Cancelled' }) }),
    );
  });

  it('refuses a response that repeats any of iss, state, code or error, naming it: which value would we trust?', () => {
    const iss = `iss=${encodeURIComponent(ISSUER)}`;
    for (const [name, query] of [
      ['code', `code=abc&code=def&state=${STATE}`],
      ['state', `code=abc&state=${STATE}&state=${STATE}`],
      ['iss', `code=abc&state=${STATE}&${iss}&${iss}`],
      ['error', `error=access_denied&error=server_error&state=${STATE}`],
    ] as const) {
      expect(check(query), name).toThrow(expect.objectContaining({ code: 'invalid_response', cause: { claim: name } }));
    }
  });

  it('refuses a response with neither code nor error', () => {
    expect(check(`state=${STATE}`)).toThrow(expect.objectContaining({ code: 'code_missing' }));
  });
});
