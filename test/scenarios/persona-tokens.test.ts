/**
 * What each persona's ID token holds, for a full request and for a minimal one: everything the
 * persona has and nothing more, or exactly the one claim asked for (data minimisation, part 1).
 * The requests are shaped as spec 2.3 shapes them, so they hold at both levels (DECISIONS.md
 * "Levels"), and the tokens are the same at both.
 */
import { compactDecrypt, createLocalJWKSet, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import { personas, type Persona } from '@/lib/emulator/personas/personas';
import { TEST_BASE_URL, authorize, createTestClient, createTestEmulator, redeemCode, type TestClient } from '@/test/support/emulator';

const ALL_DETAILS = {
  type: null,
  document_number: null,
  date_of_issuance: null,
  date_of_expiry: null,
  issuer: { country_code: null, name: null },
  personal_number: null,
  active_authentication_result: null,
  issuer_check: null,
};

const FULL_REQUEST = {
  id_token: {
    verified_claims: {
      verification: {
        trust_framework: { value: 'standard' },
        evidence: [
          { type: { value: 'document' }, document_details: ALL_DETAILS },
          { type: { value: 'electronic_record' }, record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' } } },
        ],
      },
      claims: Object.fromEntries(
        ['name', 'given_name', 'family_name', 'picture', 'gender', 'birthdate', 'nationalities'].map((c) => [c, { essential: false }]),
      ),
    },
  },
};

const MINIMAL_REQUEST = {
  id_token: { verified_claims: { verification: { trust_framework: { value: 'standard' } }, claims: { birthdate: { essential: true } } } },
};

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient({ populationRegister: true });
});

async function verifiedClaimsFor(emulator: Emulator, persona: Persona, claims: unknown): Promise<Record<string, unknown>> {
  const { redirect, codeVerifier } = await authorize(emulator, client, { persona: persona.id, claims });
  const response = await redeemCode(emulator, client, { redirect, codeVerifier });
  expect(response.status).toBe(200);
  const { id_token: idToken } = (await response.json()) as { id_token: string };
  const { plaintext } = await compactDecrypt(idToken, client.encryptionKey.privateKey);
  const jwks = createLocalJWKSet(await (await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`))).json());
  const { payload } = await jwtVerify(new TextDecoder().decode(plaintext), jwks, { issuer: TEST_BASE_URL, audience: client.clientId });
  return payload.verified_claims as Record<string, unknown>;
}

const verifying = personas.filter((persona) => persona.faceCheck === 'pass');

describe.each([
  ['the default level', false],
  ['the strict level', true],
] as const)('each persona’s ID token at %s', (_level, strict) => {
  let emulator: Emulator;
  beforeAll(() => {
    emulator = createTestEmulator({ clients: [client], strict });
  });

  it.each(verifying.map((p) => [p.id, p] as const))('%s: a full request returns every claim and document detail the persona has', async (_id, persona) => {
    const verified = await verifiedClaimsFor(emulator, persona, FULL_REQUEST);
    const { picture, ...claims } = verified.claims as Record<string, unknown>;
    expect(claims).toEqual(persona.claims);
    expect(picture).toMatch(/^data:image\/jpeg;base64,\/9j\//);

    const evidence = (verified.verification as { evidence: Record<string, unknown>[] }).evidence;
    expect(evidence[0]).toEqual({ type: 'document', document_details: persona.document });
    if (persona.populationRegister) {
      expect(evidence[1]).toEqual({
        type: 'electronic_record',
        record: { type: 'population_register', source: { name: 'Folkeregisteret' }, personal_number: persona.populationRegister.personalNumber },
      });
    }
    expect(evidence).toHaveLength(persona.populationRegister ? 2 : 1);
  });

  it.each(verifying.map((p) => [p.id, p] as const))('%s: a minimal request returns only the birthdate', async (_id, persona) => {
    expect(await verifiedClaimsFor(emulator, persona, MINIMAL_REQUEST)).toEqual({
      verification: { trust_framework: 'standard' },
      claims: { birthdate: persona.claims.birthdate },
    });
  });

  it('tobias-hansen fails the face check, so no token is issued', async () => {
    const { redirect } = await authorize(emulator, client, { persona: 'tobias-hansen', claims: MINIMAL_REQUEST });
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.has('code')).toBe(false);
  });
});
