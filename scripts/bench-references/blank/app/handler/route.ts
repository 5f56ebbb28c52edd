/** GET /handler: a route handler doing nothing (Next.js's floor for a route handler). */
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return new Response(null, { status: 204 });
}
