import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CLIENT_ASSERTION_LIFETIME_SECONDS, CLIENT_ASSERTION_TYPE, clientAuthenticationParameters, createClientAssertion } from './client-assertion.ts';
import { generateClientKeys, toPublicJwk, type GeneratedClientKeys } from './client-keys.ts';
import type { ClientSigningAlgorithm } from './types.ts';

const AUDIENCE = 'https://idv.example';
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const keys: Partial<Record<ClientSigningAlgorithm, GeneratedClientKeys>> = {};

beforeAll(async () => {
  for (const alg of ['ES256', 'PS256', 'EdDSA'] as const) keys[alg] = await generateClientKeys(alg);
});

function client(alg: ClientSigningAlgorithm = 'ES256') {
  return { clientId: 'client-1', signingKey: keys[alg]!.signingKey, redirectUri: 'https://rp.example/auth/callback' };
}

describe('createClientAssertion (2.1)', () => {
  it.each(['ES256', 'PS256', 'EdDSA'] as const)('signs with %s and exactly alg, kid, typ in the header', async (alg) => {
    const assertion = await createClientAssertion({ client: client(alg), audience: AUDIENCE, now: NOW });
    const header = decodeProtectedHeader(assertion);
    expect(header).toEqual({ alg, kid: keys[alg]!.signingKey.kid, typ: 'JWT' });
    const publicKey = await importJWK(toPublicJwk(keys[alg]!.signingKey), alg);
    await expect(jwtVerify(assertion, publicKey, { currentDate: new Date(NOW) })).resolves.toBeDefined();
  });

  it('has exactly iss, sub, aud (the base URL as a string) and a short exp', async () => {
    const payload = decodeJwt(await createClientAssertion({ client: client(), audience: AUDIENCE, now: NOW }));
    expect(payload).toEqual({ iss: 'client-1', sub: 'client-1', aud: AUDIENCE, exp: Math.floor(NOW / 1000) + 60 });
  });

  it('is new for every request', async () => {
    const a = await clientAuthenticationParameters({ client: client(), audience: AUDIENCE, now: NOW });
    const b = await clientAuthenticationParameters({ client: client(), audience: AUDIENCE, now: NOW });
    expect(a.client_assertion_type).toBe(CLIENT_ASSERTION_TYPE);
    expect(a.client_assertion).not.toBe(b.client_assertion); // ES256 signatures are randomised
  });

  it('never repeats an EdDSA assertion, whose signatures are deterministic', async () => {
    const made = await Promise.all([1, 2, 3].map(() => createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now: NOW })));
    expect(new Set(made).size).toBe(3);
  });

  it('makes 1,000 distinct EdDSA assertions in ten seconds, each exp within the lifetime (no drift)', async () => {
    const made: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const now = NOW + i * 10;
      const assertion = await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now });
      const { exp } = decodeJwt(assertion);
      expect(exp! - now / 1000).toBeLessThanOrEqual(CLIENT_ASSERTION_LIFETIME_SECONDS);
      expect(exp! - now / 1000).toBeGreaterThan(CLIENT_ASSERTION_LIFETIME_SECONDS - 0.001);
      made.push(assertion);
    }
    expect(new Set(made).size).toBe(1000);
  });

  it('gives an EdDSA assertion an exp in whole microseconds, and an ES256 one in whole seconds', async () => {
    const { exp: eddsa } = decodeJwt(await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now: NOW + 20_000 }));
    expect(Number.isInteger(eddsa! * 1_000_000)).toBe(true);
    const { exp: es256 } = decodeJwt(await createClientAssertion({ client: client('ES256'), audience: AUDIENCE, now: NOW + 20_123 }));
    expect(es256).toBe(Math.floor((NOW + 20_123) / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS);
  });

  it('starts again from the clock when the clock goes back', async () => {
    await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now: NOW + 60_000 });
    const { exp } = decodeJwt(await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now: NOW + 30_000 }));
    expect(exp! - (NOW + 30_000) / 1000).toBeLessThanOrEqual(CLIENT_ASSERTION_LIFETIME_SECONDS);
  });

  it('never repeats an EdDSA assertion made by another copy of the module in the same process', async () => {
    const copies: (typeof import('./client-assertion.ts'))[] = [];
    for (let i = 0; i < 2; i++) {
      vi.resetModules();
      copies.push(await import('./client-assertion.ts'));
    }
    expect(copies[0]).not.toBe(copies[1]);
    const made = await Promise.all(
      Array.from({ length: 200 }, (_, i) => copies[i % 2]!.createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now: NOW + 90_000 })),
    );
    expect(new Set(made).size).toBe(200);
  });

  it('refuses a signing key with an algorithm the service does not accept', async () => {
    const bad = { ...client(), signingKey: { ...keys.ES256!.signingKey, alg: 'RS256' as ClientSigningAlgorithm } };
    await expect(createClientAssertion({ client: bad, audience: AUDIENCE })).rejects.toMatchObject({ code: 'invalid_client_key' });
  });
});
