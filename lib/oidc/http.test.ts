import { describe, expect, it } from 'vitest';
import { cacheLifetimeSeconds, readBoundedText as readBodyText } from './http.ts';

function chunked(chunks: string[]): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  return new Request('http://app.test/auth/start', { method: 'POST', body, duplex: 'half' } as RequestInit);
}

describe('readBoundedText', () => {
  it('reads a body within the limit', async () => {
    expect(await readBodyText(chunked(['claim=', 'name']), 100)).toBe('claim=name');
  });

  it('stops reading a chunked body without Content-Length once it passes the limit', async () => {
    expect(await readBodyText(chunked(['a'.repeat(60), 'b'.repeat(60)]), 100)).toBeUndefined();
  });

  it('counts bytes, not characters', async () => {
    expect(await readBodyText(chunked(['é'.repeat(60)]), 100)).toBeUndefined();
  });

  it('refuses a declared length over the limit without reading', async () => {
    const request = new Request('http://app.test/', { method: 'POST', body: 'x', headers: { 'content-length': '1000000' } });
    expect(await readBodyText(request, 100)).toBeUndefined();
  });

  it('gives up on a clone over the limit at once, while the original is still unread', async () => {
    const response = new Response('y'.repeat(300));
    // Cancelling one branch of a teed body settles only when the other is cancelled too: not awaited.
    expect(await readBodyText(response.clone(), 100)).toBeUndefined();
    expect(await response.text()).toHaveLength(300);
  });
});

describe('cacheLifetimeSeconds (RFC 9111 §5.2.2)', () => {
  const lifetime = (cacheControl: string | undefined) =>
    cacheLifetimeSeconds(new Response('', { headers: cacheControl === undefined ? {} : { 'cache-control': cacheControl } }), 42);

  it.each([
    [undefined, 42],
    ['max-age=86400', 86_400],
    ['public, MAX-AGE=600', 600],
    ['no-store', 0],
    ['max-age=600, no-cache', 0],
    ['private', 42],
    ['max-age=-5', 42],
    ['max-age="600"', 42],
  ])('Cache-Control %s → %s s', (cacheControl, seconds) => {
    expect(lifetime(cacheControl)).toBe(seconds);
  });

  it('caps a lifetime at a day, however large the number', () => {
    expect(lifetime(`max-age=${'9'.repeat(400)}`)).toBe(86_400);
    expect(lifetime('max-age=31536000')).toBe(86_400);
  });
});
