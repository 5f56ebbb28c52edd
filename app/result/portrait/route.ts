import { portraitResponse } from '@/lib/server/result-parts';

export const dynamic = 'force-dynamic';

/** GET /result/portrait: the portrait of this browser's verified identity. */
export function GET(request: Request): Promise<Response> {
  return portraitResponse(new URL(request.url).searchParams);
}
