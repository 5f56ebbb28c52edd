import { describe, expect, it } from 'vitest';
import { StoreError } from '@/lib/store/store';
import { failureRedirect } from './failures';
import { RateLimited } from './rate-limits';

describe('failureRedirect for a refusal', () => {
  it('sends a store error to the failure page with its code and its wait, recording nothing, whichever store refused', async () => {
    for (const [code, wait] of [
      ['store_full', 30],
      ['store_unavailable', 5],
    ] as const) {
      const response = await failureRedirect(new StoreError(code, 'the store’s own words', wait), new Request('http://localhost/auth/start'));
      expect(response.status).toBe(303);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const location = new URL(response.headers.get('location')!);
      expect(location.pathname).toBe('/failure');
      expect(Object.fromEntries(location.searchParams)).toEqual({ code, retry_after: String(wait) });
    }
  });

  it('sends a start over the rate limits there with rate_limited and its wait', async () => {
    const response = await failureRedirect(new RateLimited(42, 'address'), new Request('http://localhost/auth/start'));
    expect(Object.fromEntries(new URL(response.headers.get('location')!).searchParams)).toEqual({ code: 'rate_limited', retry_after: '42' });
  });
});
