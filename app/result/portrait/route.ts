import { portraitResponse } from '@/lib/server/result-parts';

export const dynamic = 'force-dynamic';

/** GET /result/portrait: the portrait of this browser's verified identity. */
export function GET(): Promise<Response> {
  return portraitResponse();
}
