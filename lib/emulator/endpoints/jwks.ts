/**
 * GET /jwks: the public ID token signing keys, each with `kid` = certificate serial number and
 * the certificate chain in `x5c`.
 * @see spec 2.7, 4.4
 */
import type { JWK } from 'jose';
import { JWKS_TIMEOUT_DELAY_MS, type JwksEndpointFault, type JwksFault } from '../answer-faults';
import type { EmulatorContext } from '../context';
import { ServerError } from '../errors';
import { holdResponse } from './hold-response';

/**
 * Handles GET /jwks with `Content-Type: application/json` and `Cache-Control: public,
 * max-age=86400` (4.4). Every published key is listed (the current one, those retiring, and the
 * next one, published ahead), in an order drawn anew for each response: 4.4 tells clients never
 * to rely on the order or the count, and a client that takes the first key fails here at once
 * rather than at staging.
 *
 * A listener of `jwks.answering` (events.ts) may ask for a JWKS fault (answer-faults.ts; QA's
 * listener asks for the variants open for a while after the ID token they were taken for): the
 * current key listed last (`jwks_keys_shuffled`), or keys no client can verify an ES256 token with
 * added (`jwks_unparseable_extra_keys`).
 *
 * It may also ask for an outage (an ID token's `jwks_endpoint` fault waiting for this request): 500
 * `server_error` instead of the keys (`jwks_error`), or the keys held for JWKS_TIMEOUT_DELAY_MS,
 * longer than a relying party waits (`jwks_timeout`).
 *
 * Each response is told (`jwks.answered`: kids in order, faults made), for the QA API's log.
 * @see spec 2.7, 4.4; DECISIONS.md "Keys", "Faults"
 */
export async function jwksEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  const ring = await context.signingKeys();
  const faults = new Set<JwksFault | JwksEndpointFault>();
  await context.events.emit('jwks.answering', { faults });
  if (faults.has('jwks_error')) {
    await context.events.emit('jwks.answered', { kids: [], faults: [...faults] });
    throw new ServerError("injected fault 'jwks_error' (emulator QA panel): the JWKS endpoint failed on purpose");
  }
  let heldMs: number | undefined;
  if (faults.has('jwks_timeout')) {
    const heldFrom = Date.now();
    const held = await holdResponse(JWKS_TIMEOUT_DELAY_MS, request.signal);
    heldMs = Date.now() - heldFrom;
    if (!held) {
      // The client gave up (as it should, after its own timeout): nobody reads this answer.
      await context.events.emit('jwks.answered', { kids: [], faults: [...faults], heldMs });
      throw new ServerError("injected fault 'jwks_timeout' (emulator QA panel): the client closed the request while it was held");
    }
  }
  let keys: JWK[] = shuffled(ring.published().map((key) => key.publicJwk));
  if (faults.has('jwks_keys_shuffled')) {
    const kid = ring.current().kid;
    keys = [...keys.filter((key) => key.kid !== kid), ...keys.filter((key) => key.kid === kid)];
  }
  if (faults.has('jwks_unparseable_extra_keys')) keys = shuffled([...keys, ...UNUSABLE_KEYS]);
  // Which keys were served in which order (a JWKS request names no client or flow).
  await context.events.emit('jwks.answered', {
    kids: keys.map((key) => key.kid ?? '(no kid)'),
    faults: [...faults],
    ...(heldMs === undefined ? {} : { heldMs }),
  });
  return new Response(JSON.stringify({ keys }), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=86400' },
  });
}

/**
 * `jwks_unparseable_extra_keys`: entries a client must pass over (RFC 7517 §5: "implementations
 * SHOULD ignore JWKs within a JWK Set that use "kty" values that are not understood", or that
 * are missing required members or whose values are out of range). Each under its own `kid`, so
 * a client that selects by `kid` never meets them.
 */
const UNUSABLE_KEYS: readonly JWK[] = [
  // a key type nobody registered
  { kty: 'X-EMULATOR-UNKNOWN', kid: 'emulator-unknown-kty', use: 'sig', k: 'AQAB' },
  // an encryption key: not for verifying signatures (RFC 7517 §4.2); a short made-up modulus
  {
    kty: 'RSA',
    kid: 'emulator-encryption-key',
    use: 'enc',
    alg: 'RSA-OAEP-256',
    n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
    e: 'AQAB',
  },
  // an EC key whose x is not a coordinate of P-256 (too short, and not base64url of 32 bytes)
  { kty: 'EC', kid: 'emulator-garbage-x', use: 'sig', alg: 'ES256', crv: 'P-256', x: 'not-a-coordinate', y: 'AAAA' },
];

/** The items in a uniformly random order (Fisher–Yates). */
function shuffled<T>(items: readonly T[]): T[] {
  const result = [...items];
  const random = crypto.getRandomValues(new Uint32Array(result.length));
  for (let index = result.length - 1; index > 0; index -= 1) {
    const other = random[index]! % (index + 1);
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}
