import { describe, expect, it } from 'vitest';
import { IdvError } from '@/lib/oidc';
import { AppError, isAppError } from './app-error';

describe('isAppError', () => {
  it('recognises an AppError, also one from another copy of this module (by its brand), and nothing else', () => {
    expect(isAppError(new AppError('forbidden_origin', 'from another site'))).toBe(true);
    expect(isAppError({ brand: 'AppError', code: 'invalid_selection' })).toBe(true);
    expect(isAppError(new IdvError('state_mismatch', 'no'))).toBe(false);
    expect(isAppError(new Error('other'))).toBe(false);
    expect(isAppError(null)).toBe(false);
  });
});
