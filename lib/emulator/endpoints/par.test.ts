import { beforeAll, describe, expect, it } from 'vitest';
import {
  BASIC_CLAIMS_REQUEST,
  TEST_BASE_URL,
  clientAuthentication,
  createPkce,
  createTestClient,
  createTestEmulator,
  formPost,
  requestObjectClaims,
  signAsClient,
  unsignedJwt,
  type TestClient,
} from '@/test/support/emulator';

let client: TestClient;
let entitled: TestClient;
let codeChallenge: string;

beforeAll(async () => {
  client = await createTestClient();
  entitled = await createTestClient({ clientId: 'entitled', alg: 'PS256', populationRegister: true });
  codeChallenge = (await createPkce()).codeChallenge;
});

const emulator = (options: { strict?: boolean } = {}) => createTestEmulator({ clients: [client, entitled], ...options });
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A PAR request whose request object has `claims` merged over valid ones (undefined removes one). */
async function pushWith(
  claims: Record<string, unknown>,
  options: { as?: TestClient; header?: Record<string, unknown>; form?: Record<string, string>; strict?: boolean } = {},
) {
  const as = options.as ?? client;
  const payload = Object.fromEntries(Object.entries(requestObjectClaims(as, { codeChallenge, claims })).filter(([, value]) => value !== undefined));
  return emulator({ strict: options.strict }).handle(
    formPost(`${TEST_BASE_URL}/par`, {
      ...(await clientAuthentication(as)),
      request: await signAsClient(as, payload, options.header),
      ...options.form,
    }),
  );
}

/** `claims.id_token.verified_claims` with `verification` and `claims` replaced. */
function verifiedClaims(verification: unknown, claims: unknown = { given_name: { essential: true } }) {
  return { claims: { id_token: { verified_claims: { verification, claims } } } };
}

const documentEvidence = (details: unknown) => ({ type: { value: 'document' }, document_details: details });
const registerEvidence = (record: Record<string, unknown> = {}) => ({
  type: { value: 'electronic_record' },
  record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' }, ...record },
});

describe('POST /par (spec 4.1, 2.4)', () => {
  it('answers 201 with a one-time urn request_uri valid for 600 s', async () => {
    const response = await pushWith({});
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await response.json();
    expect(body).toEqual({ request_uri: expect.any(String), expires_in: 600 });
    expect(body.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('at the default level, ignores request object claims beyond the thirteen of 2.2, unknown claim names and a claim requested as null', async () => {
    const response = await pushWith({
      iat: nowSeconds(),
      jti: 'abc',
      prompt: 'login',
      exp: nowSeconds() + 60.5,
      ...verifiedClaims({ trust_framework: { value: 'standard' } }, { given_name: null, shoe_size: { essential: true } }),
    });
    expect(response.status).toBe(201);
  });

  it('at the default level, ignores form parameters beyond the four of 4.1 (RFC 6749 §3.1)', async () => {
    expect((await pushWith({}, { form: { scope: 'openid', prompt: 'login' } })).status).toBe(201);
  });

  it('accepts population register evidence from an entitled client', async () => {
    const response = await pushWith(
      verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [registerEvidence({ personal_number: '14038726421' })] }),
      { as: entitled },
    );
    expect(response.status).toBe(201);
  });

  it.each(['client_id', 'client_assertion_type', 'client_assertion', 'request'])(
    'refuses a request whose %s is missing, empty or duplicated (400 invalid_request)',
    async (parameter) => {
      const auth = await clientAuthentication(client);
      const form: Record<string, string> = {
        ...auth,
        request: await signAsClient(client, requestObjectClaims(client, { codeChallenge })),
      };
      const withEmpty = new URLSearchParams({ ...form, [parameter]: '' });
      const withoutIt = new URLSearchParams(form);
      withoutIt.delete(parameter);
      const duplicated = new URLSearchParams(form);
      duplicated.append(parameter, form[parameter]!);
      for (const [body, description] of [
        [withoutIt, `required parameter '${parameter}' is missing`],
        [withEmpty, `required parameter '${parameter}' is empty`],
        [duplicated, `parameter '${parameter}' is included more than once`],
      ] as const) {
        const response = await emulator().handle(
          new Request(`${TEST_BASE_URL}/par`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: body.toString(),
          }),
        );
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ error: 'invalid_request', error_description: description });
      }
    },
  );

  it('refuses a pushed request_uri parameter (RFC 9126 §2.1)', async () => {
    const response = await pushWith({}, { form: { request_uri: 'urn:ietf:params:oauth:request_uri:x' } });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_request');
  });

  describe('request object (spec 2.2)', () => {
    it.each([
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
    ])('refuses a request object without %s (400 invalid_request)', async (claim) => {
      const response = await pushWith({ [claim]: undefined });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'invalid_request',
        error_description: `request object is missing required claim(s) '${claim}'`,
      });
    });

    const cases: Array<{
      name: string;
      claims?: Record<string, unknown>;
      header?: Record<string, unknown>;
      unsigned?: true;
      error?: string;
      status?: number;
      description: RegExp;
    }> = [
      { name: 'alg none', unsigned: true, description: /alg 'none' is not allowed/ },
      { name: 'a header without typ', header: { typ: undefined }, description: /exactly alg, kid and typ: missing 'typ'/ },
      { name: 'a fourth header member', header: { cty: 'JWT' }, description: /unexpected 'cty'/ },
      { name: 'an unregistered kid', header: { kid: 'unknown' }, description: /kid 'unknown' is not a registered signing key/ },
      { name: 'iss other than the client', claims: { iss: 'entitled' }, description: /claim 'iss' must be the client_id 'demo-client'/ },
      { name: 'sub other than the client', claims: { sub: 'x' }, description: /claim 'sub' must be the client_id/ },
      {
        name: 'client_id other than the authenticated client',
        claims: { client_id: 'entitled' },
        description: /claim 'client_id' must be the client_id 'demo-client'/,
      },
      { name: 'aud as an array', claims: { aud: [TEST_BASE_URL] }, description: /claim 'aud' must be a JSON string/ },
      { name: 'aud = the PAR endpoint', claims: { aud: `${TEST_BASE_URL}/par` }, description: /claim 'aud' must be the issuer/ },
      { name: 'exp as a string', claims: { exp: String(nowSeconds() + 60) }, description: /claim 'exp' must be a JSON number/ },
      { name: 'an expired request object', claims: { exp: nowSeconds() - 60 }, description: /has expired/ },
      { name: 'exp more than an hour ahead', claims: { exp: nowSeconds() + 3700 }, description: /more than 3600 seconds in the future/ },
      { name: 'nbf in the future', claims: { nbf: nowSeconds() + 120 }, description: /not valid yet/ },
      { name: 'exp exactly at the edge of the 30 s clock skew', claims: { exp: nowSeconds() - 30 }, description: /has expired/ },
      { name: 'nbf as a string', claims: { nbf: String(nowSeconds()) }, description: /claim 'nbf' must be a number/ },
      { name: "response_type 'code id_token'", claims: { response_type: 'code id_token' }, description: /'response_type' must be 'code'/ },
      {
        name: 'an unregistered redirect_uri',
        claims: { redirect_uri: 'https://attacker.example/cb' },
        description: /'redirect_uri' 'https:\/\/attacker.example\/cb' is not registered/,
      },
      {
        name: 'a redirect_uri differing by a trailing slash',
        claims: { redirect_uri: 'http://localhost:3000/auth/callback/' },
        description: /is not registered/,
      },
      { name: "scope 'openid profile'", claims: { scope: 'openid profile' }, error: 'invalid_scope', description: /'scope' must be 'openid'/ },
      { name: "scope 'email'", claims: { scope: 'email' }, error: 'invalid_scope', description: /'scope' must be 'openid'/ },
      { name: 'scope as an array', claims: { scope: ['openid'] }, description: /'scope' must be a JSON string/ },
      { name: 'an empty state', claims: { state: '' }, description: /'state' must be 1 to 512 characters/ },
      { name: 'a nonce over 512 characters', claims: { nonce: 'n'.repeat(513) }, description: /'nonce' must be 1 to 512 characters/ },
      { name: 'a nonce that is a number', claims: { nonce: 12345 }, description: /'nonce' must be a JSON string/ },
      { name: 'a 42-character code_challenge', claims: { code_challenge: 'a'.repeat(42) }, description: /'code_challenge' must be 43 base64url characters/ },
      { name: 'a padded code_challenge', claims: { code_challenge: `${'a'.repeat(42)}=` }, description: /'code_challenge' must be 43/ },
      { name: "code_challenge_method 'plain'", claims: { code_challenge_method: 'plain' }, description: /'code_challenge_method' must be 'S256'/ },
      { name: 'claims as an array', claims: { claims: [] }, description: /claim 'claims' must be a JSON object/ },
      { name: 'claims without id_token', claims: { claims: { userinfo: {} } }, description: /^request object claim claims.id_token: is required$/ },
      {
        name: 'id_token without verified_claims',
        claims: { claims: { id_token: { given_name: { essential: true } } } },
        description: /claims.id_token.verified_claims: is required/,
      },
      {
        name: 'verified_claims as an array',
        claims: { claims: { id_token: { verified_claims: [] } } },
        description: /claims.id_token.verified_claims: must be an object/,
      },
      {
        name: 'an unknown trust framework',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'eidas' } })),
        description: /verification.trust_framework.value: must be one of 'standard', 'standard_etsi'/,
      },
      {
        name: 'trust_framework as a string',
        ...withClaims(verifiedClaims({ trust_framework: 'standard' })),
        description: /verification.trust_framework: must be an object/,
      },
      {
        name: 'an empty evidence array',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [] })),
        description: /verification.evidence: must not be empty/,
      },
      {
        name: 'an unknown evidence type',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [{ type: { value: 'utility_bill' } }] })),
        description: /evidence\[0\].type.value: must be one of 'document', 'electronic_record'/,
      },
      {
        name: 'document evidence without document_details',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [{ type: { value: 'document' } }] })),
        description: /evidence\[0\].document_details: is required/,
      },
      {
        name: 'a document detail that is not null',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [documentEvidence({ document_number: { essential: true } })] })),
        description: /evidence\[0\].document_details.document_number: must be null/,
      },
      {
        name: 'an issuer member that is not null',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [documentEvidence({ issuer: { name: 'x' } })] })),
        description: /document_details.issuer.name: must be null/,
      },
      {
        name: 'a record from another source',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [registerEvidence({ source: { name: 'Skatteetaten' } })] })),
        description: /record.source.name: must be 'Folkeregisteret'/,
      },
      {
        name: 'a record of another type',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [registerEvidence({ type: { value: 'bank_account' } })] })),
        description: /record.type.value: must be 'population_register'/,
      },
      {
        name: 'a 10-digit record.personal_number',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [registerEvidence({ personal_number: '1403872642' })] })),
        description: /record.personal_number: must be an 11-digit Norwegian national number/,
      },
      {
        name: 'a 12-digit record.personal_number',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [registerEvidence({ personal_number: '140387264211' })] })),
        description: /record.personal_number: must be an 11-digit Norwegian national number/,
      },
      {
        name: 'a record.personal_number with a letter before its 11 digits',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [registerEvidence({ personal_number: 'x14038726421' })] })),
        description: /record.personal_number: must be an 11-digit Norwegian national number/,
      },
      {
        name: 'two document evidence elements',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [documentEvidence({}), documentEvidence({})] })),
        description: /evidence\[1\]: requests 'document' evidence twice/,
      },
      {
        name: 'a claim requested with a non-boolean essential',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' } }, { birthdate: { essential: 'yes' } })),
        description: /claims.birthdate.essential: must be a boolean/,
      },
      {
        name: 'a claim requested as a string',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' } }, { birthdate: 'please' })),
        description: /claims.birthdate: must be an object/,
      },
      {
        name: 'standard_etsi without family_name',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard_etsi' } }, { given_name: { essential: true }, birthdate: { essential: true } })),
        description: /standard_etsi trust framework requires given_name and family_name/,
      },
      {
        name: 'standard_etsi without any claims',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard_etsi' }, evidence: [documentEvidence({ type: null })] }, {})),
        description: /standard_etsi/,
      },
      {
        name: 'population register evidence from a client without the entitlement',
        ...withClaims(verifiedClaims({ trust_framework: { value: 'standard' }, evidence: [registerEvidence()] })),
        error: 'unauthorized_client',
        status: 403,
        description: /not entitled to electronic_record evidence/,
      },
    ];

    it.each(cases)('refuses $name', async ({ claims = {}, header, unsigned, error = 'invalid_request', status = 400, description }) => {
      const response = unsigned
        ? await emulator().handle(
            formPost(`${TEST_BASE_URL}/par`, {
              ...(await clientAuthentication(client)),
              request: unsignedJwt({ alg: 'none', typ: 'JWT' }, requestObjectClaims(client, { codeChallenge })),
            }),
          )
        : await pushWith(claims, { header });
      expect(response.status).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.json();
      expect(body.error).toBe(error);
      expect(body.error_description).toMatch(description);
    });

    it('accepts what lies just inside its bounds: nbf 30 s ahead (the clock skew), a state and a nonce of 512 characters', async () => {
      expect((await pushWith({ nbf: nowSeconds() + 30 })).status).toBe(201);
      expect((await pushWith({ state: 's'.repeat(512), nonce: 'n'.repeat(512) })).status).toBe(201);
    });

    it('accepts standard_etsi when given_name and family_name are requested', async () => {
      const response = await pushWith(
        verifiedClaims({ trust_framework: { value: 'standard_etsi' } }, { given_name: { essential: true }, family_name: { essential: false } }),
      );
      expect(response.status).toBe(201);
    });

    it('accepts the example claims request of the test fixtures unchanged, at both levels', async () => {
      expect((await pushWith({ claims: BASIC_CLAIMS_REQUEST })).status).toBe(201);
      expect((await pushWith({ claims: BASIC_CLAIMS_REQUEST }, { strict: true })).status).toBe(201);
    });
  });

  describe('at the strict level (DECISIONS.md "Levels"): the letter of the spec', () => {
    it('accepts a request shaped as the spec shapes it: the four parameters, the thirteen claims, exp in whole seconds', async () => {
      const response = await pushWith(
        verifiedClaims(
          { trust_framework: { value: 'standard' }, evidence: [documentEvidence({ type: null, issuer: { country_code: null } }), registerEvidence()] },
          { given_name: { essential: true }, birthdate: { essential: false } },
        ),
        { as: entitled, strict: true },
      );
      expect(response.status).toBe(201);
    });

    it.each([
      ['ui_locales', { ui_locales: 'nb en' }, "'ui_locales'"],
      ['nbf', { nbf: nowSeconds() - 10 }, "'nbf'"],
      ['iat', { iat: nowSeconds() }, "'iat'"],
      ['jti', { jti: 'abc' }, "'jti'"],
      ['two unknown claims', { prompt: 'login', max_age: 0 }, "'prompt', 'max_age'"],
    ])('refuses a request object with %s beyond the thirteen claims of 2.2, naming them', async (_name, extra, named) => {
      const response = await pushWith(extra, { strict: true });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'invalid_request',
        error_description: `request object has claim(s) ${named} that spec 2.2 does not list; it has exactly the thirteen of its table (strict level)`,
      });
      // The default level takes the same request object.
      expect((await pushWith(extra)).status).toBe(201);
    });

    it('refuses an exp that is not a whole number of seconds (spec 2.2: Unix timestamp)', async () => {
      const exp = nowSeconds() + 60.5;
      const response = await pushWith({ exp }, { strict: true });
      expect(response.status).toBe(400);
      expect((await response.json()).error_description).toBe(
        `request object claim 'exp' must be a whole number of seconds (spec 2.2: Unix timestamp), not ${exp} (strict level)`,
      );
    });

    it('refuses a form parameter beyond the four of 4.1, naming it', async () => {
      const response = await pushWith({}, { strict: true, form: { scope: 'openid' } });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'invalid_request',
        error_description: "unexpected parameter(s) 'scope': spec 4.1 lists only client_id, client_assertion_type, client_assertion, request (strict level)",
      });
    });

    it('refuses a claims request shaped otherwise than 2.3 shapes it, naming the path', async () => {
      const response = await pushWith(verifiedClaims({ trust_framework: { value: 'standard' } }, { given_name: null }), { strict: true });
      expect(response.status).toBe(400);
      expect((await response.json()).error_description).toBe('request object claim claims.id_token.verified_claims.claims.given_name: must be an object');
    });

    it('follows the level QA switches to at run time (control setStrict), for the next request', async () => {
      const running = emulator();
      const push = async () =>
        running.handle(
          formPost(`${TEST_BASE_URL}/par`, {
            ...(await clientAuthentication(client)),
            request: await signAsClient(client, { ...requestObjectClaims(client, { codeChallenge }), jti: 'abc' }),
          }),
        );
      expect((await push()).status).toBe(201);
      await running.control.setStrict(true);
      expect((await push()).status).toBe(400);
      await running.control.setStrict(false);
      expect((await push()).status).toBe(201);
    });
  });
});

describe('login_hint at PAR (OpenID Connect Core §3.1.2.1; DECISIONS.md "A persona suggested by the relying party")', () => {
  /**
   * The persona the authorization page of an accepted PAR pre-selects, and the one it says the
   * client suggested: what the flow kept of its login_hint.
   */
  async function kept(response: Response, running: ReturnType<typeof emulator>): Promise<{ checked?: string; suggested?: string }> {
    expect(response.status).toBe(201);
    const { request_uri: requestUri } = (await response.json()) as { request_uri: string };
    const page = await running.handle(new Request(`${TEST_BASE_URL}/auth?${new URLSearchParams({ client_id: client.clientId, request_uri: requestUri })}`));
    const html = await page.text();
    const checked = /<input type="radio" name="persona" value="([a-z-]+)" checked>/.exec(html)?.[1];
    const suggested = /value="([a-z-]+)" checked>(?:(?!<\/label>)[\s\S])*data-testid="suggested-persona"/.exec(html)?.[1];
    return { checked, suggested };
  }

  it.each([false, true])('takes a login_hint claim in the request object and keeps it with the request (strict level: %s)', async (strict) => {
    const running = emulator({ strict });
    const response = await running.handle(
      formPost(`${TEST_BASE_URL}/par`, {
        ...(await clientAuthentication(client)),
        request: await signAsClient(client, requestObjectClaims(client, { codeChallenge, claims: { login_hint: 'lars-eriksson' } })),
      }),
    );
    expect(await kept(response, running)).toEqual({ checked: 'lars-eriksson', suggested: 'lars-eriksson' });
  });

  it.each([false, true])('takes a login_hint form parameter beside the request object (strict level: %s); the request object’s wins', async (strict) => {
    const running = emulator({ strict });
    const push = async (claims: Record<string, unknown>) =>
      running.handle(
        formPost(`${TEST_BASE_URL}/par`, {
          ...(await clientAuthentication(client)),
          request: await signAsClient(client, requestObjectClaims(client, { codeChallenge, claims })),
          login_hint: 'sofia-costa',
        }),
      );
    expect(await kept(await push({}), running)).toEqual({ checked: 'sofia-costa', suggested: 'sofia-costa' });
    expect(await kept(await push({ login_hint: 'lars-eriksson' }), running)).toEqual({ checked: 'lars-eriksson', suggested: 'lars-eriksson' });
  });

  it('takes a hint that names no persona without complaint (a hint, never an error): the first persona stays selected', async () => {
    const running = emulator({ strict: true });
    const response = await running.handle(
      formPost(`${TEST_BASE_URL}/par`, {
        ...(await clientAuthentication(client)),
        request: await signAsClient(client, requestObjectClaims(client, { codeChallenge, claims: { login_hint: 'someone@rp.example' } })),
      }),
    );
    expect(await kept(response, running)).toEqual({ checked: 'ingrid-haugen', suggested: undefined });
  });

  it.each([
    ['a number', { login_hint: 42 }, "request object claim 'login_hint' must be a string, not 42"],
    ['an object', { login_hint: { persona: 'x' } }, "request object claim 'login_hint' must be a string, not an object"],
    ['257 characters', { login_hint: 'x'.repeat(257) }, "request object claim 'login_hint' must be at most 256 characters"],
    ['a control character', { login_hint: 'lars\neriksson' }, "request object claim 'login_hint' must not contain control characters"],
  ])('refuses a login_hint claim that is %s, at both levels', async (_name, claims, description) => {
    for (const strict of [false, true]) {
      const response = await pushWith(claims, { strict });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_request', error_description: description });
    }
  });

  it('refuses a login_hint form parameter of more than 256 characters', async () => {
    const response = await pushWith({}, { form: { login_hint: 'y'.repeat(257) } });
    expect(response.status).toBe(400);
    expect((await response.json()).error_description).toBe("parameter 'login_hint' must be at most 256 characters");
  });

  it('still refuses every other form parameter at the strict level, naming only the spec’s four as listed', async () => {
    const response = await pushWith({}, { strict: true, form: { login_hint: 'lars-eriksson', prompt: 'login' } });
    expect(response.status).toBe(400);
    expect((await response.json()).error_description).toBe(
      "unexpected parameter(s) 'prompt': spec 4.1 lists only client_id, client_assertion_type, client_assertion, request (strict level)",
    );
  });
});

function withClaims(claims: Record<string, unknown>) {
  return { claims };
}
