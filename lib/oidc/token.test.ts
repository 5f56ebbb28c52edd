import { describe, expect, it } from 'vitest';
import { processTokenResponse } from './token.ts';

describe('processTokenResponse (4.3, 2.5)', () => {
  it('returns id_token and expires_in from a 200', async () => {
    await expect(processTokenResponse(Response.json({ id_token: 'a.b.c.d.e', expires_in: 3600 }))).resolves.toEqual({
      idToken: 'a.b.c.d.e',
      expiresIn: 3600,
    });
  });

  it('turns an invalid_grant body into invalid_grant', async () => {
    await expect(processTokenResponse(Response.json({ error: 'invalid_grant' }, { status: 400 }))).rejects.toMatchObject({ code: 'invalid_grant' });
  });

  it('rejects a 200 without id_token', async () => {
    await expect(processTokenResponse(Response.json({ access_token: 'x' }))).rejects.toMatchObject({ code: 'id_token_missing' });
  });
});
