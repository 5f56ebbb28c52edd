import { describe, expect, it } from 'vitest';
import { IdvError } from '@/lib/oidc';
import { AppError, isAppError, quoteInput } from './failures';

describe('isAppError', () => {
  it('recognises an AppError, also one from another copy of this module (by its brand), and nothing else', () => {
    expect(isAppError(new AppError('forbidden_origin', 'from another site'))).toBe(true);
    expect(isAppError({ brand: 'AppError', code: 'invalid_selection' })).toBe(true);
    expect(isAppError(new IdvError('state_mismatch', 'no'))).toBe(false);
    expect(isAppError(new Error('other'))).toBe(false);
    expect(isAppError(null)).toBe(false);
  });
});

describe('quoteInput', () => {
  it('quotes a short plain token, and describes anything else only by its length', () => {
    expect(quoteInput('shoe_size')).toBe('"shoe_size"');
    expect(quoteInput('x'.repeat(16_000))).toBe('a value of 16000 characters');
    expect(quoteInput('x'.repeat(41))).toBe('a value of 41 characters');
    expect(quoteInput('Your session expired. Call 555 0100')).toBe('a value of 35 characters');
    expect(quoteInput('<script>')).toBe('a value of 8 characters');
    expect(quoteInput('')).toBe('a value of 0 characters');
  });
});
