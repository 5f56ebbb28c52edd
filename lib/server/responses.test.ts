import { describe, expect, it } from 'vitest';
import { StoreError } from '@/lib/store/store';
import { failureRedirect, storeRefusal } from './responses';

describe('storeRefusal', () => {
  it('answers 503 with Retry-After and a page that shows the stable code, never cached', async () => {
    const response = storeRefusal(new StoreError('store_full', 'the in-memory store is full', 30), 'en');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    expect(page).toContain('<code data-testid="error-code">store_full</code>');
    expect(page).toContain('Busy: try again shortly');
    expect(page).not.toContain('the in-memory store is full'); // the store's own words stay in the log
  });

  it('is what failureRedirect answers for a store error, whichever store refused', async () => {
    const response = await failureRedirect(new StoreError('store_unavailable', 'Redis did not answer', 5), new Request('http://localhost/auth/start'), 'en');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.text()).toContain('<code data-testid="error-code">store_unavailable</code>');
  });
});
