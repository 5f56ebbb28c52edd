/**
 * GET /jwks: the public ID token signing keys, each with `kid` = certificate serial number and
 * the certificate chain in `x5c`.
 * @see spec 2.7, 4.4
 */
import type { EmulatorContext } from '../context';

/**
 * Handles GET /jwks with `Content-Type: application/json` and `Cache-Control: public,
 * max-age=86400` (4.4). Every published key is listed (the current one, those retiring, and the
 * next one, published ahead), in an order drawn anew for each response: 4.4 tells clients never
 * to rely on the order or the count, and a client that takes the first key fails here at once
 * rather than at staging.
 * @see spec 2.7, 4.4; DECISIONS.md "Keys"
 */
export async function jwksEndpoint(_request: Request, context: EmulatorContext): Promise<Response> {
  const ring = await context.signingKeys();
  return new Response(JSON.stringify({ keys: shuffled(ring.published().map((key) => key.publicJwk)) }), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=86400' },
  });
}

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
