/**
 * Test fixtures: clients with real keys, the emulator a test runs against, signed JWTs built to
 * order, and the browser steps of a flow, for the emulator's tests and for relying-party tests
 * that run against the emulator.
 * Not used by the emulator itself.
 * @see spec 2.1, 2.2, 2.3, part 1 "Prerequisites for a client"
 */
import { constants, createDecipheriv, createHmac, createPrivateKey, privateDecrypt, timingSafeEqual, type JsonWebKey } from 'node:crypto';
import { CompactSign, base64url, exportJWK, generateKeyPair, type JWK } from 'jose';
import { createEmulator, type Emulator, type EmulatorOptions } from '@/lib/emulator';
import { s256CodeChallenge } from '@/lib/emulator/checks/pkce';
import type { RegisteredClient } from '@/lib/emulator/clients';
import { CLIENT_ASSERTION_TYPE, type ClientSigningAlgorithm, type IdTokenEncryption } from '@/lib/emulator/config';

export const TEST_BASE_URL = 'http://localhost:3000/emulator';

/** A registered client together with its private keys. */
export interface TestClient {
  clientId: string;
  redirectUri: string;
  registered: RegisteredClient;
  signingKey: { kid: string; alg: ClientSigningAlgorithm; privateKey: CryptoKey; privateJwk: JWK };
  encryptionKey: { kid: string; privateKey: CryptoKey; privateJwk: JWK };
}

/**
 * Generates a client: a signing key of `alg` and an RSA-OAEP-256 (2048-bit) encryption key;
 * `idTokenEncryption` registers the variant its ID tokens are encrypted with (default: none, so
 * RSA-OAEP-256 / A256GCM).
 */
export async function createTestClient(
  options: {
    clientId?: string;
    alg?: ClientSigningAlgorithm;
    redirectUri?: string;
    populationRegister?: boolean;
    idTokenEncryption?: IdTokenEncryption;
  } = {},
): Promise<TestClient> {
  const { clientId = 'demo-client', alg = 'ES256', redirectUri = 'http://localhost:3000/auth/callback' } = options;
  const signing = await generateKeyPair(alg, { extractable: true, ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}) });
  const encryption = await generateKeyPair('RSA-OAEP-256', { extractable: true, modulusLength: 2048 });
  const signingKid = `${clientId}-sig-${alg.toLowerCase()}`;
  const encryptionKid = `${clientId}-enc`;
  return {
    clientId,
    redirectUri,
    registered: {
      clientId,
      name: `Test client ${clientId}`,
      jwks: {
        keys: [
          { ...(await exportJWK(signing.publicKey)), kid: signingKid, alg, use: 'sig' },
          { ...(await exportJWK(encryption.publicKey)), kid: encryptionKid, alg: 'RSA-OAEP-256', use: 'enc' },
        ],
      },
      redirectUris: [redirectUri],
      populationRegister: options.populationRegister ?? false,
      ...(options.idTokenEncryption
        ? { idTokenEncryptedResponseAlg: options.idTokenEncryption.alg, idTokenEncryptedResponseEnc: options.idTokenEncryption.enc }
        : {}),
    },
    signingKey: { kid: signingKid, alg, privateKey: signing.privateKey, privateJwk: await exportJWK(signing.privateKey) },
    encryptionKey: { kid: encryptionKid, privateKey: encryption.privateKey, privateJwk: await exportJWK(encryption.privateKey) },
  };
}

/**
 * Signs `payload` with the client's signing key. The header is {alg, kid, typ: "JWT"} with
 * `header` merged over it; a member set to undefined is removed.
 */
export async function signAsClient(client: TestClient, payload: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const merged = Object.fromEntries(
    Object.entries({ alg: client.signingKey.alg, kid: client.signingKey.kid, typ: 'JWT', ...header }).filter(([, value]) => value !== undefined),
  );
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(merged as { alg: string }).sign(client.signingKey.privateKey);
}

/** An unsigned JWS (`alg: none`), built by hand since jose refuses to make one. */
export function unsignedJwt(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
  return `${encode(header)}.${encode(payload)}.`;
}

/** The four claims of 2.1, valid for 60 s from `now` (ms), with `claims` merged over them. */
export function clientAssertionClaims(
  client: TestClient,
  options: { now?: number; audience?: string; claims?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  return {
    iss: client.clientId,
    sub: client.clientId,
    aud: options.audience ?? TEST_BASE_URL,
    exp: now + 60,
    ...options.claims,
  };
}

/**
 * A claims request (2.3) for names, birthdate and document details, under `standard`, shaped as
 * the spec shapes it (accepted at the strict level too): each claim `{ "essential": boolean }`,
 * each document detail `null`, `issuer` an object of its members.
 */
export const BASIC_CLAIMS_REQUEST = {
  id_token: {
    verified_claims: {
      verification: {
        trust_framework: { value: 'standard' },
        evidence: [
          {
            type: { value: 'document' },
            document_details: { type: null, document_number: null, issuer: { country_code: null }, personal_number: null },
          },
        ],
      },
      claims: { given_name: { essential: true }, family_name: { essential: true }, birthdate: { essential: false } },
    },
  },
};

/** PKCE verifier (from 32 random bytes) and its S256 challenge. */
export async function createPkce(): Promise<{ codeVerifier: string; codeChallenge: string }> {
  const codeVerifier = base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
  return { codeVerifier, codeChallenge: await s256CodeChallenge(codeVerifier) };
}

/** The thirteen claims of 2.2, valid for 5 minutes, with `claims` merged over them. */
export function requestObjectClaims(
  client: TestClient,
  options: { now?: number; codeChallenge: string; claims?: Record<string, unknown> },
): Record<string, unknown> {
  return {
    iss: client.clientId,
    sub: client.clientId,
    aud: TEST_BASE_URL,
    exp: Math.floor((options.now ?? Date.now()) / 1000) + 300,
    client_id: client.clientId,
    response_type: 'code',
    redirect_uri: client.redirectUri,
    scope: 'openid',
    state: 'state-0123456789abcdef0123456789ab',
    nonce: 'nonce-0123456789abcdef0123456789ab',
    code_challenge: options.codeChallenge,
    code_challenge_method: 'S256',
    claims: BASIC_CLAIMS_REQUEST,
    ...options.claims,
  };
}

/** A urlencoded POST, as a relying party sends to PAR and the token endpoint. */
export function formPost(url: string, parameters: Record<string, string>): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(parameters).toString(),
  });
}

const lastAssertionExp = new WeakMap<TestClient, number>();

/**
 * Client authentication form parameters with a fresh assertion (5.1). With no `jti` allowed,
 * two EdDSA assertions (deterministic signatures) with the same `exp` are the same text, and the
 * second is refused as a replay; so `exp` is kept strictly increasing per client.
 */
export async function clientAuthentication(client: TestClient, now?: number): Promise<Record<string, string>> {
  const claims = clientAssertionClaims(client, { now });
  const exp = Math.max(claims.exp as number, (lastAssertionExp.get(client) ?? 0) + 1);
  lastAssertionExp.set(client, exp);
  return {
    client_id: client.clientId,
    client_assertion_type: CLIENT_ASSERTION_TYPE,
    client_assertion: await signAsClient(client, { ...claims, exp }),
  };
}

/**
 * Runs PAR (with a fresh PKCE pair) and opens the authorization page as a browser would: the
 * page, the ids its quick test form carries (`interaction`, and `browser`, the secret only this
 * page has), and what the client keeps for the token request.
 */
export async function openAuthorizationPage(
  emulator: Emulator,
  client: TestClient,
  options: { claims?: unknown; now?: number } = {},
): Promise<{ html: string; interaction: string; browser: string; codeVerifier: string; requestClaims: Record<string, unknown> }> {
  const { codeVerifier, codeChallenge } = await createPkce();
  const requestClaims = requestObjectClaims(client, {
    now: options.now,
    codeChallenge,
    claims: options.claims === undefined ? {} : { claims: options.claims },
  });
  const par = await emulator.handle(
    formPost(`${emulator.baseUrl}/par`, {
      ...(await clientAuthentication(client, options.now)),
      request: await signAsClient(client, requestClaims),
    }),
  );
  if (par.status !== 201) throw new Error(`PAR failed: ${par.status} ${await par.text()}`);
  const { request_uri: requestUri } = (await par.json()) as { request_uri: string };

  const query = new URLSearchParams({ client_id: client.clientId, request_uri: requestUri });
  const page = await emulator.handle(new Request(`${emulator.baseUrl}/auth?${query}`));
  const html = await page.text();
  const { interaction, browser } = authorizationPageFields(html);
  if (page.status !== 200 || !interaction || !browser) throw new Error(`authorization page failed: ${page.status}`);
  return { html, interaction, browser, codeVerifier, requestClaims };
}

/**
 * Opens the app from the QR code as a phone does: the first GET of the bare link binds this phone
 * to the verification and answers 303 to the same link with `device=<secret>`, which every later
 * request of the phone (links and form posts) carries. Returns the secret and that link.
 */
export async function openAppFromQrCode(emulator: Emulator, qrLink: string): Promise<{ device: string; location: string }> {
  const response = await emulator.handle(new Request(qrLink));
  const location = response.headers.get('location');
  const device = location ? new URL(location).searchParams.get('device') : null;
  if (response.status !== 303 || !location || !device) throw new Error(`opening the QR link failed: ${response.status}`);
  return { device, location };
}

/**
 * Runs PAR and the authorization page's quick test (GET and POST /auth) as a browser would, and
 * returns the redirect.
 * @param options.persona persona to approve as; `outcome: "cancel"` cancels instead
 */
export async function authorize(
  emulator: Emulator,
  client: TestClient,
  options: { persona?: string; outcome?: 'approve' | 'cancel'; claims?: unknown; now?: number } = {},
): Promise<{ redirect: URL; codeVerifier: string; requestClaims: Record<string, unknown> }> {
  const { interaction, browser, codeVerifier, requestClaims } = await openAuthorizationPage(emulator, client, options);
  const decision = await emulator.handle(
    formPost(`${emulator.baseUrl}/auth`, {
      interaction,
      browser,
      persona: options.persona ?? 'ingrid-haugen',
      outcome: options.outcome ?? 'approve',
    }),
  );
  const location = decision.headers.get('location');
  if (decision.status !== 303 || !location) throw new Error(`authorization decision failed: ${decision.status}`);
  return { redirect: new URL(location), codeVerifier, requestClaims };
}

/**
 * The browser's part: open the authorization page, submit its form (every hidden field, as a
 * browser would) deciding as a persona, and follow the redirect back: the callback's parameters.
 */
export async function approveInBrowser(
  emulator: Emulator,
  authorizationUrl: string,
  { persona = 'ingrid-haugen', outcome = 'approve' }: { persona?: string; outcome?: 'approve' | 'cancel' } = {},
): Promise<URLSearchParams> {
  const page = await emulator.handle(new Request(authorizationUrl));
  const form = (await page.text()).match(/<form\b[\s\S]*?<\/form>/g)?.find((markup) => markup.includes('name="interaction"'));
  const action = form && /action="([^"]+)"/.exec(form)?.[1];
  if (page.status !== 200 || !form || !action) throw new Error(`identity app page: ${page.status}`);
  const fields = new URLSearchParams();
  for (const input of form.match(/<input\b[^>]*>/g) ?? []) {
    const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(input)?.[1];
    if (attribute('type') === 'hidden') fields.set(attribute('name')!, attribute('value')!.replaceAll('&amp;', '&'));
  }
  fields.set('persona', persona);
  fields.set('outcome', outcome);
  const decision = await emulator.handle(
    new Request(new URL(action.replaceAll('&amp;', '&'), authorizationUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: fields,
    }),
  );
  const location = decision.headers.get('location');
  if (decision.status !== 303 || !location) throw new Error(`identity app decision: ${decision.status}`);
  return new URL(location).searchParams;
}

/**
 * Step 7 of part 1: redeems the code of an `authorize` redirect at POST /token with a fresh
 * client assertion, and returns the token endpoint's response as it is.
 */
export async function redeemCode(
  emulator: Emulator,
  client: TestClient,
  authorized: { redirect: URL; codeVerifier: string },
  options: { now?: number; signal?: AbortSignal } = {},
): Promise<Response> {
  const request = formPost(`${emulator.baseUrl}/token`, {
    ...(await clientAuthentication(client, options.now)),
    grant_type: 'authorization_code',
    code: authorized.redirect.searchParams.get('code') ?? '',
    code_verifier: authorized.codeVerifier,
    redirect_uri: client.redirectUri,
  });
  return emulator.handle(options.signal ? new Request(request, { signal: options.signal }) : request);
}

/**
 * The hidden fields of the authorization page's quick test form, as a browser submits them:
 * `interaction` (also in the QR code) and `browser` (the secret only this page has).
 */
export function authorizationPageFields(html: string): { interaction?: string; browser?: string } {
  return {
    interaction: /name="interaction" value="([^"]+)"/.exec(html)?.[1],
    browser: /name="browser" value="([^"]+)"/.exec(html)?.[1],
  };
}

/** Where a phone on the test network reaches the emulator: the base of the QR code's link. */
export const TEST_DEVICE_BASE_URL = 'http://192.168.1.20:3000/emulator';

/** What a test's emulator is made of: createEmulator's options, the base URL among them optional. */
export type TestEmulatorOptions = Omit<EmulatorOptions, 'baseUrl' | 'clients'> & {
  /** default TEST_BASE_URL */
  baseUrl?: string;
  /** test clients (their registrations are what is registered), or registrations as a host passes them */
  clients: readonly (TestClient | RegisteredClient)[];
};

/**
 * The emulator a test runs against: at TEST_BASE_URL, with `clients` registered and every other
 * option as given (`deviceBaseUrl: TEST_DEVICE_BASE_URL` for the app on a phone). Tests of
 * createEmulator's own options (its checks and defaults) call it directly.
 */
export function createTestEmulator({ baseUrl = TEST_BASE_URL, clients, ...options }: TestEmulatorOptions): Emulator {
  return createEmulator({ ...options, baseUrl, clients: clients.map((client) => ('registered' in client ? client.registered : client)) });
}

/**
 * Decrypts a compact JWE made with RSA1_5 / A128CBC-HS256 (RFC 7518 §4.2, §5.2.3), as no JOSE
 * library will any more: it proves that a token really is RSA1_5. Node refuses PKCS #1 v1.5
 * padding for private decryption (CVE-2023-46809), so the key is decrypted raw (RSA_NO_PADDING)
 * and the EME-PKCS1-v1_5 padding (0x00 0x02, at least 8 nonzero bytes, 0x00) checked and removed
 * here (RFC 8017 §7.2.2). The tag is checked before the content is decrypted.
 * @throws Error when the padding, the key length or the tag is wrong
 */
export function decryptRsa1_5Jwe(jwe: string, privateJwk: JWK): { header: Record<string, unknown>; plaintext: string } {
  const [encodedHeader, encryptedKey, iv, ciphertext, tag] = jwe.split('.').map((part, index) => (index === 0 ? part : Buffer.from(part, 'base64url'))) as [
    string,
    Buffer,
    Buffer,
    Buffer,
    Buffer,
  ];
  const header = JSON.parse(Buffer.from(encodedHeader, 'base64url').toString('utf8')) as Record<string, unknown>;
  const key = createPrivateKey({ key: privateJwk as JsonWebKey, format: 'jwk' });
  const block = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, encryptedKey);
  const separator = block.indexOf(0, 2);
  if (block[0] !== 0 || block[1] !== 2 || separator < 10 || block.subarray(2, separator).includes(0)) {
    throw new Error('the encrypted key is not EME-PKCS1-v1_5 padded');
  }
  const contentKey = block.subarray(separator + 1);
  if (contentKey.length !== 32) throw new Error(`A128CBC-HS256 needs a 32-byte key, not ${contentKey.length}`);
  const aad = Buffer.from(encodedHeader, 'ascii');
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length * 8));
  const expected = createHmac('sha256', contentKey.subarray(0, 16))
    .update(Buffer.concat([aad, iv, ciphertext, al]))
    .digest()
    .subarray(0, 16);
  if (tag.length !== 16 || !timingSafeEqual(tag, expected)) throw new Error('the authentication tag does not match');
  const decipher = createDecipheriv('aes-128-cbc', contentKey.subarray(16), iv);
  return { header, plaintext: Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8') };
}
