import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, Server, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_CONTENT_POLICY } from '@/lib/emulator';
import { guardRequests, satisfiable, staticFilesIn } from './request-guard';

/** A folder laid out as the standalone server's: a public file and a built script. */
const folder = mkdtempSync(join(tmpdir(), 'request-guard-'));
mkdirSync(join(folder, 'public', 'icons'), { recursive: true });
mkdirSync(join(folder, '.next', 'static', 'chunks'), { recursive: true });
writeFileSync(join(folder, 'public', 'icons', 'icon.png'), 'an icon of 20 bytes!');
writeFileSync(join(folder, '.next', 'static', 'chunks', 'app.js'), 'console.log(1);');

/** What the handler behind the guard saw. */
const handled: string[] = [];
let port: number;
const server = createServer();

beforeAll(async () => {
  class GuardedServer extends Server {}
  guardRequests(GuardedServer, staticFilesIn(folder));
  guardRequests(GuardedServer, staticFilesIn(folder));
  Object.setPrototypeOf(server, GuardedServer.prototype);
  // The handler behind the guard: JSON for /json, text otherwise.
  server.on('request', (request, response) => {
    handled.push(`${request.method} ${request.url}`);
    if (request.url === '/json') {
      response.setHeader('Content-Type', 'application/json');
      response.setHeader('Content-Security-Policy', "default-src 'self'");
      response.end('{}');
    } else if (request.url === '/json-in-write-head') {
      response.writeHead(200, ['Content-Type', 'application/problem+json']).end('{}');
    } else {
      response.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>handled');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

function ask(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** Sends `raw` bytes on a connection of their own; resolves with what came back. */
function askRaw(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function expectOwnHeaders(headers: IncomingHttpHeaders): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toBe(NO_CONTENT_POLICY);
}

describe('guardRequests: what Next.js would answer with a 500 is refused before it', () => {
  it('TRACE (a method Fetch forbids): 405, with the methods the server answers', async () => {
    const answer = await ask('TRACE', '/');
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS');
    expectOwnHeaders(answer.headers);
    expect(handled).not.toContain('TRACE /');
  });

  it('a path under /emulator that is not percent-encoded UTF-8: the emulator’s JSON error, 400 invalid_request', async () => {
    for (const path of ['/emulator/%E0', '/emulator/app/%E0', '/emulator/qa/clients/%ED%A0%80', '/emulator/%']) {
      const answer = await ask('GET', path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('not percent-encoded UTF-8') });
      expect(answer.headers['cache-control']).toBe('no-store');
      expectOwnHeaders(answer.headers);
    }
    // What can be decoded, and paths elsewhere, go on.
    await ask('GET', '/emulator/app/a%20b');
    await ask('GET', '/x%E0');
    expect(handled).toEqual(expect.arrayContaining(['GET /emulator/app/a%20b', 'GET /x%E0']));
  });

  it('an RSC request with a Next-Router-State-Tree that cannot be read: 400; one that can, or no RSC request, goes on', async () => {
    for (const tree of ['garbage', '%E0', '[]', '1']) {
      const answer = await ask('GET', '/page', { RSC: '1', 'Next-Router-State-Tree': tree });
      expect(answer.status, tree.slice(0, 20)).toBe(400);
      expectOwnHeaders(answer.headers);
    }
    const tree = encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}] }, null, null]));
    await ask('GET', '/readable', { RSC: '1', 'Next-Router-State-Tree': tree });
    await ask('GET', '/not-rsc', { RSC: '0', 'Next-Router-State-Tree': 'garbage' });
    await ask('GET', '/rsc-without-tree', { RSC: '1' });
    expect(handled).toEqual(expect.arrayContaining(['GET /readable', 'GET /not-rsc', 'GET /rsc-without-tree']));
  });

  it('a static file: another method than GET or HEAD is 405 with Allow: GET, HEAD; a range outside it 416; a failed precondition 412', async () => {
    const icon = statSync(join(folder, 'public', 'icons', 'icon.png'));
    const etag = `W/"${icon.size.toString(16)}-${icon.mtime.getTime().toString(16)}"`;
    for (const [method, path, headers, status] of [
      ['POST', '/icons/icon.png', {}, 405],
      ['OPTIONS', '/_next/static/chunks/app.js', {}, 405],
      ['PUT', '/_next/image?url=%2Ficon.svg&w=64&q=75', {}, 405],
      ['GET', '/icons/icon.png', { Range: 'bytes=5-1' }, 416],
      ['GET', '/icons/icon.png', { Range: 'bytes=20-' }, 416],
      ['GET', '/_next/static/chunks/app.js', { Range: 'bytes=x' }, 416],
      ['HEAD', '/icons/icon.png', { Range: 'bytes=-0' }, 416],
      ['GET', '/icons/icon.png', { 'If-Match': '"other"' }, 412],
      ['GET', '/icons/icon.png', { 'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' }, 412],
    ] as const) {
      const answer = await ask(method, path, headers);
      expect(answer.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(status);
      expectOwnHeaders(answer.headers);
      if (status === 405) expect(answer.headers.allow).toBe('GET, HEAD');
      if (status === 416) expect(answer.headers['content-range']).toMatch(/^bytes \*\/(20|15)$/);
    }
    // What the file server answers itself: a range in the file, one with If-Range, a precondition met, a GET, a file that is not there.
    handled.length = 0;
    for (const [path, headers] of [
      ['/icons/icon.png', { Range: 'bytes=0-1' }],
      ['/icons/icon.png', { Range: 'bytes=5-1', 'If-Range': '"x"' }],
      ['/icons/icon.png', { Range: 'items=5-1' }],
      ['/icons/icon.png', { 'If-Match': '*' }],
      ['/icons/icon.png', { 'If-Match': `"x", ${etag}` }],
      ['/icons/icon.png', { 'If-Unmodified-Since': 'Thu, 01 Jan 2099 00:00:00 GMT' }],
      // The file's own time (Last-Modified, in whole seconds) meets the condition.
      ['/icons/icon.png', { 'If-Unmodified-Since': icon.mtime.toUTCString() }],
      // The strong form of its tag: If-Match compares weakly here, as the file server does.
      ['/icons/icon.png', { 'If-Match': etag.slice(2) }],
      ['/icons/icon.png', { Range: 'xbytes=5-1' }],
      ['/_next/static/chunks/missing.js', { Range: 'bytes=5-1' }],
    ] as const) {
      expect((await ask('GET', path, headers)).status, `${path} ${JSON.stringify(headers)}`).toBe(200);
    }
    expect(handled).toHaveLength(10);
  });

  it('a write method on a path that names no static file (a page, a route, a file not in public/) goes on to Next.js', async () => {
    handled.length = 0;
    for (const [method, path] of [
      ['POST', '/auth/start'],
      ['PUT', '/icons/missing.png'],
      ['DELETE', '/_next/imagery'],
    ] as const) {
      expect((await ask(method, path)).status, `${method} ${path}`).toBe(200);
    }
    expect(handled).toEqual(['POST /auth/start', 'PUT /icons/missing.png', 'DELETE /_next/imagery']);
  });

  it('every answer of the handler behind carries nosniff, and a JSON one the policy that loads nothing', async () => {
    const page = await ask('GET', '/page');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['content-security-policy']).toBeUndefined();
    for (const path of ['/json', '/json-in-write-head']) expectOwnHeaders((await ask('GET', path)).headers);
  });

  it('what Node answers itself (an Expect it does not meet, a request its parser refuses) carries the same headers', async () => {
    const expectation = await ask('GET', '/', { Expect: 'something' });
    expect(expectation.status).toBe(417);
    expectOwnHeaders(expectation.headers);
    const unknownMethod = await askRaw('FOO / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(unknownMethod).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(unknownMethod).toContain('X-Content-Type-Options: nosniff\r\n');
    const tooLarge = await askRaw(`GET / HTTP/1.1\r\nHost: x\r\nCookie: ${'c'.repeat(20_000)}\r\n\r\n`);
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(tooLarge).toContain(`Content-Security-Policy: ${NO_CONTENT_POLICY}\r\n`);
  });
});

describe('satisfiable: a bytes range as Next.js’s file server (send, range-parser) reads it', () => {
  it.each([
    ['bytes=0-0', true],
    ['bytes=0-1,2-3', true],
    ['bytes=19-', true],
    ['bytes=-5', true],
    ['bytes=5-100', true],
    ['bytes=5-1', false],
    ['bytes=20-', false],
    ['bytes=999999999-', false],
    ['bytes=-0', false],
    // A suffix longer than the file starts before it: range-parser refuses it, so send answers 416.
    ['bytes=-25', false],
    ['bytes=x', false],
    ['bytes=', false],
    ['bytes=5-1,30-40', false],
    ['bytes=5-1,0-0', true],
  ])('%s of 20 bytes: %s', (range, expected) => {
    expect(satisfiable(range, 20)).toBe(expected);
  });
});
