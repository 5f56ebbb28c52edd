import { traceResponse } from '@/lib/server/result-parts';

export const dynamic = 'force-dynamic';

/** GET /result/trace: the protocol trace of this browser's verification, with every detail, as JSON. */
export function GET(): Promise<Response> {
  return traceResponse();
}
