import { describe, expect, it } from 'vitest';
import { codeChallengeS256, generateCodeVerifier, generateNonce, generateState } from './pkce.ts';

describe('PKCE (RFC 7636)', () => {
  it('computes the S256 challenge of the RFC 7636 Appendix B example', async () => {
    await expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).resolves.toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes verifiers of 43 unreserved characters, different each time', () => {
    const a = generateCodeVerifier();
    expect(a).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
    expect(generateCodeVerifier()).not.toBe(a);
  });

  it('makes state and nonce of at least 32 random characters', () => {
    expect(generateState().length).toBeGreaterThanOrEqual(32);
    expect(generateNonce().length).toBeGreaterThanOrEqual(32);
    expect(generateState()).not.toBe(generateState());
  });
});
