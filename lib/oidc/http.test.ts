import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isIdvError, type IdvError } from './errors.ts';
import { cacheLifetimeSeconds, readBoundedText as readBodyText, send } from './http.ts';

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

describe('send: a failed connection keeps its cause', () => {
  const servers: Server[] = [];
  /** A TCP server on 127.0.0.1 that does `onConnection` with each connection; its port. */
  async function listen(onConnection: Parameters<typeof createServer>[1]): Promise<number> {
    const server = createServer(onConnection);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }
  let closing: number;
  let silent: number;
  let plain: number;
  let nothing: number;
  beforeAll(async () => {
    // Closed once the request has come: closed before, Node 20's fetch may wait for its timeout
    // instead of failing (then `send` says timeout, as for a server that never answers).
    closing = await listen((socket) => socket.once('data', () => socket.destroy()));
    silent = await listen(() => undefined);
    plain = await listen((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'));
    // A port that was free a moment ago, with nothing listening on it now.
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    nothing = (free.address() as { port: number }).port;
    await new Promise((resolve) => free.close(resolve));
  });
  afterAll(() => {
    for (const server of servers) server.close();
  });

  async function failure(url: string, timeoutMs = 5000): Promise<IdvError> {
    const error: unknown = await send(url, {}, { allowInsecureRequests: true, timeoutMs }, 'The discovery endpoint').catch((caught: unknown) => caught);
    if (!isIdvError(error)) throw new Error(`expected an IdvError, got ${String(error)}`);
    return error;
  }

  it('a name that does not resolve: ENOTFOUND (or EAI_AGAIN without a resolver)', async () => {
    const error = await failure('https://idv.invalid/.well-known/openid-configuration');
    expect(error.code).toBe('network_error');
    expect(error.cause.transportCode).toMatch(/^(ENOTFOUND|EAI_AGAIN)$/);
    expect(error.message).toMatch(/^The discovery endpoint could not be reached: getaddrinfo (ENOTFOUND|EAI_AGAIN) idv\.invalid/);
  });

  it('a port with nothing listening: ECONNREFUSED', async () => {
    const error = await failure(`http://127.0.0.1:${nothing}/`);
    expect(error).toMatchObject({ code: 'network_error', cause: { transportCode: 'ECONNREFUSED', url: `http://127.0.0.1:${nothing}/` } });
    expect(error.message).toBe(`The discovery endpoint could not be reached: connect ECONNREFUSED 127.0.0.1:${nothing}`);
  });

  it('a server that closes the connection: the socket error, named', async () => {
    const error = await failure(`http://127.0.0.1:${closing}/`);
    expect(error).toMatchObject({ code: 'network_error', cause: { transportCode: 'UND_ERR_SOCKET', transportMessage: 'other side closed' } });
    expect(error.message).toBe('The discovery endpoint could not be reached: other side closed (UND_ERR_SOCKET)');
  });

  it('https to a server that speaks plain http: the TLS error', async () => {
    const error = await failure(`https://127.0.0.1:${plain}/`);
    expect(error).toMatchObject({ code: 'network_error', cause: { transportCode: 'ERR_SSL_WRONG_VERSION_NUMBER' } });
  });

  it('a server that never answers: timeout, after timeoutMs', async () => {
    const started = Date.now();
    const error = await failure(`http://127.0.0.1:${silent}/`, 300);
    expect(error).toMatchObject({ code: 'timeout', cause: { url: `http://127.0.0.1:${silent}/` } });
    expect(error.cause.transportCode).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a fetch that fails without a cause keeps its own words, and no code', async () => {
    const error: unknown = await send('https://idv.test/', {}, { fetch: () => Promise.reject(new TypeError('fetch failed')) }, 'The JWKS endpoint').catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'network_error', message: 'The JWKS endpoint could not be reached: fetch failed' });
    expect((error as IdvError).cause).toEqual({ url: 'https://idv.test/' });
  });
});
