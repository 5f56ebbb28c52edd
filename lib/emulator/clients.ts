/**
 * Registered clients (spec part 1 "Prerequisites for a client", 5.3): the identifier, the public
 * keys as a JWKS, the redirect URIs, the population-register entitlement, and how its ID tokens
 * are encrypted.
 * Registration itself is "not shown" in the spec; here it is configuration, validated up front so
 * that a bad key fails at start-up with a message rather than at the first request.
 * @see spec part 1, 2.3 "Electronic record evidence element", 5.2, 5.3
 */
import { createPublicKey, type JsonWebKey as NodeJsonWebKey, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { z } from 'zod';
import {
  CLIENT_SIGNING_ALGORITHMS,
  ID_TOKEN_CONTENT_ENCRYPTION,
  ID_TOKEN_CONTENT_ENCRYPTIONS,
  ID_TOKEN_ENCRYPTION_ALGORITHM,
  ID_TOKEN_ENCRYPTION_ALGORITHMS,
  type ClientSigningAlgorithm,
  type IdTokenContentEncryption,
  type IdTokenEncryption,
  type IdTokenEncryptionAlgorithm,
} from './config';
import { describeIssue, issueMessage } from './errors';

/**
 * A client registered with the emulator.
 * @see spec part 1 "Prerequisites for a client", 5.3
 */
export interface RegisteredClient {
  clientId: string;
  /** the name the pages show: "<name> wants to verify your identity" (default: the client_id) */
  name?: string;
  /**
   * A logo the pages show beside the name (RFC 7591 §2 `logo_uri`): an https URL, an http URL on a
   * loopback host, or a `data:image/png|jpeg|webp;base64,…` URI of at most 64 KiB. A page's
   * Content-Security-Policy allows exactly this image's origin (or `data:`). @see logoSource
   */
  logoUri?: string;
  /**
   * Public keys: at least one signing key (EC P-256 / RSA / OKP Ed25519, `alg` ES256 | PS256 |
   * EdDSA, a `kid`, `use` "sig" or absent) and exactly one RSA encryption key (`use` "enc",
   * `alg` RSA-OAEP-256, a `kid`). The encryption key's `alg` identifies it as registered; the
   * JWE `alg` of an ID token is the client's variant (`idTokenEncryptedResponseAlg`), to this key.
   */
  jwks: { keys: JWK[] };
  redirectUris: string[];
  /** entitled to `electronic_record` evidence from the population register (spec 2.3) */
  populationRegister: boolean;
  /**
   * The JWE `alg` of its ID tokens, one of ID_TOKEN_ENCRYPTION_ALGORITHMS (OpenID Connect Dynamic
   * Client Registration 1.0 §2 `id_token_encrypted_response_alg`). Default RSA-OAEP-256, the
   * example of spec 2.5.
   */
  idTokenEncryptedResponseAlg?: IdTokenEncryptionAlgorithm;
  /**
   * The JWE `enc` of its ID tokens, one of ID_TOKEN_CONTENT_ENCRYPTIONS
   * (`id_token_encrypted_response_enc`). Default A256GCM, the example of spec 2.5, also when only
   * the `alg` is given (Dynamic Client Registration would default to A128CBC-HS256 then).
   */
  idTokenEncryptedResponseEnc?: IdTokenContentEncryption;
}

/** A registered signing key, after validation. */
export type ClientSigningKey = JWK & { kid: string; alg: ClientSigningAlgorithm };
/** The registered encryption key, after validation. */
export type ClientEncryptionKey = JWK & { kid: string; alg: typeof ID_TOKEN_ENCRYPTION_ALGORITHM; kty: 'RSA' };

const PRIVATE_KEY_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;
/** RFC 7518 §3.5, §4.3: RSA keys of at least 2048 bits (a 256-byte modulus). */
const MIN_RSA_MODULUS_BYTES = 256;

const base64url = z.string().regex(/^[A-Za-z0-9_-]+$/, { error: 'must be base64url' });

const jwkSchema = z
  .looseObject({
    kty: z.string(),
    kid: z.string().min(1),
    alg: z.string(),
    use: z.enum(['sig', 'enc']).optional(),
  })
  .superRefine((key, ctx) => {
    const problem = jwkProblem(key);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * Whether the key material itself is usable (a real point on the curve, a real modulus of the
 * stated size): members that look right can still make every later request fail.
 */
function keyMaterialProblem(key: z.infer<typeof jwkSchema>): string | undefined {
  let parsed: KeyObject;
  try {
    parsed = createPublicKey({ key: key as NodeJsonWebKey, format: 'jwk' });
  } catch (error) {
    return `is not a usable public key (${(error as Error).message})`;
  }
  const details = parsed.asymmetricKeyDetails ?? {};
  if (parsed.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) < MIN_RSA_MODULUS_BYTES * 8) {
    return `RSA modulus must be at least ${MIN_RSA_MODULUS_BYTES * 8} bits (it has ${details.modulusLength})`;
  }
  if (parsed.asymmetricKeyType === 'ec' && details.namedCurve !== 'prime256v1') return 'EC key must be on P-256';
  if (key.kty === 'OKP' && parsed.asymmetricKeyType !== 'ed25519') return 'OKP key must be Ed25519';
  return undefined;
}

/** What is wrong with a key, in words; undefined when it is a usable public key. */
function jwkProblem(key: z.infer<typeof jwkSchema>): string | undefined {
  return jwkShapeProblem(key) ?? keyMaterialProblem(key);
}

/** What is wrong with a key's members, in words. */
function jwkShapeProblem(key: z.infer<typeof jwkSchema>): string | undefined {
  const privateMember = PRIVATE_KEY_MEMBERS.find((member) => member in key);
  if (privateMember) return `must be a public key; remove the private member '${privateMember}'`;

  const coordinate = (name: string) => base64url.safeParse(key[name]).success;
  const rsaModulusOk = () => coordinate('n') && coordinate('e') && Math.floor(((key.n as string).length * 3) / 4) >= MIN_RSA_MODULUS_BYTES;

  if (key.use === 'enc' || key.alg === ID_TOKEN_ENCRYPTION_ALGORITHM) {
    if (key.alg !== ID_TOKEN_ENCRYPTION_ALGORITHM) return `encryption key must have alg '${ID_TOKEN_ENCRYPTION_ALGORITHM}'`;
    if (key.use !== 'enc') return "encryption key must have use 'enc'";
    if (key.kty !== 'RSA') return "encryption key must have kty 'RSA'";
    if (!rsaModulusOk()) return 'encryption key must have base64url n and e, with a modulus of at least 2048 bits';
    return undefined;
  }

  if (!(CLIENT_SIGNING_ALGORITHMS as readonly string[]).includes(key.alg)) {
    return `alg '${key.alg}' is not supported for signing; use one of ${CLIENT_SIGNING_ALGORITHMS.join(', ')}`;
  }
  switch (key.alg as ClientSigningAlgorithm) {
    case 'ES256':
      if (key.kty !== 'EC' || key.crv !== 'P-256') return "an ES256 key must have kty 'EC' and crv 'P-256'";
      if (!coordinate('x') || !coordinate('y')) return 'an EC key must have base64url x and y';
      return undefined;
    case 'PS256':
      if (key.kty !== 'RSA') return "a PS256 key must have kty 'RSA'";
      if (!rsaModulusOk()) return 'an RSA key must have base64url n and e, with a modulus of at least 2048 bits';
      return undefined;
    case 'EdDSA':
      if (key.kty !== 'OKP' || key.crv !== 'Ed25519') return "an EdDSA key must have kty 'OKP' and crv 'Ed25519'";
      if (!coordinate('x')) return 'an OKP key must have a base64url x';
      return undefined;
  }
}

const jwksSchema = z.looseObject({ keys: z.array(jwkSchema) }).superRefine(({ keys }, ctx) => {
  const seen = new Set<string>();
  keys.forEach((key, index) => {
    if (seen.has(key.kid)) {
      ctx.addIssue({ code: 'custom', path: ['keys', index, 'kid'], message: `duplicates kid '${key.kid}'` });
    }
    seen.add(key.kid);
  });
  const encryptionKeys = keys.filter(isEncryptionKey).length;
  if (keys.length === encryptionKeys) {
    ctx.addIssue({ code: 'custom', path: ['keys'], message: 'must contain at least one signing key' });
  }
  if (encryptionKeys !== 1) {
    ctx.addIssue({
      code: 'custom',
      path: ['keys'],
      message: `must contain exactly one encryption key (use 'enc'), found ${encryptionKeys}`,
    });
  }
});

const clientIdSchema = z.string().regex(/^[\x21-\x7E]+$/, { error: 'must be non-empty printable ASCII without spaces' });

/** RFC 6749 §3.1.2: absolute, and no fragment. */
const redirectUriSchema = z.string().superRefine((value, ctx) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
    return;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
  } else if (value.includes('#')) {
    ctx.addIssue({ code: 'custom', message: 'must not contain a fragment (RFC 6749 section 3.1.2)' });
  }
});

/** The longest `data:` logo: 64 KiB, so a page that inlines it stays small. */
export const MAX_DATA_LOGO_BYTES = 64 * 1024;
/** The image types a `data:` logo may have: what every browser shows. */
const DATA_LOGO = /^data:image\/(png|jpeg|webp);base64,([A-Za-z0-9+/]+={0,2})$/;
/** The longest logo URL (not `data:`), as browsers and proxies take URLs without trouble. */
const MAX_LOGO_URL_LENGTH = 2048;

/** Whether `hostname` (a URL's, IPv6 in brackets) is the machine itself: http is accepted there only. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]';
}

/**
 * What is wrong with a logo URI, in words; undefined when the pages may show it. RFC 7591 §2 asks
 * for a URL of an image; the pages load it in the person's browser, so it must be https (or http
 * on the machine itself, for local demos), or an image inlined as `data:` of a size a page carries.
 */
export function logoUriProblem(value: string): string | undefined {
  if (value.startsWith('data:')) {
    const match = DATA_LOGO.exec(value);
    if (!match) return 'a data: logo must be data:image/png, image/jpeg or image/webp, base64-encoded';
    const bytes = Math.floor((match[2]!.length * 3) / 4) - (match[2]!.endsWith('==') ? 2 : match[2]!.endsWith('=') ? 1 : 0);
    if (bytes > MAX_DATA_LOGO_BYTES) return `a data: logo must be at most ${MAX_DATA_LOGO_BYTES / 1024} KiB (it has ${bytes} bytes)`;
    return undefined;
  }
  if (value.length > MAX_LOGO_URL_LENGTH) return `must be at most ${MAX_LOGO_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an https URL, an http URL on a loopback host, or a data:image URI';
  }
  if (url.username || url.password) return 'must not carry a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  if (url.protocol === 'http:') return 'must be https (http only on a loopback host: localhost, 127.0.0.1, [::1])';
  return 'must be an https URL, an http URL on a loopback host, or a data:image URI';
}

const logoUriSchema = z.string().superRefine((value, ctx) => {
  const problem = logoUriProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * The source a page's Content-Security-Policy allows for the client's logo (`img-src`): `data:`
 * for an inlined image, else the logo URL's origin; none without a logo.
 */
export function logoSource(client: Pick<RegisteredClient, 'logoUri'>): string | undefined {
  if (client.logoUri === undefined) return undefined;
  return client.logoUri.startsWith('data:') ? 'data:' : new URL(client.logoUri).origin;
}

const clientFields = {
  name: z.string().min(1).optional(),
  logoUri: logoUriSchema.optional(),
  jwks: jwksSchema,
  redirectUris: z.array(redirectUriSchema).min(1),
  populationRegister: z.boolean(),
  idTokenEncryptedResponseAlg: z.enum(ID_TOKEN_ENCRYPTION_ALGORITHMS).optional(),
  idTokenEncryptedResponseEnc: z.enum(ID_TOKEN_CONTENT_ENCRYPTIONS).optional(),
};

const registeredClientSchema = z.object({ clientId: clientIdSchema, ...clientFields });

/** The JSON form (snake_case), strict so that a misspelt member is reported, not ignored. */
const registeredClientJsonSchema = z
  .strictObject({
    client_id: clientIdSchema,
    name: clientFields.name,
    logo_uri: clientFields.logoUri,
    jwks: clientFields.jwks,
    redirect_uris: clientFields.redirectUris,
    population_register: clientFields.populationRegister,
    id_token_encrypted_response_alg: clientFields.idTokenEncryptedResponseAlg,
    id_token_encrypted_response_enc: clientFields.idTokenEncryptedResponseEnc,
  })
  .transform((client): RegisteredClient => ({
    clientId: client.client_id,
    ...(client.name === undefined ? {} : { name: client.name }),
    ...(client.logo_uri === undefined ? {} : { logoUri: client.logo_uri }),
    jwks: client.jwks as { keys: JWK[] },
    redirectUris: client.redirect_uris,
    populationRegister: client.population_register,
    ...(client.id_token_encrypted_response_alg === undefined ? {} : { idTokenEncryptedResponseAlg: client.id_token_encrypted_response_alg }),
    ...(client.id_token_encrypted_response_enc === undefined ? {} : { idTokenEncryptedResponseEnc: client.id_token_encrypted_response_enc }),
  }));

function uniqueClientIds(clients: RegisteredClient[], ctx: z.RefinementCtx, member: string): void {
  const seen = new Set<string>();
  clients.forEach((client, index) => {
    if (seen.has(client.clientId)) {
      ctx.addIssue({ code: 'custom', path: [index, member], message: `duplicates client id '${client.clientId}'` });
    }
    seen.add(client.clientId);
  });
}

function parseOrThrow<T>(schema: z.ZodType<T>, input: unknown, root: string): T {
  const result = schema.safeParse(input, { error: issueMessage, reportInput: true });
  if (result.success) return result.data;
  throw new Error(result.error.issues.map((issue) => describeIssue(issue, root)).join('; '));
}

/**
 * Parses a JSON array of clients, `[{ client_id, name?, logo_uri?, jwks, redirect_uris, population_register,
 * id_token_encrypted_response_alg?, id_token_encrypted_response_enc? }]`,
 * e.g. from an environment variable.
 * @throws Error whose message names each problem by path, e.g.
 *   `[1].redirect_uris[0]: must be an absolute http(s) URL`
 * @see spec 5.3
 */
export function parseRegisteredClients(json: string): RegisteredClient[] {
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch (error) {
    throw new Error(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const schema = z.array(registeredClientJsonSchema).superRefine((clients, ctx) => uniqueClientIds(clients, ctx, 'client_id'));
  return parseOrThrow(schema, input, '');
}

/**
 * Validates clients passed in code with the same rules.
 * @throws Error naming each problem by path, e.g. `clients[0].jwks.keys: must contain exactly one encryption key ...`
 * @see spec 5.3
 */
export function checkRegisteredClients(clients: readonly RegisteredClient[]): RegisteredClient[] {
  const schema = z.array(registeredClientSchema).superRefine((parsed, ctx) => uniqueClientIds(parsed as RegisteredClient[], ctx, 'clientId'));
  return parseOrThrow(schema, clients, 'clients') as RegisteredClient[];
}

function isEncryptionKey(key: JWK): boolean {
  return key.use === 'enc' || key.alg === ID_TOKEN_ENCRYPTION_ALGORITHM;
}

/** The client's registered signing key with this `kid`, if any. @see spec 5.2 */
export function findSigningKey(client: RegisteredClient, kid: string): ClientSigningKey | undefined {
  return client.jwks.keys.find((key): key is ClientSigningKey => key.kid === kid && !isEncryptionKey(key));
}

/** The client's one registered encryption key (validated at registration). @see spec 5.6 */
export function encryptionKeyOf(client: RegisteredClient): ClientEncryptionKey {
  const key = client.jwks.keys.find(isEncryptionKey);
  if (!key) throw new Error(`client '${client.clientId}' has no encryption key`);
  return key as ClientEncryptionKey;
}

/**
 * How the client's ID tokens are encrypted as registered: its `id_token_encrypted_response_alg`
 * and `_enc`, each defaulting to the example JWE header of spec 2.5 (RSA-OAEP-256 / A256GCM).
 * QA may change it at run time (context.ts `idTokenEncryption`).
 * @see spec 2.5; OpenID Connect Dynamic Client Registration 1.0 §2
 */
export function registeredIdTokenEncryption(client: RegisteredClient): IdTokenEncryption {
  return {
    alg: client.idTokenEncryptedResponseAlg ?? ID_TOKEN_ENCRYPTION_ALGORITHM,
    enc: client.idTokenEncryptedResponseEnc ?? ID_TOKEN_CONTENT_ENCRYPTION,
  };
}

/** Whether `value` is an encryption variant the emulator can issue (a check for callers from plain JavaScript). */
export function isIdTokenEncryption(value: unknown): value is IdTokenEncryption {
  if (typeof value !== 'object' || value === null) return false;
  const { alg, enc } = value as Record<string, unknown>;
  return (ID_TOKEN_ENCRYPTION_ALGORITHMS as readonly unknown[]).includes(alg) && (ID_TOKEN_CONTENT_ENCRYPTIONS as readonly unknown[]).includes(enc);
}
