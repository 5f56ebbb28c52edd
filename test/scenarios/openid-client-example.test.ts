/**
 * examples/openid-client/: the `exp` of its EdDSA client assertions, made a second apart within
 * their lifetime, as the core's are (lib/oidc/client-assertion.ts).
 */
import { describe, expect, it } from 'vitest';
import { claimAssertionExp } from '@/examples/openid-client/service-client';

describe('claimAssertionExp', () => {
  it('gives a burst distinct seconds, latest first, all within the lifetime and more than 30 s ahead, then refuses', () => {
    const used = new Set<number>();
    const now = 1_800_000_000;
    const exps = Array.from({ length: 29 }, () => claimAssertionExp(used, now + 60, now));
    expect(exps).toEqual(Array.from({ length: 29 }, (_, index) => now + 60 - index));
    expect(claimAssertionExp(used, now + 60, now)).toBe(now + 31);
    expect(() => claimAssertionExp(used, now + 60, now)).toThrow(/has made a client assertion for every second it may use until/);
    // A second later, one second more is free, and the past ones are forgotten.
    expect(claimAssertionExp(used, now + 61, now + 1)).toBe(now + 61);
    expect(() => claimAssertionExp(used, now + 61, now + 1)).toThrow();
    expect(claimAssertionExp(used, now + 120, now + 60)).toBe(now + 120);
    expect([...used].every((second) => second > now + 60)).toBe(true);
  });
});
