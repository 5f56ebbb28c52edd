import type { JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION, type ValidatedIdToken } from '@/lib/oidc';
import { buildChecks, type VerificationInput } from '@/lib/view/result-view';
import { TEST_BASE_URL, createTestEmulator } from '@/test/support/emulator';
import { signingCertificateOf, storedIdToken } from './verification';

describe('storedIdToken', () => {
  it('keeps the headers and claims a result shows, without verified_claims (kept parsed) and the signing key', () => {
    const validated: ValidatedIdToken = {
      jweHeader: { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'enc-1' },
      jwsHeader: { alg: 'ES256', kid: 'sig-1' },
      claims: { iss: 'https://idv.example', sub: 's', aud: 'c', exp: 2, iat: 1, nonce: 'n', acr: 'urn:x', verified_claims: { claims: { picture: 'data:image/jpeg;base64,AAAA' } } },
      signingKey: { kty: 'EC', kid: 'sig-1', x5c: ['MIIB…'] },
    };
    const stored = storedIdToken(validated);
    expect(stored).toEqual({
      jweHeader: validated.jweHeader,
      jwsHeader: validated.jwsHeader,
      claims: { iss: 'https://idv.example', sub: 's', aud: 'c', exp: 2, iat: 1, nonce: 'n', acr: 'urn:x' },
    });
    // The validated token itself is left as it was.
    expect(validated.claims.verified_claims).toBeDefined();
  });
});

/** The embedded emulator's JWKS after one rotation: two keys, each x5c = [its certificate, the CA]. */
async function rotatedEmulatorJwks(): Promise<Array<JWK & { kid: string; x5c: [string, string] }>> {
  const emulator = createTestEmulator({ clients: [], rateLimits: false });
  await emulator.control.rotateSigningKeys();
  const response = await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`));
  return ((await response.json()) as { keys: Array<JWK & { kid: string; x5c: [string, string] }> }).keys;
}

/** The result page's rows for the signing certificate, for a token signed by `signingKey`. */
async function certificateRows(signingKey: JWK & { kid: string }, trustAnchors: string[]) {
  const input: VerificationInput = {
    issuer: TEST_BASE_URL,
    clientId: 'c',
    selection: DEFAULT_SELECTION,
    verifiedClaims: [],
    idToken: { jweHeader: {}, jwsHeader: { alg: 'ES256', kid: signingKey.kid }, claims: {} },
    ...(await signingCertificateOf(signingKey, trustAnchors, new Date())),
  };
  return buildChecks(input, 'en').filter((check) => /certificate/i.test(check.label)).map(({ label, outcome }) => `${outcome}: ${label}`);
}

describe('signingCertificateOf: what the result page says of the signing certificate', () => {
  it('a JWKS entry whose x5c[0] is its own key’s certificate: key matches, chain not validated without IDV_TRUST_ANCHOR', async () => {
    const [current] = await rotatedEmulatorJwks();
    const { signingCertificate, signingCertificateCheck } = await signingCertificateOf(current!, [], new Date());
    expect(signingCertificate).toMatchObject({ subject: 'CN=IDV Emulator ID Token Signing', serialNumber: current!.kid });
    expect(signingCertificateCheck).toEqual({ key: 'matches', chain: { state: 'not_validated' } });
    expect(await certificateRows(current!, [])).toEqual(['passed: Signing key matches its certificate', 'not_checked: Certificate chain not validated']);
  });

  it('a JWKS entry whose x5c[0] carries another key than the JWK: key does NOT match, a failed check', async () => {
    const [current, previous] = await rotatedEmulatorJwks();
    const swapped = { ...current!, x5c: previous!.x5c };
    expect(await certificateRows(swapped, [])).toEqual(['failed: Signing key does NOT match its certificate', 'not_checked: Certificate chain not validated']);
  });

  it('with the emulator’s CA as IDV_TRUST_ANCHOR the chain is validated; with another emulator’s CA it is not valid', async () => {
    const [current] = await rotatedEmulatorJwks();
    const [other] = await rotatedEmulatorJwks();
    expect(await certificateRows(current!, [current!.x5c[1]])).toEqual(['passed: Signing key matches its certificate', 'passed: Certificate chain validated']);
    expect(await certificateRows(current!, [other!.x5c[1]])).toEqual(['passed: Signing key matches its certificate', 'failed: Certificate chain NOT valid']);
  });
});
