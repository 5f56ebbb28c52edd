/**
 * How the ID token may be encrypted (2.5, 5.6). The spec names RSA-OAEP-256 / A256GCM only as
 * "the example JWE header", so we accept the secure combinations the service advertises in its
 * discovery document (`id_token_encryption_alg_values_supported`, `_enc_values_supported`),
 * within one family: RSA-OAEP-256 or RSA-OAEP to our own RSA key, with AES-GCM or AES-CBC-HMAC.
 * Never RSA1_5 (RFC 8725 §3.2), never `dir` or a key agreement (the token would not be encrypted
 * to our key). When discovery advertises none of these, RSA-OAEP-256 / A256GCM, the spec's example.
 * An integrator may pin the list instead (`RelyingParty.idTokenEncryption`).
 *
 * Copy with: types.ts.
 */
import type { ProviderMetadata } from './types.ts';

/**
 * The key management algorithms we decrypt with: RSAES-OAEP to our RSA key, with SHA-256 or SHA-1.
 * @see Interface specification 2.5 "Token response"
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-4.3
 * @see https://www.rfc-editor.org/rfc/rfc8725#section-3.2
 */
export const ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS = ['RSA-OAEP-256', 'RSA-OAEP'] as const;
/**
 * One of {@link ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS}.
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-4.3
 */
export type IdTokenKeyManagementAlgorithm = (typeof ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS)[number];

/**
 * The content encryption algorithms we decrypt: AES-GCM and AES-CBC with HMAC-SHA-2, every key size.
 * @see Interface specification 2.5 "Token response"
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-5.1
 */
export const ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS = ['A256GCM', 'A192GCM', 'A128GCM', 'A256CBC-HS512', 'A192CBC-HS384', 'A128CBC-HS256'] as const;
/**
 * One of {@link ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS}.
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-5.1
 */
export type IdTokenContentEncryption = (typeof ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS)[number];

/**
 * One combination of the JWE header's `alg` and `enc`.
 * @see Interface specification 2.5 "Token response"
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-4.1
 */
export interface IdTokenEncryption {
  alg: IdTokenKeyManagementAlgorithm;
  enc: IdTokenContentEncryption;
}

/**
 * The spec's example (2.5), accepted when discovery advertises nothing we accept.
 * @see Interface specification 2.5 "Token response"
 */
export const DEFAULT_ID_TOKEN_ENCRYPTION: Readonly<IdTokenEncryption> = Object.freeze({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });

const isAlg = (value: unknown): value is IdTokenKeyManagementAlgorithm => (ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS as readonly unknown[]).includes(value);
const isEnc = (value: unknown): value is IdTokenContentEncryption => (ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS as readonly unknown[]).includes(value);

/** `alg / enc`, as the trace, errors and the doctor write a combination. */
export function describeIdTokenEncryption({ alg, enc }: IdTokenEncryption): string {
  return `${alg} / ${enc}`;
}

/**
 * The combinations of our family that the discovery document advertises, in our order of
 * preference; empty when it advertises none of them. A list that is absent counts as the
 * default's member (a document naming only `enc` values still means RSA-OAEP-256, say).
 * @see Interface specification 4 "Endpoints"
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderMetadata
 */
export function advertisedIdTokenEncryption(
  metadata: Pick<ProviderMetadata, 'id_token_encryption_alg_values_supported' | 'id_token_encryption_enc_values_supported'>,
): IdTokenEncryption[] {
  const listed = (value: unknown, fallback: string): unknown[] => (Array.isArray(value) ? value : [fallback]);
  const algs = ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS.filter((alg) =>
    listed(metadata.id_token_encryption_alg_values_supported, DEFAULT_ID_TOKEN_ENCRYPTION.alg).includes(alg),
  );
  const encs = ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS.filter((enc) =>
    listed(metadata.id_token_encryption_enc_values_supported, DEFAULT_ID_TOKEN_ENCRYPTION.enc).includes(enc),
  );
  return algs.flatMap((alg) => encs.map((enc) => ({ alg, enc })));
}

/**
 * A pinned list, checked: at least one combination, each of our family.
 * @throws RangeError naming the first combination we never accept
 * @see Interface specification 2.5 "Token response"
 */
export function checkIdTokenEncryption(pinned: readonly IdTokenEncryption[]): IdTokenEncryption[] {
  if (!Array.isArray(pinned) || pinned.length === 0) throw new RangeError('idTokenEncryption must list at least one alg / enc combination');
  for (const combination of pinned) {
    if (!isAlg(combination?.alg) || !isEnc(combination?.enc)) {
      throw new RangeError(
        `idTokenEncryption: ${String(combination?.alg)} / ${String(combination?.enc)} is not accepted; alg must be one of ${ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS.join(', ')} and enc one of ${ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS.join(', ')}`,
      );
    }
  }
  return pinned.map(({ alg, enc }) => ({ alg, enc }));
}

/**
 * The combinations an ID token of this service may use: the pinned list when there is one, else
 * those of our family the discovery document advertises, else the spec's example.
 * @throws RangeError for a pinned list that is empty or names a combination we never accept
 * @see Interface specification 2.5 "Token response"
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderMetadata
 */
export function acceptedIdTokenEncryption(
  metadata: Pick<ProviderMetadata, 'id_token_encryption_alg_values_supported' | 'id_token_encryption_enc_values_supported'>,
  pinned?: readonly IdTokenEncryption[],
): IdTokenEncryption[] {
  if (pinned !== undefined) return checkIdTokenEncryption(pinned);
  const advertised = advertisedIdTokenEncryption(metadata);
  return advertised.length > 0 ? advertised : [{ ...DEFAULT_ID_TOKEN_ENCRYPTION }];
}

/**
 * Reads a list written as `alg/enc` combinations separated by commas or spaces, e.g.
 * `RSA-OAEP-256/A256GCM, RSA-OAEP/A128CBC-HS256` (an environment variable, a command line).
 * @throws RangeError naming what is wrong
 * @see Interface specification 2.5 "Token response"
 */
export function parseIdTokenEncryption(text: string): IdTokenEncryption[] {
  const items = text.split(/[\s,]+/).filter(Boolean);
  return checkIdTokenEncryption(
    items.map((item) => {
      const [alg, enc, extra] = item.split('/');
      if (extra !== undefined || !alg || !enc) throw new RangeError(`"${item.slice(0, 40)}" is not an alg/enc combination such as RSA-OAEP-256/A256GCM`);
      return { alg, enc } as IdTokenEncryption;
    }),
  );
}
