import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, authorize, clientAuthentication, createTestClient, createTestEmulator, formPost, type TestClient } from '@/test/support/emulator';
import type { Emulator } from '..';

let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  client = await createTestClient();
  other = await createTestClient({ clientId: 'other-client', alg: 'EdDSA' });
});

function newEmulator(now?: () => number, options: { strict?: boolean } = {}): Emulator {
  return createTestEmulator({ clients: [client, other], now, ...options });
}

/** A code from a completed authorization, and a function to redeem it with changes. */
async function issuedCode(emulator: Emulator, now?: () => number) {
  const { redirect, codeVerifier } = await authorize(emulator, client, { now: now?.() });
  const code = redirect.searchParams.get('code')!;
  const redeem = async (changes: Record<string, string | undefined> = {}, as: TestClient = client) => {
    const parameters: Record<string, string | undefined> = {
      ...(await clientAuthentication(as, now?.())),
      grant_type: 'authorization_code',
      code,
      code_verifier: codeVerifier,
      redirect_uri: client.redirectUri,
      ...changes,
    };
    const defined = Object.fromEntries(Object.entries(parameters).filter(([, value]) => value !== undefined)) as Record<string, string>;
    return emulator.handle(formPost(`${TEST_BASE_URL}/token`, defined));
  };
  return { code, codeVerifier, redeem };
}

async function expectError(response: Response, status: number, error: string, description?: RegExp) {
  expect(response.status).toBe(status);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const body = await response.json();
  expect(body.error).toBe(error);
  if (description) expect(body.error_description).toMatch(description);
}

describe('POST /token (spec 4.3)', () => {
  it('answers 200 with the ID token and expires_in for a valid code', async () => {
    const { redeem } = await issuedCode(newEmulator());
    const response = await redeem();
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.expires_in).toBe(3600);
    expect(body.id_token.split('.')).toHaveLength(5);
  });

  it('at the default level, ignores form parameters beyond the seven of 4.3 (RFC 6749 §3.1)', async () => {
    const { redeem } = await issuedCode(newEmulator());
    expect((await redeem({ scope: 'openid', client_secret: 'unused' })).status).toBe(200);
  });

  it('at the strict level, refuses a form parameter beyond the seven of 4.3, naming it, and leaves the code unused', async () => {
    const { redeem } = await issuedCode(newEmulator(undefined, { strict: true }));
    const response = await redeem({ scope: 'openid' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description:
        "unexpected parameter(s) 'scope': spec 4.3 lists only client_id, client_assertion_type, client_assertion, grant_type, code, code_verifier, redirect_uri (strict level)",
    });
    expect((await redeem()).status).toBe(200);
  });

  it.each(['grant_type', 'code', 'code_verifier', 'redirect_uri'])('refuses a request without %s (400 invalid_request)', async (name) => {
    const { redeem } = await issuedCode(newEmulator());
    await expectError(await redeem({ [name]: undefined }), 400, 'invalid_request', new RegExp(`'${name}' is missing`));
  });

  it.each(['client_credentials', 'refresh_token', 'urn:ietf:params:oauth:grant-type:jwt-bearer'])(
    'refuses grant_type %s with unsupported_grant_type',
    async (grantType) => {
      const { redeem } = await issuedCode(newEmulator());
      await expectError(await redeem({ grant_type: grantType }), 400, 'unsupported_grant_type', /must be 'authorization_code'/);
    },
  );

  it.each([
    ['42 characters', 'a'.repeat(42)],
    ['129 characters', 'a'.repeat(129)],
    ['a character outside [A-Za-z0-9-._~]', `${'a'.repeat(42)}+`],
  ])('refuses a code_verifier of %s with invalid_request', async (_name, verifier) => {
    const { redeem } = await issuedCode(newEmulator());
    await expectError(await redeem({ code_verifier: verifier }), 400, 'invalid_request', /code_verifier must be 43 to 128 characters/);
  });

  it('refuses an unknown code with invalid_grant', async () => {
    const { redeem } = await issuedCode(newEmulator());
    await expectError(await redeem({ code: 'x'.repeat(43) }), 400, 'invalid_grant', /unknown or has expired/);
  });

  it('redeems a code once: the second presentation is invalid_grant', async () => {
    const { redeem } = await issuedCode(newEmulator());
    expect((await redeem()).status).toBe(200);
    await expectError(await redeem(), 400, 'invalid_grant', /already been used/);
  });

  it('refuses a code after its 60 s lifetime', async () => {
    let clock = Date.now();
    const { redeem } = await issuedCode(
      newEmulator(() => clock),
      () => clock,
    );
    clock += 60_000;
    await expectError(await redeem(), 400, 'invalid_grant', /unknown or has expired/);
  });

  it('accepts a code just before it expires', async () => {
    let clock = Date.now();
    const { redeem } = await issuedCode(
      newEmulator(() => clock),
      () => clock,
    );
    clock += 59_000;
    expect((await redeem()).status).toBe(200);
  });

  it('refuses a code issued to another client, and the code is then used up', async () => {
    const { redeem } = await issuedCode(newEmulator());
    await expectError(await redeem({}, other), 400, 'invalid_grant', /was not issued to client 'other-client'/);
    await expectError(await redeem(), 400, 'invalid_grant', /already been used/);
  });

  it('refuses a redirect_uri other than the request object one, and the code is then used up', async () => {
    const { redeem } = await issuedCode(newEmulator());
    await expectError(await redeem({ redirect_uri: 'http://localhost:3000/other' }), 400, 'invalid_grant', /redirect_uri does not match/);
    await expectError(await redeem(), 400, 'invalid_grant', /already been used/);
  });

  it('refuses a code_verifier that does not hash to the challenge, and the code is then used up', async () => {
    const { redeem } = await issuedCode(newEmulator());
    await expectError(await redeem({ code_verifier: 'b'.repeat(43) }), 400, 'invalid_grant', /code_verifier does not match/);
    await expectError(await redeem(), 400, 'invalid_grant', /already been used/);
  });

  it('does not consume the code when client authentication fails', async () => {
    const { redeem } = await issuedCode(newEmulator());
    await expectError(await redeem({ client_assertion: 'garbage' }), 401, 'invalid_client');
    expect((await redeem()).status).toBe(200);
  });

  it('refuses a form that is not application/x-www-form-urlencoded', async () => {
    const response = await newEmulator().handle(
      new Request(`${TEST_BASE_URL}/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ grant_type: 'authorization_code' }),
      }),
    );
    await expectError(response, 400, 'invalid_request', /Content-Type must be application\/x-www-form-urlencoded/);
  });
});
