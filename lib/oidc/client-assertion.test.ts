import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CLIENT_ASSERTION_LIFETIME_SECONDS,
  CLIENT_ASSERTION_TYPE,
  clientAuthenticationParameters,
  createClientAssertion,
  EDDSA_ASSERTION_BURST,
  EDDSA_ASSERTION_MIN_REMAINING_SECONDS,
  type ExpAllocator,
} from './client-assertion.ts';
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

  it.each(['ES256', 'PS256', 'EdDSA'] as const)('gives a %s assertion an exp in whole seconds (2.1: a Unix timestamp), within its lifetime', async (alg) => {
    for (const offset of [0, 123, 999, 1_000, 59_500]) {
      const now = NOW + 500_000 + offset;
      const { exp } = decodeJwt(await createClientAssertion({ client: client(alg), audience: AUDIENCE, now }));
      expect(Number.isInteger(exp)).toBe(true);
      expect(exp! - now / 1000).toBeLessThanOrEqual(CLIENT_ASSERTION_LIFETIME_SECONDS);
      expect(exp! - now / 1000).toBeGreaterThan(EDDSA_ASSERTION_MIN_REMAINING_SECONDS);
    }
  });

  it('gives a burst of 60 EdDSA assertions distinct exps within the lifetime, and refuses the rest with client_assertion_rate_exceeded', async () => {
    // Not on a whole second: the lifetime is counted from now, not from the second now is in.
    const now = NOW + 1_000_250;
    const made: { exp: number; assertion: string }[] = [];
    const refused: unknown[] = [];
    for (let i = 0; i < 60; i++) {
      await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now }).then(
        (assertion) => made.push({ exp: decodeJwt(assertion).exp!, assertion }),
        (error: unknown) => refused.push(error),
      );
    }
    const exps = made.map(({ exp }) => exp);
    expect(new Set(exps).size).toBe(exps.length);
    expect(new Set(made.map(({ assertion }) => assertion)).size).toBe(made.length);
    for (const exp of exps) {
      expect(exp).toBeLessThanOrEqual(now / 1000 + CLIENT_ASSERTION_LIFETIME_SECONDS);
      expect(exp - now / 1000).toBeGreaterThan(30);
    }
    expect(made).toHaveLength(30);
    expect(EDDSA_ASSERTION_BURST).toBe(30);
    // The latest free second first: each assertion keeps as much of its lifetime as it can.
    const latest = Math.floor(now / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS;
    expect(exps).toEqual(Array.from({ length: EDDSA_ASSERTION_BURST }, (_, i) => latest - i));
    // The first refusal is the one after the burst, and every refusal has the stable code.
    expect(refused).toHaveLength(60 - EDDSA_ASSERTION_BURST);
    for (const error of refused) expect(error).toMatchObject({ code: 'client_assertion_rate_exceeded', cause: { kid: keys.EdDSA!.signingKey.kid } });
  });

  it('serves an EdDSA key again once the clock brings the next second into reach, and holds up no other key meanwhile', async () => {
    const now = NOW + 2_000_000;
    for (let i = 0; i < EDDSA_ASSERTION_BURST; i++) await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now });
    await expect(createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now })).rejects.toMatchObject({
      code: 'client_assertion_rate_exceeded',
    });
    // Another key is not held up by this one.
    const other = { ...client('EdDSA'), signingKey: { ...keys.EdDSA!.signingKey, kid: 'another-ed25519-key' } };
    await expect(createClientAssertion({ client: other, audience: AUDIENCE, now })).resolves.toBeTypeOf('string');
    // One second later one more second is free: the sustained rate is one per second.
    const { exp } = decodeJwt(await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now: now + 1_000 }));
    expect(exp).toBe(Math.floor(now / 1000) + 1 + CLIENT_ASSERTION_LIFETIME_SECONDS);
    await expect(createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now: now + 1_000 })).rejects.toMatchObject({
      code: 'client_assertion_rate_exceeded',
    });
  });

  it('claims each EdDSA exp second from the allocator it is given, the latest first, and takes the first it is granted', async () => {
    const now = NOW + 7_000_000;
    const latest = Math.floor(now / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS;
    const asked: [string, number][] = [];
    // Another instance holds the five latest seconds.
    const shared: ExpAllocator = { claimExp: async (kid, second) => (asked.push([kid, second]), second <= latest - 5) };
    const { exp } = decodeJwt(await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now, expAllocator: shared }));
    expect(exp).toBe(latest - 5);
    const kid = keys.EdDSA!.signingKey.kid;
    expect(asked).toEqual([0, 1, 2, 3, 4, 5].map((below) => [kid, latest - below]));
    // An allocator that grants nothing: refused after asking for every second within reach, none above it.
    asked.length = 0;
    const none: ExpAllocator = { claimExp: async (claimedKid, second) => (asked.push([claimedKid, second]), false) };
    await expect(createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now, expAllocator: none })).rejects.toMatchObject({
      code: 'client_assertion_rate_exceeded',
    });
    expect(asked.map(([, second]) => second)).toEqual(Array.from({ length: EDDSA_ASSERTION_BURST }, (_, i) => latest - i));
    // An allocator that cannot answer: its error, as it is.
    const down: ExpAllocator = { claimExp: async () => Promise.reject(new Error('store unavailable')) };
    await expect(createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now, expAllocator: down })).rejects.toThrow('store unavailable');
    // ES256 and PS256 signatures are randomised: they claim nothing.
    asked.length = 0;
    await createClientAssertion({ client: client('ES256'), audience: AUDIENCE, now, expAllocator: none });
    expect(asked).toEqual([]);
  });

  it('serves one EdDSA assertion per second for as long as it is asked, never drifting ahead', async () => {
    const made: string[] = [];
    for (let i = 0; i < 600; i++) {
      const now = NOW + 3_000_000 + i * 1_000;
      const assertion = await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now });
      expect(decodeJwt(assertion).exp).toBe(Math.floor(now / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS);
      made.push(assertion);
    }
    expect(new Set(made).size).toBe(600);
  });

  it('gives an ES256 assertion the nominal exp however many are made in one second (its signatures are randomised)', async () => {
    const now = NOW + 20_123;
    for (let i = 0; i < 3; i++) {
      const { exp } = decodeJwt(await createClientAssertion({ client: client('ES256'), audience: AUDIENCE, now }));
      expect(exp).toBe(Math.floor(now / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS);
    }
  });

  it('starts again from the clock when the clock goes back', async () => {
    await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now: NOW + 4_000_000 });
    const now = NOW + 4_000_000 - 600_000;
    const { exp } = decodeJwt(await createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now }));
    expect(exp).toBe(Math.floor(now / 1000) + CLIENT_ASSERTION_LIFETIME_SECONDS);
  });

  it('never repeats an EdDSA assertion made by another copy of the module in the same process', async () => {
    const copies: (typeof import('./client-assertion.ts'))[] = [];
    for (let i = 0; i < 2; i++) {
      vi.resetModules();
      copies.push(await import('./client-assertion.ts'));
    }
    expect(copies[0]).not.toBe(copies[1]);
    const made = await Promise.all(
      Array.from({ length: EDDSA_ASSERTION_BURST }, (_, i) =>
        copies[i % 2]!.createClientAssertion({ client: client('EdDSA'), audience: AUDIENCE, now: NOW + 90_000 }),
      ),
    );
    expect(new Set(made).size).toBe(EDDSA_ASSERTION_BURST);
  });

  it('refuses a signing key with an algorithm the service does not accept', async () => {
    const bad = { ...client(), signingKey: { ...keys.ES256!.signingKey, alg: 'RS256' as ClientSigningAlgorithm } };
    await expect(createClientAssertion({ client: bad, audience: AUDIENCE })).rejects.toMatchObject({ code: 'invalid_client_key' });
  });
});
