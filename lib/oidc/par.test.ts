import { describe, expect, it } from 'vitest';
import { processParResponse } from './par.ts';

describe('processParResponse (4.1, 2.4)', () => {
  it('returns request_uri and expires_in from a 201', async () => {
    const response = Response.json({ request_uri: 'urn:ietf:params:oauth:request_uri:abc', expires_in: 600 }, { status: 201 });
    await expect(processParResponse(response)).resolves.toEqual({ requestUri: 'urn:ietf:params:oauth:request_uri:abc', expiresIn: 600 });
  });

  it.each([
    ['invalid_request', 400],
    ['invalid_client', 401],
    ['unauthorized_client', 403],
    ['invalid_scope', 400],
    ['server_error', 500],
    ['temporarily_unavailable', 503],
  ] as const)('turns the part-7 error %s (%i) into an error with that code and the service’s description', async (error, status) => {
    const response = Response.json({ error, error_description: 'the service’s words' }, { status });
    await expect(processParResponse(response)).rejects.toMatchObject({ code: error, cause: { status, description: 'the service’s words' } });
  });

  it('keeps an unknown error code in the cause', async () => {
    const response = Response.json({ error: 'something_new' }, { status: 400 });
    await expect(processParResponse(response)).rejects.toMatchObject({ code: 'unknown_oauth_error', cause: { error: 'something_new' } });
  });

  it('maps a non-JSON failure to par_failed and a 200 to par_failed (201 is required)', async () => {
    await expect(processParResponse(new Response('<html>Bad gateway', { status: 502 }))).rejects.toMatchObject({ code: 'par_failed', cause: { status: 502 } });
    await expect(processParResponse(Response.json({ request_uri: 'x', expires_in: 600 }))).rejects.toMatchObject({ code: 'par_failed' });
  });

  it('rejects a 201 without request_uri or expires_in', async () => {
    await expect(processParResponse(Response.json({ expires_in: 600 }, { status: 201 }))).rejects.toMatchObject({ code: 'invalid_response' });
    await expect(processParResponse(Response.json({ request_uri: 'x' }, { status: 201 }))).rejects.toMatchObject({ code: 'invalid_response' });
  });
});
