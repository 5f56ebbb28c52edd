import { describe, expect, it } from 'vitest';
import { reusedFor } from './doctor-cache';

describe('reusedFor (GET /doctor at most one fresh report per 15 s)', () => {
  it('gives the same result until it is 15 s old, then makes a new one', () => {
    let clock = 0;
    let made = 0;
    const report = reusedFor(
      15_000,
      () => (made += 1),
      () => clock,
    );
    expect([report(), report()]).toEqual([1, 1]);
    clock = 14_999;
    expect(report()).toBe(1);
    clock = 15_000;
    expect(report()).toBe(2);
  });
});
