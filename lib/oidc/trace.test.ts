import { describe, expect, it } from 'vitest';
import { ProtocolTrace, type TraceExchange } from './trace.ts';
import type { FetchLike } from './types.ts';

/** A clock that moves 5 ms on each reading. */
function steppingClock(start = 1_000): () => number {
  let now = start - 5;
  return () => (now += 5);
}

const answering =
  (response: () => Response): FetchLike =>
  async () =>
    response();

describe('ProtocolTrace.fetchFor', () => {
  it('records method, URL, form, status, the kept headers and the body, and hands the response on unread', async () => {
    const trace = new ProtocolTrace([], steppingClock());
    const fetch = trace.fetchFor(
      'par',
      answering(() =>
        Response.json({ request_uri: 'urn:x', expires_in: 600 }, { status: 201, headers: { 'cache-control': 'no-store', 'x-other': 'dropped' } }),
      ),
    );
    const response = await fetch('https://idv.example/par', { method: 'post', body: new URLSearchParams({ client_id: 'c', request: 'jwt' }) });
    expect(await response.json()).toEqual({ request_uri: 'urn:x', expires_in: 600 });
    expect(trace.events).toEqual([
      {
        type: 'http',
        step: 'par',
        method: 'POST',
        url: 'https://idv.example/par',
        requestForm: { client_id: 'c', request: 'jwt' },
        status: 201,
        responseHeaders: { 'content-type': 'application/json', 'cache-control': 'no-store' },
        responseBody: '{"request_uri":"urn:x","expires_in":600}',
        startedAt: 1_000,
        durationMs: 5,
      },
    ]);
  });

  it('reads a form given as a string, and records no form for another body', async () => {
    const trace = new ProtocolTrace();
    const fetch = trace.fetchFor(
      'token',
      answering(() => new Response('{}')),
    );
    await fetch('https://idv.example/token', { method: 'POST', body: 'grant_type=authorization_code&code=abc' });
    await fetch(new Request('https://idv.example/jwks'));
    await fetch('https://idv.example/token', { method: 'POST', body: new Blob(['binary']) });
    const [form, request, blob] = trace.events as TraceExchange[];
    expect(form!.requestForm).toEqual({ grant_type: 'authorization_code', code: 'abc' });
    expect(request!.url).toBe('https://idv.example/jwks');
    expect(request!.method).toBe('GET');
    expect(blob!.requestForm).toBeUndefined();
  });

  it('records a failure without a response, with its duration, and rethrows it', async () => {
    const trace = new ProtocolTrace([], steppingClock(50));
    const failing: FetchLike = async () => {
      throw new TypeError('fetch failed');
    };
    await expect(trace.fetchFor('discovery', failing)('https://idv.example/.well-known/openid-configuration')).rejects.toThrow('fetch failed');
    const [exchange] = trace.events as TraceExchange[];
    expect(exchange).toMatchObject({ step: 'discovery', error: 'TypeError: fetch failed', startedAt: 50, durationMs: 5 });
    expect(exchange!.status).toBeUndefined();
  });

  it('cuts a large body, and says so for one too large to read', async () => {
    const trace = new ProtocolTrace();
    await trace.fetchFor(
      'token',
      answering(() => new Response('x'.repeat(150_000))),
    )('https://idv.example/token');
    await trace.fetchFor(
      'token',
      answering(() => new Response('y'.repeat(3 * 1024 * 1024))),
    )('https://idv.example/token');
    const [large, huge] = trace.events as TraceExchange[];
    expect(large!.responseBody).toHaveLength(100_000);
    expect(huge!.responseBody).toBe('(too large to record)');
  });
});

describe('ProtocolTrace notes', () => {
  it('records steps that did not go over the wire, and tells what was recorded since a point', () => {
    const trace = new ProtocolTrace([], () => 7);
    trace.note('authorization_redirect', { url: 'https://idv.example/auth?x=1' });
    const since = trace.events.length;
    expect(trace.recordedSince(since, 'jwks')).toBe(false);
    trace.note('jwks', { fromCache: true, url: 'https://idv.example/jwks' });
    expect(trace.recordedSince(since, 'jwks')).toBe(true);
    expect(trace.recordedSince(since, 'authorization_redirect')).toBe(false);
    expect(trace.events).toEqual([
      { type: 'note', step: 'authorization_redirect', at: 7, url: 'https://idv.example/auth?x=1' },
      { type: 'note', step: 'jwks', at: 7, fromCache: true, url: 'https://idv.example/jwks' },
    ]);
  });

  it('appends to the events it was given (a trace continued from a stored one)', () => {
    const stored = [{ type: 'note' as const, step: 'par' as const, at: 1 }];
    const trace = new ProtocolTrace(stored);
    trace.note('callback');
    expect(stored).toHaveLength(2);
  });
});
