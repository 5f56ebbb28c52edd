import { services } from '@/lib/server/services';

/**
 * The embedded emulator (emulator mode only): every request is handed to lib/emulator as it is.
 * In provider mode these routes answer 404 (docs/operations.md "Against staging (provider mode)").
 */
async function handle(request: Request): Promise<Response> {
  const { emulator } = await services();
  if (!emulator) return Response.json({ error: 'not_found' }, { status: 404 });
  return emulator.handle(request);
}

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const DELETE = handle;
export const PATCH = handle;
