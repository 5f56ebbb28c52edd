import { services } from '@/lib/server/services';

/**
 * The embedded emulator (emulator mode only): every request is handed to lib/emulator as it is.
 * In provider mode these routes answer 404 (docs/operations.md "Against staging (provider mode)").
 */
async function handle(request: Request): Promise<Response> {
  const { emulator } = await services();
  if (!emulator) {
    return Response.json(
      { error: 'not_found', error_description: 'no embedded emulator in provider mode' },
      { status: 404, headers: { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'" } },
    );
  }
  return emulator.handle(request);
}

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const DELETE = handle;
export const PATCH = handle;
