import { base64url, CompactEncrypt, CompactSign, generateSecret, importJWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateClientKeys, toPublicJwk, type GeneratedClientKeys } from './client-keys.ts';
import { IdvError } from './errors.ts';
import { decryptIdToken } from './id-token.ts';
import {
  acceptedIdTokenEncryption,
  advertisedIdTokenEncryption,
  checkIdTokenEncryption,
  DEFAULT_ID_TOKEN_ENCRYPTION,
  ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS,
  ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS,
  parseIdTokenEncryption,
  type IdTokenEncryption,
} from './id-token-encryption.ts';

const INNER = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
let client: GeneratedClientKeys;

beforeAll(async () => {
  client = await generateClientKeys('ES256');
});

/** A real JWE of `alg` / `enc` to the client's RSA key (jose makes every one of our family). */
async function encrypted({ alg, enc }: { alg: string; enc: string }): Promise<string> {
  const key = await importJWK({ ...toPublicJwk(client.encryptionKey), alg: undefined }, alg);
  return new CompactEncrypt(new TextEncoder().encode(INNER)).setProtectedHeader({ alg, enc, kid: client.encryptionKey.kid, cty: 'JWT' }).encrypt(key);
}

async function refusal(token: string, accepted?: readonly IdTokenEncryption[]): Promise<IdvError> {
  const error = await decryptIdToken(token, client.encryptionKey, accepted).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IdvError);
  return error as IdvError;
}

const EVERY_COMBINATION = ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS.flatMap((alg) => ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS.map((enc) => ({ alg, enc })));

describe('advertisedIdTokenEncryption (discovery)', () => {
  it('takes every combination of our family the document lists, in our order of preference', () => {
    expect(
      advertisedIdTokenEncryption({
        id_token_encryption_alg_values_supported: ['RSA-OAEP', 'RSA-OAEP-256'],
        id_token_encryption_enc_values_supported: ['A128CBC-HS256', 'A256GCM'],
      }),
    ).toEqual([
      { alg: 'RSA-OAEP-256', enc: 'A256GCM' },
      { alg: 'RSA-OAEP-256', enc: 'A128CBC-HS256' },
      { alg: 'RSA-OAEP', enc: 'A256GCM' },
      { alg: 'RSA-OAEP', enc: 'A128CBC-HS256' },
    ]);
  });

  it('leaves out RSA1_5, dir and key agreement, however the document lists them', () => {
    expect(
      advertisedIdTokenEncryption({
        id_token_encryption_alg_values_supported: ['RSA1_5', 'dir', 'ECDH-ES', 'ECDH-ES+A256KW', 'A256KW', 'RSA-OAEP'],
        id_token_encryption_enc_values_supported: ['A128GCM', 'A256CBC', 'none'],
      }),
    ).toEqual([{ alg: 'RSA-OAEP', enc: 'A128GCM' }]);
    expect(
      advertisedIdTokenEncryption({ id_token_encryption_alg_values_supported: ['RSA1_5'], id_token_encryption_enc_values_supported: ['A256GCM'] }),
    ).toEqual([]);
  });

  it('reads an absent list as the spec example’s member', () => {
    expect(advertisedIdTokenEncryption({})).toEqual([DEFAULT_ID_TOKEN_ENCRYPTION]);
    expect(advertisedIdTokenEncryption({ id_token_encryption_enc_values_supported: ['A128GCM'] })).toEqual([{ alg: 'RSA-OAEP-256', enc: 'A128GCM' }]);
    expect(advertisedIdTokenEncryption({ id_token_encryption_alg_values_supported: ['RSA-OAEP'] })).toEqual([{ alg: 'RSA-OAEP', enc: 'A256GCM' }]);
  });

  it('ignores members that are not lists', () => {
    const metadata = { id_token_encryption_alg_values_supported: 'RSA-OAEP', id_token_encryption_enc_values_supported: { A128GCM: true } } as never;
    expect(advertisedIdTokenEncryption(metadata)).toEqual([DEFAULT_ID_TOKEN_ENCRYPTION]);
  });
});

describe('acceptedIdTokenEncryption', () => {
  it('is what discovery advertises of our family', () => {
    const metadata = { id_token_encryption_alg_values_supported: ['RSA-OAEP'], id_token_encryption_enc_values_supported: ['A192GCM'] };
    expect(acceptedIdTokenEncryption(metadata)).toEqual([{ alg: 'RSA-OAEP', enc: 'A192GCM' }]);
  });

  it('is the spec’s example when discovery advertises nothing of our family', () => {
    expect(acceptedIdTokenEncryption({})).toEqual([DEFAULT_ID_TOKEN_ENCRYPTION]);
    expect(acceptedIdTokenEncryption({ id_token_encryption_alg_values_supported: ['RSA1_5'] })).toEqual([DEFAULT_ID_TOKEN_ENCRYPTION]);
  });

  it('is the pinned list when there is one, whatever discovery advertises', () => {
    const pinned = [{ alg: 'RSA-OAEP', enc: 'A128CBC-HS256' }] as const;
    expect(acceptedIdTokenEncryption({ id_token_encryption_alg_values_supported: ['RSA-OAEP-256'] }, pinned)).toEqual(pinned);
  });

  it('refuses a pinned list that is empty or names anything outside our family', () => {
    expect(() => checkIdTokenEncryption([])).toThrow(RangeError);
    for (const combination of [
      { alg: 'RSA1_5', enc: 'A128CBC-HS256' },
      { alg: 'dir', enc: 'A256GCM' },
      { alg: 'RSA-OAEP-256', enc: 'A256CBC' },
    ]) {
      expect(() => acceptedIdTokenEncryption({}, [combination as IdTokenEncryption])).toThrow(/is not accepted/);
    }
  });

  it('refuses a list from plain JavaScript holding something that is not a combination, with the same RangeError', () => {
    for (const combination of [null, undefined, 'RSA-OAEP-256/A256GCM']) {
      expect(() => checkIdTokenEncryption([combination as unknown as IdTokenEncryption])).toThrow(RangeError);
    }
  });
});

describe('parseIdTokenEncryption', () => {
  it('reads alg/enc combinations separated by commas or spaces', () => {
    expect(parseIdTokenEncryption('RSA-OAEP-256/A256GCM, RSA-OAEP/A128CBC-HS256  RSA-OAEP/A128GCM')).toEqual([
      { alg: 'RSA-OAEP-256', enc: 'A256GCM' },
      { alg: 'RSA-OAEP', enc: 'A128CBC-HS256' },
      { alg: 'RSA-OAEP', enc: 'A128GCM' },
    ]);
  });

  it('says what is wrong with anything else', () => {
    expect(() => parseIdTokenEncryption('')).toThrow(/at least one/);
    expect(() => parseIdTokenEncryption('RSA-OAEP-256')).toThrow(/"RSA-OAEP-256" is not an alg\/enc combination/);
    expect(() => parseIdTokenEncryption('RSA-OAEP-256/A256GCM/x')).toThrow(/not an alg\/enc combination/);
    expect(() => parseIdTokenEncryption('RSA1_5/A128CBC-HS256')).toThrow(/RSA1_5 \/ A128CBC-HS256 is not accepted/);
  });

  it('quotes at most 40 characters of what it cannot read', () => {
    expect(() => parseIdTokenEncryption('x'.repeat(500))).toThrow(`"${'x'.repeat(40)}" is not an alg/enc combination`);
  });
});

describe('decryptIdToken with the combinations accepted', () => {
  it.each(EVERY_COMBINATION)('decrypts $alg / $enc when it is accepted', async (combination) => {
    const { jws, jweHeader } = await decryptIdToken(await encrypted(combination), client.encryptionKey, [combination]);
    expect(jws).toBe(INNER);
    expect(jweHeader).toMatchObject(combination);
  });

  it('accepts only RSA-OAEP-256 / A256GCM when given no list', async () => {
    await expect(decryptIdToken(await encrypted(DEFAULT_ID_TOKEN_ENCRYPTION), client.encryptionKey)).resolves.toMatchObject({ jws: INNER });
    expect((await refusal(await encrypted({ alg: 'RSA-OAEP', enc: 'A256GCM' }))).code).toBe('id_token_unsupported_encryption');
  });

  it('refuses a combination of our family that is not accepted, naming those that are', async () => {
    const accepted = [
      { alg: 'RSA-OAEP-256', enc: 'A128GCM' },
      { alg: 'RSA-OAEP', enc: 'A128GCM' },
    ] as const;
    const error = await refusal(await encrypted({ alg: 'RSA-OAEP', enc: 'A256GCM' }), accepted);
    expect(error.code).toBe('id_token_unsupported_encryption');
    expect(error.cause).toMatchObject({ expected: 'RSA-OAEP-256 / A128GCM, RSA-OAEP / A128GCM', actual: 'RSA-OAEP / A256GCM' });
  });

  it('refuses RSA1_5 and dir before any decryption, even with every combination of our family accepted', async () => {
    const rsa15 = `${base64url.encode(JSON.stringify({ alg: 'RSA1_5', enc: 'A128CBC-HS256', kid: client.encryptionKey.kid }))}.a2V5.aXY.Y2lwaGVy.dGFn`;
    expect((await refusal(rsa15, EVERY_COMBINATION)).cause).toMatchObject({ actual: 'RSA1_5 / A128CBC-HS256' });
    const secret = await generateSecret('A256GCM');
    const dir = await new CompactEncrypt(new TextEncoder().encode(INNER)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(secret);
    expect((await refusal(dir, EVERY_COMBINATION)).code).toBe('id_token_unsupported_encryption');
  });

  it('refuses a token of an accepted combination encrypted to another RSA key', async () => {
    const other = await generateClientKeys('ES256');
    const key = await importJWK({ ...toPublicJwk(other.encryptionKey), alg: undefined }, 'RSA-OAEP');
    const token = await new CompactEncrypt(new TextEncoder().encode(INNER)).setProtectedHeader({ alg: 'RSA-OAEP', enc: 'A128GCM' }).encrypt(key);
    expect((await refusal(token, [{ alg: 'RSA-OAEP', enc: 'A128GCM' }])).code).toBe('id_token_decryption_failed');
  });

  it('still refuses a bare JWS whatever is accepted', async () => {
    const key = await generateSecret('HS256');
    const jws = await new CompactSign(new TextEncoder().encode('{}')).setProtectedHeader({ alg: 'HS256' }).sign(key);
    expect((await refusal(jws, EVERY_COMBINATION)).code).toBe('id_token_not_encrypted');
  });
});
