import { serverConfig } from '@/lib/server/configuration';

export const dynamic = 'force-dynamic';

/**
 * GET /demo-logo: the relying party's logo (IDV_DEMO_LOGO), for the header and the embedded
 * emulator's pages (the client's `logoUri`). The bytes checked at start-up as PNG, JPEG or WebP,
 * with that type and `nosniff`, so a browser never reads them as anything else; 404 without one.
 */
export async function GET(): Promise<Response> {
  const { logo } = (await serverConfig()).demo;
  if (!logo)
    return new Response('No demo logo is configured (IDV_DEMO_LOGO).\n', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' },
    });
  return new Response(logo.bytes.slice(), {
    headers: {
      'content-type': logo.contentType,
      'content-length': String(logo.bytes.length),
      'x-content-type-options': 'nosniff',
      // read once at start-up: the same bytes until a restart, which may bring another file
      'cache-control': 'public, max-age=3600',
    },
  });
}
