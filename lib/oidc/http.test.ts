import { describe, expect, it } from 'vitest';
import { readBoundedText as readBodyText } from './http';

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
});
