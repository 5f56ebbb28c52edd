import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION } from '@/lib/oidc';
import { readStartForm } from './selection-form';

describe('readStartForm (POST /auth/start)', () => {
  const post = (body: string, contentType?: string) =>
    new Request('http://localhost:3000/auth/start', { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} });

  it('reads an urlencoded form, and an empty body of any type as the default selection', async () => {
    expect((await readStartForm(post('trust_framework=standard&claim=birthdate', 'application/x-www-form-urlencoded'))).selection.claims).toEqual({
      birthdate: { essential: false },
    });
    expect((await readStartForm(post('', 'text/plain'))).selection).toBe(DEFAULT_SELECTION);
  });

  it('refuses a body of another type and a body over 16 KiB with invalid_selection', async () => {
    await expect(readStartForm(post('{"claim":"name"}', 'application/json'))).rejects.toMatchObject({
      code: 'invalid_selection',
      detail: { kind: 'form_not_urlencoded' },
    });
    await expect(readStartForm(post(`claim=${'x'.repeat(17 * 1024)}`, 'application/x-www-form-urlencoded'))).rejects.toMatchObject({
      code: 'invalid_selection',
      message: 'The start form is too large',
      detail: { kind: 'form_too_large', form: 'start', maxBytes: 16 * 1024 },
    });
  });
});
