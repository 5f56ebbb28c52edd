import { describe, expect, it } from 'vitest';
import { IdvError } from '@/lib/oidc';
import { AppError, failureLink, FAILURE_CODES, isAppError, knownFailureCode, quoteInput, readFailureLink, refusalStatus, sentValue } from './failures';

describe('isAppError', () => {
  it('recognises an AppError, also one from another copy of this module (by its brand), and nothing else', () => {
    expect(isAppError(new AppError('forbidden_origin', 'from another site', { kind: 'cross_site', action: 'start', app: 'http://localhost:3000' }))).toBe(true);
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

describe('sentValue', () => {
  it('keeps a short plain token as it is, and anything else only by its length, as quoteInput quotes them', () => {
    expect(sentValue('shoe_size')).toEqual({ text: 'shoe_size' });
    expect(sentValue('x'.repeat(40))).toEqual({ text: 'x'.repeat(40) });
    expect(sentValue('x'.repeat(41))).toEqual({ length: 41 });
    expect(sentValue('x'.repeat(16_000))).toEqual({ length: 16_000 });
    expect(sentValue('Your session expired. Call 555 0100')).toEqual({ length: 35 });
    expect(sentValue('<script>')).toEqual({ length: 8 });
    expect(sentValue('')).toEqual({ length: 0 });
  });
});

describe('knownFailureCode', () => {
  it('knows every code and nothing else, whatever the object’s prototype says', () => {
    for (const code of FAILURE_CODES) expect(knownFailureCode(code)).toBe(code);
    expect(knownFailureCode('no_such_code')).toBeUndefined();
    expect(knownFailureCode('toString')).toBeUndefined();
    expect(knownFailureCode(undefined)).toBeUndefined();
  });
});

describe('the failure page’s link', () => {
  it('carries the code, the record’s id and a refusal’s wait, and reads them back', () => {
    const link = failureLink({ code: 'rate_limited', id: 'abc_123', retryAfterSeconds: 30 });
    expect(link).toBe('/failure?code=rate_limited&id=abc_123&retry_after=30');
    expect(readFailureLink(new URL(link, 'http://x').searchParams)).toEqual({ code: 'rate_limited', id: 'abc_123', retryAfterSeconds: 30 });
    expect(readFailureLink({ code: 'access_denied' })).toEqual({ code: 'access_denied' });
  });

  it('reads what anyone could write as no more than it can be: an unknown code as internal_error, a wait outside 1 s to an hour as none', () => {
    expect(readFailureLink({ code: 'Call 555 0100' })).toEqual({ code: 'internal_error' });
    expect(readFailureLink({})).toEqual({ code: 'internal_error' });
    for (const wait of ['0', '3601', '99999', '-5', '1.5', '30s', ' 30'])
      expect(readFailureLink({ code: 'rate_limited', retry_after: wait })).toEqual({ code: 'rate_limited' });
    expect(readFailureLink({ code: 'rate_limited', retry_after: '3600' }).retryAfterSeconds).toBe(3600);
    expect(readFailureLink({ code: 'rate_limited', retry_after: '1' }).retryAfterSeconds).toBe(1);
    expect(readFailureLink({ code: 'access_denied', id: 'x'.repeat(65) })).toEqual({ code: 'access_denied' });
    expect(readFailureLink({ code: 'access_denied', id: '<script>' })).toEqual({ code: 'access_denied' });
  });

  it('gives a refusal its status, 429 or 503, and every other failure none', () => {
    expect(refusalStatus('rate_limited')).toBe(429);
    expect(refusalStatus('store_full')).toBe(503);
    expect(refusalStatus('store_unavailable')).toBe(503);
    expect(refusalStatus('access_denied')).toBeUndefined();
    expect(refusalStatus('internal_error')).toBeUndefined();
  });
});
