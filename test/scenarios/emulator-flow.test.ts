import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compactDecrypt, createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import { TEST_BASE_URL, authorize, clientAuthentication, createTestClient, createTestEmulator, formPost, type TestClient } from '@/test/support/emulator';

async function redeem(client: TestClient, emulator: Emulator, code: string, codeVerifier: string) {
  return emulator.handle(
    formPost(`${TEST_BASE_URL}/token`, {
      ...(await clientAuthentication(client)),
      grant_type: 'authorization_code',
      code,
      code_verifier: codeVerifier,
      redirect_uri: client.redirectUri,
    }),
  );
}

/** Decrypts with the client's RSA key, then verifies with the emulator's published JWKS (spec 5.6, 4.4). */
async function openIdToken(client: TestClient, emulator: Emulator, idToken: string) {
  const jweHeader = decodeProtectedHeader(idToken);
  const { plaintext } = await compactDecrypt(idToken, client.encryptionKey.privateKey, {
    keyManagementAlgorithms: ['RSA-OAEP-256'],
    contentEncryptionAlgorithms: ['A256GCM'],
  });
  const jwks = await (await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`))).json();
  const { payload, protectedHeader } = await jwtVerify(new TextDecoder().decode(plaintext), createLocalJWKSet(jwks), {
    algorithms: ['ES256'],
    issuer: TEST_BASE_URL,
    audience: client.clientId,
  });
  return { jweHeader, jwsHeader: protectedHeader, payload, jwks };
}

describe('end-to-end flow: PAR → identity app → token', () => {
  it.each(['ES256', 'PS256', 'EdDSA'] as const)(
    'issues an encrypted, signed ID token with only the requested data to a %s client, at the strict level',
    async (alg) => {
      const client = await createTestClient({ alg, populationRegister: true });
      // The strict level: the request below is shaped as the spec shapes it, as it must be for staging.
      const emulator = createTestEmulator({ clients: [client], strict: true });

      const claims = {
        id_token: {
          verified_claims: {
            verification: {
              trust_framework: { value: 'standard_etsi' },
              evidence: [
                {
                  type: { value: 'document' },
                  document_details: { type: null, personal_number: null, issuer: { country_code: null }, issuer_check: null },
                },
                {
                  type: { value: 'electronic_record' },
                  record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' } },
                },
              ],
            },
            claims: {
              given_name: { essential: true },
              family_name: { essential: true },
              picture: { essential: false },
              nationalities: { essential: false },
            },
          },
        },
      };
      const { redirect, codeVerifier, requestClaims } = await authorize(emulator, client, { persona: 'ingrid-haugen', claims });

      expect(redirect.origin + redirect.pathname).toBe(client.redirectUri);
      expect(redirect.searchParams.get('state')).toBe(requestClaims.state);
      expect(redirect.searchParams.get('iss')).toBe(TEST_BASE_URL);
      const code = redirect.searchParams.get('code')!;
      expect(code.length).toBeGreaterThanOrEqual(43);

      const response = await redeem(client, emulator, code, codeVerifier);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.json();
      expect(Object.keys(body).sort()).toEqual(['expires_in', 'id_token']);
      expect(body.expires_in).toBe(3600);

      const { jweHeader, jwsHeader, payload, jwks } = await openIdToken(client, emulator, body.id_token);
      expect(jweHeader).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: client.encryptionKey.kid, cty: 'JWT' });
      const current = (await emulator.control.signingKeys()).find((key) => key.current)!.kid;
      expect(jwsHeader).toEqual({ alg: 'ES256', kid: current, typ: 'JWT' });
      expect(jwks.keys.map((key: { kid: string }) => key.kid)).toContain(current);

      expect(payload).toMatchObject({
        iss: TEST_BASE_URL,
        aud: client.clientId,
        nonce: requestClaims.nonce,
        acr: 'urn:idv-emulator:idcheck',
        amr: ['face', 'user'],
      });
      expect(payload.exp! - payload.iat!).toBe(3600);
      expect(typeof payload.auth_time).toBe('number');
      expect(payload.sub).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const portrait = await readFile(join(process.cwd(), 'lib/emulator/personas/portraits/ingrid-haugen.jpg'));
      expect(payload.verified_claims).toEqual({
        verification: {
          trust_framework: 'standard_etsi',
          evidence: [
            {
              type: 'document',
              document_details: {
                type: 'passport',
                personal_number: { type: 'no-fnr', value: '14038726421' },
                issuer: { country_code: 'NOR' },
                issuer_check: { valid: 'VALID' },
              },
            },
            {
              type: 'electronic_record',
              record: {
                type: 'population_register',
                source: { name: 'Folkeregisteret' },
                personal_number: '14038726421',
              },
            },
          ],
        },
        // Data minimisation: name, birthdate, gender were not requested and are absent.
        claims: {
          given_name: 'Ingrid Solberg',
          family_name: 'Haugen',
          picture: `data:image/jpeg;base64,${portrait.toString('base64')}`,
          nationalities: ['NOR'],
        },
      });
    },
  );

  it('omits evidence that is unavailable: no register match, no personal number on the document', async () => {
    const client = await createTestClient({ populationRegister: true });
    const emulator = createTestEmulator({ clients: [client] });
    const claims = {
      id_token: {
        verified_claims: {
          verification: {
            trust_framework: { value: 'standard' },
            evidence: [
              { type: { value: 'document' }, document_details: { personal_number: null, issuer_check: null, document_number: null } },
              { type: { value: 'electronic_record' }, record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' } } },
            ],
          },
          claims: { name: { essential: true } },
        },
      },
    };
    const { redirect, codeVerifier } = await authorize(emulator, client, { persona: 'jonas-weber', claims });
    const response = await redeem(client, emulator, redirect.searchParams.get('code')!, codeVerifier);
    const { payload } = await openIdToken(client, emulator, (await response.json()).id_token);
    expect(payload.verified_claims).toEqual({
      verification: {
        trust_framework: 'standard',
        evidence: [{ type: 'document', document_details: { document_number: 'LFC3RK7P9' } }],
      },
      claims: { name: 'Jonas Weber' },
    });
  });

  it.each([
    ['leaves the document element out at the strict level', true, { verification: { trust_framework: 'standard' }, claims: { name: 'Jonas Weber' } }],
    [
      'keeps it with document_details: {} at the default level',
      false,
      { verification: { trust_framework: 'standard', evidence: [{ type: 'document', document_details: {} }] }, claims: { name: 'Jonas Weber' } },
    ],
  ] as const)('when none of the requested document details exist, %s', async (_name, strict, expected) => {
    const client = await createTestClient();
    const emulator = createTestEmulator({ clients: [client], strict });
    const claims = {
      id_token: {
        verified_claims: {
          verification: {
            trust_framework: { value: 'standard' },
            // jonas-weber's German passport has neither.
            evidence: [{ type: { value: 'document' }, document_details: { personal_number: null, issuer_check: null } }],
          },
          claims: { name: { essential: true } },
        },
      },
    };
    const { redirect, codeVerifier } = await authorize(emulator, client, { persona: 'jonas-weber', claims });
    const response = await redeem(client, emulator, redirect.searchParams.get('code')!, codeVerifier);
    const { payload } = await openIdToken(client, emulator, (await response.json()).id_token);
    expect(payload.verified_claims).toEqual(expected);
  });

  it('omits evidence entirely when none was requested, and gives each client its own subject', async () => {
    const first = await createTestClient({ clientId: 'first' });
    const second = await createTestClient({ clientId: 'second' });
    const emulator = createTestEmulator({ clients: [first, second] });
    const claims = {
      id_token: { verified_claims: { verification: { trust_framework: { value: 'standard' } }, claims: { birthdate: { essential: true } } } },
    };
    const subjects: unknown[] = [];
    for (const client of [first, second, first]) {
      const { redirect, codeVerifier } = await authorize(emulator, client, { persona: 'lars-eriksson', claims });
      const response = await redeem(client, emulator, redirect.searchParams.get('code')!, codeVerifier);
      const { payload } = await openIdToken(client, emulator, (await response.json()).id_token);
      expect(payload.verified_claims).toEqual({
        verification: { trust_framework: 'standard' },
        claims: { birthdate: '1979-11-02' },
      });
      subjects.push(payload.sub);
    }
    expect(subjects[0]).toBe(subjects[2]);
    expect(subjects[0]).not.toBe(subjects[1]);
  });

  it('looks the register up by the requested personal_number, and omits the record when it is not the person', async () => {
    const client = await createTestClient({ populationRegister: true });
    const emulator = createTestEmulator({ clients: [client] });
    const record = (personalNumber: string) => ({
      id_token: {
        verified_claims: {
          verification: {
            trust_framework: { value: 'standard' },
            evidence: [
              {
                type: { value: 'electronic_record' },
                record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' }, personal_number: personalNumber },
              },
            ],
          },
          claims: {},
        },
      },
    });
    for (const [personalNumber, expected] of [
      [
        '61069732266',
        [{ type: 'electronic_record', record: { type: 'population_register', source: { name: 'Folkeregisteret' }, personal_number: '61069732266' } }],
      ],
      ['14038726421', undefined],
    ] as const) {
      const { redirect, codeVerifier } = await authorize(emulator, client, { persona: 'amira-nilsen', claims: record(personalNumber) });
      const response = await redeem(client, emulator, redirect.searchParams.get('code')!, codeVerifier);
      const { payload } = await openIdToken(client, emulator, (await response.json()).id_token);
      expect((payload.verified_claims as { verification: { evidence?: unknown } }).verification.evidence).toEqual(expected);
    }
  });
});
