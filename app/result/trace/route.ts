import { traceResponse } from '@/lib/server/result-parts';

export const dynamic = 'force-dynamic';

/** GET /result/trace: the protocol trace of this browser's verification, with every detail, as JSON (`?reveal=numbers`: unmasked). */
export function GET(request: Request): Promise<Response> {
  return traceResponse(new URL(request.url).searchParams);
}
