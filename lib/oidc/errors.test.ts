import { describe, expect, it } from 'vitest';
import { IdvError, isIdvError, oauthError } from './errors.ts';

describe('isIdvError', () => {
  it('recognises an IdvError from another copy of the module (per-route bundles)', async () => {
    const copy = (await import(`./errors?copy=${Date.now()}`)) as typeof import('./errors.ts');
    expect(copy.IdvError).not.toBe(IdvError);
    const foreign = new copy.IdvError('id_token_key_not_found', 'x');
    expect(foreign instanceof IdvError).toBe(false);
    expect(isIdvError(foreign)).toBe(true);
  });

  it('does not take a look-alike plain object or another error for one', () => {
    expect(isIdvError({ name: 'IdvError', code: 'access_denied' })).toBe(false);
    expect(isIdvError(new Error('x'))).toBe(false);
  });
});

describe('oauthError', () => {
  it('keeps a known code and puts an unknown one in the cause', () => {
    expect(oauthError('access_denied', 'cancelled', 400)).toMatchObject({ code: 'access_denied', cause: { description: 'cancelled', status: 400 } });
    expect(oauthError('made_up', undefined)).toMatchObject({ code: 'unknown_oauth_error', cause: { error: 'made_up' } });
  });
});
