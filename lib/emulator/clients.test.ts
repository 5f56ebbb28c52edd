import type { JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, type TestClient } from '@/test/support/emulator';
import { checkRegisteredClients, logoSource, parseRegisteredClients, registeredIdTokenEncryption } from './clients';

let client: TestClient;
let signingKey: JWK;
let encryptionKey: JWK;

beforeAll(async () => {
  client = await createTestClient({ alg: 'PS256' });
  [signingKey, encryptionKey] = client.registered.jwks.keys as [JWK, JWK];
});

function asJson(overrides: Record<string, unknown> = {}, keys?: unknown[]) {
  return {
    client_id: 'demo-client',
    name: 'Demo',
    jwks: { keys: keys ?? [signingKey, encryptionKey] },
    redirect_uris: ['http://localhost:3000/auth/callback'],
    population_register: true,
    ...overrides,
  };
}

describe('parseRegisteredClients', () => {
  it('turns the snake_case JSON list into registered clients', () => {
    expect(parseRegisteredClients(JSON.stringify([asJson(), asJson({ client_id: 'second', name: undefined })]))).toEqual([
      {
        clientId: 'demo-client',
        name: 'Demo',
        jwks: { keys: [signingKey, encryptionKey] },
        redirectUris: ['http://localhost:3000/auth/callback'],
        populationRegister: true,
      },
      {
        clientId: 'second',
        jwks: { keys: [signingKey, encryptionKey] },
        redirectUris: ['http://localhost:3000/auth/callback'],
        populationRegister: true,
      },
    ]);
  });

  it.each([
    ['not JSON', () => '[{', /^not valid JSON: /],
    ['not an array', () => '{}', /^must be an array$/],
    [
      'a relative redirect URI',
      () => [asJson(), asJson({ client_id: 'b', redirect_uris: ['/cb'] })],
      /^\[1\]\.redirect_uris\[0\]: must be an absolute http\(s\) URL$/,
    ],
    ['a non-http redirect URI', () => [asJson({ redirect_uris: ['javascript:alert(1)'] })], /^\[0\]\.redirect_uris\[0\]: must be an absolute http\(s\) URL$/],
    [
      'a redirect URI with a fragment',
      () => [asJson({ redirect_uris: ['https://rp.example/cb#x'] })],
      /^\[0\]\.redirect_uris\[0\]: must not contain a fragment/,
    ],
    ['no redirect URIs', () => [asJson({ redirect_uris: [] })], /^\[0\]\.redirect_uris: must have at least 1 element/],
    ['a missing population_register', () => [asJson({ population_register: undefined })], /^\[0\]\.population_register: is required$/],
    ['a misspelt member', () => [{ ...asJson(), redirect_uri: 'x' }], /^\[0\]: has unknown member 'redirect_uri'$/],
    ['an empty client_id', () => [asJson({ client_id: '' })], /^\[0\]\.client_id: must be non-empty printable ASCII/],
    ['duplicate client ids', () => [asJson(), asJson()], /^\[1\]\.client_id: duplicates client id 'demo-client'$/],
    [
      'a private signing key',
      () => [asJson({}, [{ ...signingKey, d: 'AAAA' }, encryptionKey])],
      /^\[0\]\.jwks\.keys\[0\]: must be a public key; remove the private member 'd'$/,
    ],
    [
      'an RS256 signing key',
      () => [asJson({}, [{ ...signingKey, alg: 'RS256' }, encryptionKey])],
      /^\[0\]\.jwks\.keys\[0\]: alg 'RS256' is not supported for signing; use one of ES256, PS256, EdDSA$/,
    ],
    ['an ES256 alg on an RSA key', () => [asJson({}, [{ ...signingKey, alg: 'ES256' }, encryptionKey])], /kty 'EC' and crv 'P-256'/],
    ['a key without kid', () => [asJson({}, [{ ...signingKey, kid: undefined }, encryptionKey])], /^\[0\]\.jwks\.keys\[0\]\.kid: is required$/],
    ['no encryption key', () => [asJson({}, [signingKey])], /^\[0\]\.jwks\.keys: must contain exactly one encryption key \(use 'enc'\), found 0$/],
    ['two encryption keys', () => [asJson({}, [signingKey, encryptionKey, { ...encryptionKey, kid: 'enc-2' }])], /found 2/],
    ['no signing key', () => [asJson({}, [encryptionKey])], /^\[0\]\.jwks\.keys: must contain at least one signing key$/],
    ['an encryption key without use enc', () => [asJson({}, [signingKey, { ...encryptionKey, use: undefined }])], /encryption key must have use 'enc'/],
    ['duplicate kids', () => [asJson({}, [signingKey, { ...encryptionKey, kid: signingKey.kid }])], /^\[0\]\.jwks\.keys\[1\]\.kid: duplicates kid/],
    [
      'RSA1_5 as id_token_encrypted_response_alg',
      () => [asJson({ id_token_encrypted_response_alg: 'RSA1_5' })],
      /^\[0\]\.id_token_encrypted_response_alg: must be one of 'RSA-OAEP-256', 'RSA-OAEP'$/,
    ],
    [
      'an unknown id_token_encrypted_response_enc',
      () => [asJson({ id_token_encrypted_response_enc: 'A128CBC' })],
      /^\[0\]\.id_token_encrypted_response_enc: must be one of 'A128GCM', 'A192GCM', 'A256GCM', 'A128CBC-HS256', 'A192CBC-HS384', 'A256CBC-HS512'$/,
    ],
  ] as Array<[string, () => unknown, RegExp]>)('reports %s by path', (_name, input, message) => {
    const json = input();
    expect(() => parseRegisteredClients(typeof json === 'string' ? json : JSON.stringify(json))).toThrow(message);
  });
});

describe('key material', () => {
  it('refuses an RSA encryption key whose modulus only looks long enough, and an EC point off the curve', async () => {
    const [signing, encryption] = (await createTestClient()).registered.jwks.keys as [Record<string, unknown>, Record<string, unknown>];
    const register = (keys: unknown[]) =>
      parseRegisteredClients(JSON.stringify([{ client_id: 'c', redirect_uris: ['https://rp.example/cb'], population_register: false, jwks: { keys } }]));
    expect(() => register([signing, encryption])).not.toThrow();
    expect(() => register([signing, { ...encryption, n: 'A'.repeat(342) }])).toThrow(/at least 2048 bits|usable public key/);
    expect(() => register([{ ...signing, x: 'A'.repeat(43), y: 'A'.repeat(43) }, encryption])).toThrow(/usable public key/);
  });
});

describe('ID token encryption of a registration (spec 2.5; Dynamic Client Registration §2)', () => {
  it('reads id_token_encrypted_response_alg and _enc from the JSON form', () => {
    const [parsed] = parseRegisteredClients(
      JSON.stringify([asJson({ id_token_encrypted_response_alg: 'RSA-OAEP', id_token_encrypted_response_enc: 'A192GCM' })]),
    );
    expect(parsed).toMatchObject({ idTokenEncryptedResponseAlg: 'RSA-OAEP', idTokenEncryptedResponseEnc: 'A192GCM' });
    expect(registeredIdTokenEncryption(parsed!)).toEqual({ alg: 'RSA-OAEP', enc: 'A192GCM' });
  });

  it('defaults each member to the example of spec 2.5, RSA-OAEP-256 / A256GCM', () => {
    expect(registeredIdTokenEncryption(client.registered)).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
    expect(registeredIdTokenEncryption({ ...client.registered, idTokenEncryptedResponseAlg: 'RSA-OAEP' })).toEqual({ alg: 'RSA-OAEP', enc: 'A256GCM' });
    expect(registeredIdTokenEncryption({ ...client.registered, idTokenEncryptedResponseEnc: 'A128GCM' })).toEqual({ alg: 'RSA-OAEP-256', enc: 'A128GCM' });
  });

  it('refuses a variant it cannot issue in a registration passed in code', () => {
    expect(() => checkRegisteredClients([{ ...client.registered, idTokenEncryptedResponseAlg: 'ECDH-ES' as never }])).toThrow(
      /^clients\[0\]\.idTokenEncryptedResponseAlg: must be one of 'RSA-OAEP-256', 'RSA-OAEP'$/,
    );
  });
});

describe('logo_uri (RFC 7591 §2): the logo the pages show beside the client name', () => {
  const PNG = `data:image/png;base64,${Buffer.from('a small png').toString('base64')}`;

  it.each([
    ['an https URL', 'https://rp.example/logo.svg'],
    ['an http URL on localhost', 'http://localhost:3000/demo-logo'],
    ['an http URL on 127.0.0.1', 'http://127.0.0.1:3000/demo-logo'],
    ['an http URL on [::1]', 'http://[::1]:3000/demo-logo'],
    ['a base64 PNG data URI', PNG],
    ['a base64 WebP data URI of exactly 64 KiB', `data:image/webp;base64,${Buffer.alloc(64 * 1024).toString('base64')}`],
  ])('accepts %s, as logoUri', (_name, logo) => {
    expect(parseRegisteredClients(JSON.stringify([asJson({ logo_uri: logo })]))[0]!.logoUri).toBe(logo);
  });

  it.each([
    ['http on another host', 'http://rp.example/logo.png', /^\[0\]\.logo_uri: must be https \(http only on a loopback host/],
    ['a javascript: URI', 'javascript:alert(1)', /^\[0\]\.logo_uri: must be an https URL, an http URL on a loopback host, or a data:image URI$/],
    ['a relative URL', '/logo.png', /^\[0\]\.logo_uri: must be an https URL/],
    [
      'an SVG data URI (it may carry script)',
      'data:image/svg+xml;base64,PHN2Zz4=',
      /^\[0\]\.logo_uri: a data: logo must be data:image\/png, image\/jpeg or image\/webp, base64-encoded$/,
    ],
    ['a data URI that is not base64', 'data:image/png,rawbytes', /a data: logo must be data:image\/png/],
    [
      'a data URI over 64 KiB',
      `data:image/jpeg;base64,${Buffer.alloc(64 * 1024 + 1).toString('base64')}`,
      /^\[0\]\.logo_uri: a data: logo must be at most 64 KiB \(it has 65537 bytes\)$/,
    ],
    ['a URL with credentials', 'https://user:secret@rp.example/logo.png', /^\[0\]\.logo_uri: must not carry a user name or password$/],
  ])('refuses %s at start-up, by path', (_name, logo, message) => {
    expect(() => parseRegisteredClients(JSON.stringify([asJson({ logo_uri: logo })]))).toThrow(message);
  });

  it('checks a client passed in code by the same rules', () => {
    expect(() => checkRegisteredClients([{ ...client.registered, logoUri: 'http://rp.example/logo.png' }])).toThrow(/^clients\[0\]\.logoUri: must be https/);
    expect(checkRegisteredClients([{ ...client.registered, logoUri: PNG }])[0]!.logoUri).toBe(PNG);
  });

  it('gives the pages the one image source to allow: the logo’s origin, or data:', () => {
    expect(logoSource({ logoUri: 'https://cdn.rp.example:8443/brand/logo.png?v=2' })).toBe('https://cdn.rp.example:8443');
    expect(logoSource({ logoUri: PNG })).toBe('data:');
    expect(logoSource({})).toBeUndefined();
  });
});
