import { describe, expect, it } from 'vitest';
import { reusedFor } from './doctor-cache';

describe('reusedFor (GET /doctor at most one fresh report per 15 s)', () => {
  it('gives the same result until it is 15 s old, then makes a new one', async () => {
    let clock = 0;
    let made = 0;
    const report = reusedFor(15_000, async () => (made += 1), { now: () => clock });
    expect(await Promise.all([report(), report()])).toEqual([1, 1]);
    clock = 14_999;
    expect(await report()).toBe(1);
    clock = 15_000;
    expect(await report()).toBe(2);
  });

  it('keeps a failed result only retryAfterMs, so a service that is back shows so within seconds; a rejected one too', async () => {
    let clock = 0;
    const results = ['down', 'down', 'up', 'up'];
    let made = 0;
    const status = reusedFor(15_000, async () => results[made++]!, { failed: (result) => result === 'down', retryAfterMs: 2_000, now: () => clock });
    expect(await status()).toBe('down');
    clock = 1_999;
    expect(await status()).toBe('down');
    expect(made).toBe(1);
    clock = 2_000;
    expect(await status()).toBe('down');
    clock = 4_000;
    expect(await status()).toBe('up');
    // Once it is fine, 15 s again.
    clock = 18_999;
    expect(await status()).toBe('up');
    expect(made).toBe(3);
    let attempts = 0;
    const rejecting = reusedFor(15_000, () => Promise.reject(new Error(`attempt ${(attempts += 1)}`)), { retryAfterMs: 2_000, now: () => clock });
    await expect(rejecting()).rejects.toThrow('attempt 1');
    clock += 2_000;
    await expect(rejecting()).rejects.toThrow('attempt 2');
  });
});
