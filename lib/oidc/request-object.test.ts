import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildClaimsRequest, DEFAULT_SELECTION } from './claims-request.ts';
import { generateClientKeys, toPublicJwk, type GeneratedClientKeys } from './client-keys.ts';
import { codeChallengeS256, generateCodeVerifier, generateNonce, generateState } from './pkce.ts';
import { createRequestObject, REQUEST_OBJECT_LIFETIME_SECONDS, requestObjectClaims } from './request-object.ts';

const AUDIENCE = 'https://idv.example';
const NOW = Date.UTC(2026, 10, 23, 9, 30, 0);
let keys: GeneratedClientKeys;

beforeAll(async () => {
  keys = await generateClientKeys('ES256');
});

async function input() {
  return {
    client: { clientId: 'client-1', redirectUri: 'https://rp.example/auth/callback', signingKey: keys.signingKey },
    audience: AUDIENCE,
    state: generateState(),
    nonce: generateNonce(),
    codeChallenge: await codeChallengeS256(generateCodeVerifier()),
    claims: buildClaimsRequest(DEFAULT_SELECTION),
    now: NOW,
  };
}

describe('requestObjectClaims (2.2)', () => {
  it('has exactly the thirteen claims of 2.2, in its order, with the fixed values it prescribes', async () => {
    const values = await input();
    const claims = requestObjectClaims(values);
    expect(Object.keys(claims)).toEqual([
      'iss',
      'sub',
      'aud',
      'exp',
      'client_id',
      'response_type',
      'redirect_uri',
      'scope',
      'state',
      'nonce',
      'code_challenge',
      'code_challenge_method',
      'claims',
    ]);
    expect(claims).toEqual({
      iss: 'client-1',
      sub: 'client-1',
      aud: AUDIENCE,
      exp: NOW / 1000 + REQUEST_OBJECT_LIFETIME_SECONDS,
      client_id: 'client-1',
      response_type: 'code',
      redirect_uri: 'https://rp.example/auth/callback',
      scope: 'openid',
      state: values.state,
      nonce: values.nonce,
      code_challenge: values.codeChallenge,
      code_challenge_method: 'S256',
      claims: values.claims,
    });
  });

  it('adds ui_locales (OpenID Connect Core §3.1.2.1) last, only when asked for', async () => {
    const claims = requestObjectClaims({ ...(await input()), uiLocales: 'nb en' });
    expect(Object.keys(claims).at(-1)).toBe('ui_locales');
    expect(claims.ui_locales).toBe('nb en');
    expect(requestObjectClaims({ ...(await input()), uiLocales: '' })).not.toHaveProperty('ui_locales');
  });

  it('adds login_hint (OpenID Connect Core §3.1.2.1) only when asked for, after ui_locales', async () => {
    const claims = requestObjectClaims({ ...(await input()), uiLocales: 'nb en', loginHint: 'lars-eriksson' });
    expect(Object.keys(claims).slice(-2)).toEqual(['ui_locales', 'login_hint']);
    expect(claims.login_hint).toBe('lars-eriksson');
    expect(requestObjectClaims(await input())).not.toHaveProperty('login_hint');
    expect(requestObjectClaims({ ...(await input()), loginHint: '' })).not.toHaveProperty('login_hint');
  });

  it('needs no key: the picker previews the claims without one', async () => {
    const { client, ...rest } = await input();
    const claims = requestObjectClaims({ ...rest, client: { clientId: client.clientId, redirectUri: client.redirectUri } });
    expect(claims.iss).toBe('client-1');
  });

  it('expires five minutes after now, in whole seconds', async () => {
    const claims = requestObjectClaims({ ...(await input()), now: NOW + 999 });
    expect(claims.exp).toBe(Math.floor((NOW + 999) / 1000) + 300);
  });
});

describe('createRequestObject (2.2, 5.5)', () => {
  it('signs the claims with the client key, header exactly alg, kid and typ JWT', async () => {
    const values = await input();
    const jwt = await createRequestObject(values);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'ES256', kid: keys.signingKey.kid, typ: 'JWT' });
    const { payload } = await jwtVerify(jwt, await importJWK(toPublicJwk(keys.signingKey), 'ES256'), { currentDate: new Date(NOW) });
    expect(payload).toEqual(requestObjectClaims(values));
  });

  it('refuses a signing key whose alg the service does not accept, with invalid_client_key', async () => {
    const values = await input();
    const client = { ...values.client, signingKey: { ...values.client.signingKey, alg: 'RS256' as 'ES256' } };
    await expect(createRequestObject({ ...values, client })).rejects.toMatchObject({ code: 'invalid_client_key' });
  });
});
