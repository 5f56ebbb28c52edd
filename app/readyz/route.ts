import { readiness } from '@/lib/server/health';

/** GET /readyz: 200 when this instance can serve verifications, else 503; JSON without secrets. */
export async function GET(): Promise<Response> {
  const result = await readiness();
  return Response.json(result, { status: result.status === 'ready' ? 200 : 503, headers: { 'cache-control': 'no-store' } });
}
