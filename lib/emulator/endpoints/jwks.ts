/**
 * GET /jwks: the public ID token signing keys, each with `kid` = certificate serial number and
 * the certificate chain in `x5c`.
 * @see spec 2.7, 4.4
 */
import type { EmulatorContext } from '../context';

/**
 * Handles GET /jwks with `Content-Type: application/json` and `Cache-Control: public,
 * max-age=86400` (4.4). Every published key is listed; clients select by `kid`.
 * @see spec 2.7, 4.4
 */
export async function jwksEndpoint(_request: Request, context: EmulatorContext): Promise<Response> {
  const ring = await context.signingKeys();
  return new Response(JSON.stringify({ keys: ring.published().map((key) => key.publicJwk) }), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=86400' },
  });
}
