import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestClient, createTestEmulator, type TestClient } from '@/test/support/emulator';
import { createEmulator, type Emulator } from '..';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

describe('GET /.well-known/openid-configuration', () => {
  it('describes exactly what the emulator enforces, cacheable for an hour', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const response = await emulator.handle(new Request(`${TEST_BASE_URL}/.well-known/openid-configuration`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await response.json()).toMatchObject({
      issuer: TEST_BASE_URL,
      authorization_endpoint: `${TEST_BASE_URL}/auth`,
      pushed_authorization_request_endpoint: `${TEST_BASE_URL}/par`,
      token_endpoint: `${TEST_BASE_URL}/token`,
      jwks_uri: `${TEST_BASE_URL}/jwks`,
      require_pushed_authorization_requests: true,
      require_signed_request_object: true,
      request_object_signing_alg_values_supported: ['ES256', 'PS256', 'EdDSA'],
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['ES256', 'PS256', 'EdDSA'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code'],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['openid'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['ES256'],
      id_token_encryption_alg_values_supported: ['RSA-OAEP-256', 'RSA-OAEP'],
      id_token_encryption_enc_values_supported: ['A128GCM', 'A192GCM', 'A256GCM', 'A128CBC-HS256', 'A192CBC-HS384', 'A256CBC-HS512'],
      claims_parameter_supported: true,
      authorization_response_iss_parameter_supported: true,
      verified_claims_supported: true,
      trust_frameworks_supported: ['standard', 'standard_etsi'],
      evidence_supported: ['document', 'electronic_record'],
      documents_supported: ['passport', 'idcard'],
      electronic_records_supported: ['population_register'],
      claims_in_verified_claims_supported: ['name', 'given_name', 'family_name', 'picture', 'gender', 'birthdate', 'nationalities'],
    });
  });

  it('is found under the base path whatever origin the request came through (a proxy)', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const response = await emulator.handle(new Request('http://10.0.0.7:8080/emulator/.well-known/openid-configuration'));
    expect(response.status).toBe(200);
    expect((await response.json()).issuer).toBe(TEST_BASE_URL);
  });
});

describe('discovery shapes and the flow URL (part 4: `{flow_url}/auth`; DECISIONS.md "Discovery")', () => {
  const discovery = async (emulator: Emulator) =>
    (await (await emulator.handle(new Request(`${TEST_BASE_URL}/.well-known/openid-configuration`))).json()) as Record<string, unknown>;

  it('advertises the authorization endpoint on the flow URL, another origin, and serves /auth there too', async () => {
    const flow = 'http://127.0.0.1:3999/emulator';
    const emulator = createTestEmulator({ flowBaseUrl: flow, clients: [client] });
    expect(await discovery(emulator)).toMatchObject({ authorization_endpoint: `${flow}/auth`, pushed_authorization_request_endpoint: `${TEST_BASE_URL}/par` });
    // Routed by path: the flow origin's requests reach the same handler (400: no request_uri, not 404).
    expect((await emulator.handle(new Request(`${flow}/auth`))).status).toBe(400);
    expect(() => createEmulator({ baseUrl: TEST_BASE_URL, flowBaseUrl: 'http://127.0.0.1:3999/flow', clients: [client.registered] })).toThrow(/same path/);
  });

  it('serves a minimal document without endpoints when QA switches to it, and the full one again', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    await emulator.control.setDiscoveryShape('minimal');
    expect(await discovery(emulator)).toEqual({
      issuer: TEST_BASE_URL,
      response_types_supported: ['code'],
      subject_types_supported: ['pairwise'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
    expect(await emulator.control.discoveryShape()).toBe('minimal');
    await emulator.control.setDiscoveryShape('full');
    expect(await discovery(emulator)).toHaveProperty('pushed_authorization_request_endpoint');
  });
});

describe('iss on the redirect switched off (RFC 9207 §3)', () => {
  const discovery = async (emulator: Emulator) =>
    (await (await emulator.handle(new Request(`${TEST_BASE_URL}/.well-known/openid-configuration`))).json()) as Record<string, unknown>;

  it('leaves authorization_response_iss_parameter_supported out of the full document, and advertises it again when switched on', async () => {
    const emulator = createTestEmulator({ clients: [client], redirectIss: false });
    const off = await discovery(emulator);
    expect(off).not.toHaveProperty('authorization_response_iss_parameter_supported');
    expect(off).toHaveProperty('pushed_authorization_request_endpoint');
    await emulator.control.setRedirectIss(true);
    expect(await discovery(emulator)).toHaveProperty('authorization_response_iss_parameter_supported', true);
  });
});

describe('discovery while the state store is out', () => {
  it('takes redirectIss from the option, as configured', async () => {
    const { MemoryStore } = await import('../../store/memory-store');
    const { StoreError } = await import('../../store/store');
    const store = new MemoryStore();
    const emulator = createTestEmulator({ clients: [client], store, redirectIss: false });
    await store.set('redirect-iss', true, 60);
    store.get = () => Promise.reject(new StoreError('store_unavailable', 'Redis did not answer', 5));
    const response = await emulator.handle(new Request(`${TEST_BASE_URL}/.well-known/openid-configuration`));
    expect(response.status).toBe(200);
    expect(await response.json()).not.toHaveProperty('authorization_response_iss_parameter_supported');
  });

  it('serves the full document, as before the QA switch existed, rather than a 503', async () => {
    const { MemoryStore } = await import('../../store/memory-store');
    const { StoreError } = await import('../../store/store');
    const store = new MemoryStore();
    const emulator = createTestEmulator({ clients: [client], store });
    store.get = () => Promise.reject(new StoreError('store_unavailable', 'Redis did not answer', 5));
    const response = await emulator.handle(new Request(`${TEST_BASE_URL}/.well-known/openid-configuration`));
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty('pushed_authorization_request_endpoint');
  });
});
