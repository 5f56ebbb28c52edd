import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ASSERTION_TYPE, clientAuthenticationParameters, createClientAssertion } from './client-assertion.ts';
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

  it('refuses a signing key with an algorithm the service does not accept', async () => {
    const bad = { ...client(), signingKey: { ...keys.ES256!.signingKey, alg: 'RS256' as ClientSigningAlgorithm } };
    await expect(createClientAssertion({ client: bad, audience: AUDIENCE })).rejects.toMatchObject({ code: 'invalid_client_key' });
  });
});
