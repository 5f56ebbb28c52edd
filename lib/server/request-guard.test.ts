import { createServer, request as httpRequest, Server, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardRequests, headersToDrop, isRouterStateTree, refusalOf, validByteRanges } from './request-guard';

describe('refusalOf: what Next.js would answer with a 500 of its own', () => {
  it('refuses a method no route has with 405 and Allow, whatever the path', () => {
    for (const method of ['TRACE', 'TRACK', 'CONNECT', 'PROPFIND']) {
      expect(refusalOf(method, '/')).toMatchObject({ status: 405, body: { error: 'method_not_allowed' }, headers: { Allow: expect.stringContaining('GET') } });
    }
    for (const method of ['GET', 'head', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) expect(refusalOf(method, '/')).toBeUndefined();
  });

  it('refuses an emulator path that is not percent-encoded UTF-8 with the emulator’s 400, and only there', () => {
    for (const url of ['/emulator/%E0', '/emulator/app/%E0?x=1', '/emulator/%2', '/emulator%E0'.replace('%E0', '/%C3%28')]) {
      expect(refusalOf('GET', url), url).toEqual({
        status: 400,
        body: { error: 'invalid_request', error_description: 'the path is not percent-encoded UTF-8' },
      });
    }
    for (const url of ['/emulator/app/%C3%A6', '/emulator/jwks?x=%E0', '/%E0', '/emulatorx/%E0']) expect(refusalOf('GET', url), url).toBeUndefined();
  });
});

describe('headersToDrop', () => {
  it('drops a Range with no satisfiable form and keeps a valid one (RFC 9110 §14.1.1)', () => {
    for (const range of ['bytes=5-1', 'bytes=-', 'bytes=x-y', 'lines=1-2', 'bytes=0-1,5-1']) expect(validByteRanges(range), range).toBe(false);
    for (const range of ['bytes=0-9', 'bytes=5-', 'bytes=-5', 'bytes=0-0, 4-9']) expect(validByteRanges(range), range).toBe(true);
    expect(headersToDrop({ range: 'bytes=5-1' })).toEqual(['range']);
    expect(headersToDrop({ range: 'bytes=0-9' })).toEqual([]);
  });

  it('drops the router’s headers with a state tree Next.js cannot read, and keeps a tree its router sends', () => {
    const sent = encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}, null, null] }, null, null, 1]));
    const dynamic = encodeURIComponent(JSON.stringify(['', { children: [['id', 'x', 'd', null], {}] }]));
    expect(isRouterStateTree(sent)).toBe(true);
    expect(isRouterStateTree(dynamic)).toBe(true);
    for (const tree of [
      '%7Bbad',
      '%5B%5D',
      encodeURIComponent('["",{"children":[1,{}]}]'),
      encodeURIComponent('["",{},null,"nonsense"]'),
      'x'.repeat(50_000),
    ]) {
      expect(isRouterStateTree(tree), tree.slice(0, 20)).toBe(false);
    }
    expect(headersToDrop({ rsc: '1', 'next-router-state-tree': '%7Bbad' })).toEqual([
      'next-router-state-tree',
      'rsc',
      'next-router-prefetch',
      'next-router-segment-prefetch',
    ]);
    expect(headersToDrop({ rsc: '1', 'next-router-state-tree': sent })).toEqual([]);
  });
});

describe('isRouterStateTree: the shape Next.js reads, each part checked', () => {
  const tree = (node: unknown) => encodeURIComponent(JSON.stringify(node));
  it.each([
    ['a segment tuple of the wrong length', ['', { children: [['id', 'x', 'd'], {}] }]],
    ['a segment tuple with a non-string part', ['', { children: [['id', 1, 'd', null], {}] }]],
    ['a segment tuple whose siblings are not strings', ['', { children: [['id', 'x', 'd', [1]], {}] }]],
    ['children as an array', ['', []]],
    ['children missing', ['']],
    ['a url that is not a pair of strings', ['', {}, ['a']]],
    ['a refresh marker it does not know', ['', {}, null, 'nonsense']],
    ['a root layout that is not a number', ['', {}, null, null, true]],
    ['a prefetch that is not a string', ['', {}, null, null, 1, 2]],
    ['seven members', ['', {}, null, null, 1, 'x', 'y']],
    ['a child that is no tree', ['', { children: 'x' }]],
  ])('refuses %s', (_what, node) => {
    expect(isRouterStateTree(tree(node))).toBe(false);
  });

  it.each([
    ['the least', ['', {}]],
    ['every member', ['', {}, ['/a', 'b'], 'refetch', 1, 'p']],
    ['nulls where allowed', ['', {}, null, null, null]],
    ['each refresh marker', ['', { a: ['x', {}, null, 'inside-shared-layout'], b: ['y', {}, null, 'metadata-only'] }]],
    ['a dynamic segment with siblings', ['', { children: [['id', 'x', 'd', ['a', 'b']], {}] }]],
  ])('takes %s', (_what, node) => {
    expect(isRouterStateTree(tree(node))).toBe(true);
  });

  it('refuses a tree nested deeper than 100 levels (checked without exhausting the stack), and a header over 40,000 characters', () => {
    const nested = (levels: number) => `${'["",{"c":'.repeat(levels)}["",{}]${'}]'.repeat(levels)}`;
    expect(isRouterStateTree(nested(100))).toBe(true);
    expect(isRouterStateTree(nested(101))).toBe(false);
    expect(isRouterStateTree(nested(3300))).toBe(false);
    expect(isRouterStateTree(`${tree(['', {}])}${' '.repeat(40_000)}`)).toBe(false);
  });
});

describe('guardRequests: on a real HTTP server', () => {
  let seen: { method: string; url: string; headers: IncomingHttpHeaders; rawHeaders: string[] }[] = [];
  let port = 0;
  const server = createServer((request, response) => {
    seen.push({ method: request.method!, url: request.url!, headers: request.headers, rawHeaders: request.rawHeaders });
    response.end('handled');
  });
  beforeAll(async () => {
    guardRequests(Server);
    guardRequests(Server); // once per process, however often it is asked
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  /** A request as a client sends it; the answer's status, headers and body. */
  function send(method: string, path: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      });
      request.on('error', reject);
      request.end();
    });
  }

  it('answers TRACE and an undecodable emulator path itself, as JSON that nothing may sniff, load or frame; the handler never sees them', async () => {
    seen = [];
    const trace = await send('TRACE', '/');
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expect(JSON.parse(trace.body)).toEqual({ error: 'method_not_allowed', error_description: 'method TRACE is not allowed' });
    const path = await send('GET', '/emulator/%E0');
    expect(path.status).toBe(400);
    expect(JSON.parse(path.body)).toMatchObject({ error: 'invalid_request' });
    for (const answer of [trace, path]) {
      expect(answer.headers).toMatchObject({
        'content-type': 'application/json',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'cache-control': 'no-store',
      });
    }
    expect(seen).toEqual([]);
  });

  it('hands on the rest, without the headers Next.js would fail on, in the parsed and the raw headers', async () => {
    seen = [];
    expect((await send('GET', '/emulator/jwks', { Range: 'bytes=5-1', RSC: '1', 'Next-Router-State-Tree': '%7Bbad', 'X-Kept': 'yes' })).body).toBe('handled');
    expect((await send('GET', '/x', { Range: 'bytes=0-9' })).body).toBe('handled');
    const [cleaned, kept] = seen;
    for (const name of ['range', 'rsc', 'next-router-state-tree']) {
      expect(cleaned!.headers[name], name).toBeUndefined();
      expect(
        cleaned!.rawHeaders.map((header) => header.toLowerCase()),
        name,
      ).not.toContain(name);
    }
    expect(cleaned!.headers['x-kept']).toBe('yes');
    expect(kept!.headers.range).toBe('bytes=0-9');
  });
});
