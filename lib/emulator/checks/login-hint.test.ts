import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../errors';
import { MAX_LOGIN_HINT_LENGTH, checkLoginHint } from './login-hint';

describe('checkLoginHint', () => {
  it('takes an absent or empty hint as no hint (RFC 6749 §3.1: a parameter without a value is omitted)', () => {
    expect(checkLoginHint(undefined, 'parameter')).toBeUndefined();
    expect(checkLoginHint('', 'parameter')).toBeUndefined();
  });

  it('keeps a hint of exactly the longest length, and refuses one character more', () => {
    expect(checkLoginHint('x'.repeat(MAX_LOGIN_HINT_LENGTH), 'parameter')).toBe('x'.repeat(MAX_LOGIN_HINT_LENGTH));
    expect(() => checkLoginHint('x'.repeat(MAX_LOGIN_HINT_LENGTH + 1), 'request object claim')).toThrow(InvalidRequest);
  });

  it('refuses a value that is not a string, or holds a control character', () => {
    expect(() => checkLoginHint(42, 'parameter')).toThrow("parameter 'login_hint' must be a string");
    expect(() => checkLoginHint('lars\u0000', 'parameter')).toThrow('must not contain control characters');
    expect(checkLoginHint('lars-eriksson', 'parameter')).toBe('lars-eriksson');
  });
});
