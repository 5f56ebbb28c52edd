/** GET /healthz: the process is alive (nothing is checked; see /readyz). */
export function GET(): Response {
  return Response.json({ status: 'alive' }, { headers: { 'cache-control': 'no-store' } });
}
