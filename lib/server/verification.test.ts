import { decodeJwt, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  clientPublicJwks,
  DEFAULT_SELECTION,
  DiscoveryCache,
  generateClientKeys,
  JwksCache,
  startAuthorization,
  type FetchLike,
  type ValidatedIdToken,
} from '@/lib/oidc';
import { buildChecks, type VerificationInput } from '@/lib/view/result-view';
import { TEST_BASE_URL, createTestEmulator } from '@/test/support/emulator';
import { signingCertificateOf } from '@/lib/verification/signing-certificate';
import { requestExtras, storedIdToken } from './verification';

describe('storedIdToken', () => {
  it('keeps the headers and claims a result shows, without verified_claims (kept parsed) and the signing key', () => {
    const validated: ValidatedIdToken = {
      jweHeader: { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: 'enc-1' },
      jwsHeader: { alg: 'ES256', kid: 'sig-1' },
      claims: {
        iss: 'https://idv.example',
        sub: 's',
        aud: 'c',
        exp: 2,
        iat: 1,
        nonce: 'n',
        acr: 'urn:x',
        verified_claims: { claims: { picture: 'data:image/jpeg;base64,AAAA' } },
      },
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
  return buildChecks(input, 'en')
    .filter((check) => /certificate/i.test(check.label))
    .map(({ label, outcome }) => `${outcome}: ${label}`);
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

describe('requestExtras: login_hint for a preset’s persona, and ui_locales', () => {
  const lenient = { mode: 'emulator', uiLocales: { send: false, source: 'default' } } as const;

  it('hints the preset’s persona to the embedded emulator only, never to a real service', () => {
    expect(requestExtras({ locale: 'en', persona: 'lars-eriksson' }, lenient)).toEqual({ loginHint: 'lars-eriksson' });
    expect(requestExtras({ locale: 'en', persona: 'lars-eriksson' }, { ...lenient, mode: 'provider' })).toEqual({});
  });

  it('drops a persona the emulator does not have, and sends nothing without one', () => {
    expect(requestExtras({ locale: 'en', persona: 'nobody-here' }, lenient)).toEqual({});
    expect(requestExtras({ locale: 'en' }, lenient)).toEqual({});
  });

  it('asks for the person’s language first and English second, where IDV_UI_LOCALES allows', () => {
    const send = { ...lenient, uiLocales: { send: true, source: 'default' } } as const;
    expect(requestExtras({ locale: 'nb' }, send)).toEqual({ uiLocales: 'nb en' });
    expect(requestExtras({ locale: 'en' }, send)).toEqual({ uiLocales: 'en' });
  });

  it('the pushed request object carries login_hint in emulator mode, not in provider mode, and the emulator accepts the PAR', async () => {
    const keys = await generateClientKeys('ES256');
    const redirectUri = 'https://rp.test/auth/callback';
    const emulator = createTestEmulator({
      clients: [{ clientId: 'hint-client', jwks: clientPublicJwks(keys), redirectUris: [redirectUri], populationRegister: true }],
      rateLimits: false,
    });
    const pushed: URLSearchParams[] = [];
    const fetch: FetchLike = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.endsWith('/par')) pushed.push(new URLSearchParams(await request.clone().text()));
      return emulator.handle(request);
    };
    const rp = {
      issuer: TEST_BASE_URL,
      client: { clientId: 'hint-client', redirectUri, ...keys },
      discovery: new DiscoveryCache({ fetch, allowInsecureRequests: true }),
      jwks: new JwksCache({ fetch, allowInsecureRequests: true }),
      http: { fetch, allowInsecureRequests: true },
    };
    await startAuthorization(rp, DEFAULT_SELECTION, requestExtras({ locale: 'en', persona: 'amira-nilsen' }, lenient));
    await startAuthorization(rp, DEFAULT_SELECTION, requestExtras({ locale: 'en', persona: 'amira-nilsen' }, { ...lenient, mode: 'provider' }));
    expect(pushed.map((body) => decodeJwt(body.get('request')!).login_hint)).toEqual(['amira-nilsen', undefined]);
    // only in the signed request object: RFC 9126 §3, every authorization parameter is a claim of it
    expect(pushed[0]!.has('login_hint')).toBe(false);
  });
});
