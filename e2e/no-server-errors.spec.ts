/**
 * Input that Next.js itself answers with a 500 of its own, answered with a 4xx (lib/server/request-guard.ts), and the
 * embedded emulator's answers, each with its security headers (lib/emulator/index.ts
 * `withSecurityHeaders`). Against the built app in emulator mode.
 */
import { expect, test, type APIResponse } from '@playwright/test';
import { EMULATOR_APP as APP } from './servers';

const NOTHING_ALLOWED = "default-src 'none'; frame-ancestors 'none'";

function expectNoContentHeaders(response: APIResponse, what: string): void {
  expect(response.headers()['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers()['content-security-policy'], what).toBe(NOTHING_ALLOWED);
}

test('TRACE on a page, a route handler, a static file or the emulator is 405, never 500', async ({ request }) => {
  for (const path of ['/', '/healthz', '/icon.svg', '/_next/static/x.js', '/emulator/jwks']) {
    const response = await request.fetch(`${APP}${path}`, { method: 'TRACE' });
    expect(response.status(), path).toBe(405);
    expect(response.headers().allow, path).toContain('GET');
    expectNoContentHeaders(response, path);
  }
});

test("a Range that lies outside a static file is 416 with the file's length (RFC 9110 §15.5.17), never a 500", async ({ request }) => {
  const whole = await request.get(`${APP}/icon.svg`);
  const length = (await whole.body()).length;
  for (const range of ['bytes=5-1', 'bytes=-', 'bytes=x-y', `bytes=${length}-`]) {
    const response = await request.get(`${APP}/icon.svg`, { headers: { Range: range } });
    expect(response.status(), range).toBe(416);
    expect(response.headers()['content-range'], range).toBe(`bytes */${length}`);
    expectNoContentHeaders(response, range);
  }
  // A range of another unit is ignored: the file comes whole. A valid range still gets its part.
  const lines = await request.get(`${APP}/icon.svg`, { headers: { Range: 'lines=1-2' } });
  expect(lines.status()).toBe(200);
  expect(await lines.body()).toEqual(await whole.body());
  expect((await request.get(`${APP}/icon.svg`, { headers: { Range: 'bytes=0-9' } })).status()).toBe(206);
});

test('an RSC request with a router state tree Next.js cannot read is 400, never a 500', async ({ request }) => {
  for (const tree of [
    '%7Bbad',
    '%5B%5D',
    encodeURIComponent('["",{"children":[1,{}]}]'),
    encodeURIComponent('["",{},null,"nonsense"]'),
    'x'.repeat(50_000),
    `${'["",{"c":'.repeat(3000)}["",{}]${'}]'.repeat(3000)}`,
  ]) {
    for (const path of ['/', '/nothing-here']) {
      const response = await request.get(`${APP}${path}`, { headers: { RSC: '1', 'Next-Router-State-Tree': tree } });
      // Past Node's 16 KiB of headers, its parser refuses the request itself.
      expect(response.status(), `${path} ${tree.slice(0, 30)}`).toBe(tree.length > 16_384 ? 431 : 400);
      expectNoContentHeaders(response, `${path} ${tree.slice(0, 30)}`);
    }
  }
  // A tree of the shape Next.js's router sends is kept: the answer is the RSC payload.
  const tree = encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}, null, null] }, null, null, 1]));
  const rsc = await request.get(`${APP}/doctor`, { headers: { RSC: '1', 'Next-Router-State-Tree': tree } });
  expect(rsc.status()).toBe(200);
  expect(rsc.headers()['content-type']).toContain('text/x-component');
});

test('a path under /emulator that is not percent-encoded UTF-8 is the emulator’s JSON 400, with its headers', async ({ request }) => {
  for (const path of ['/emulator/%E0', '/emulator/app/%E0', '/emulator/qa/clients/%E0', '/emulator/qa/faults/%C3%28', '/emulator/%2']) {
    const response = await request.get(`${APP}${path}`);
    expect(response.status(), path).toBe(400);
    expect(await response.json(), path).toEqual({
      error: 'invalid_request',
      error_description: `the path is not percent-encoded UTF-8 (RFC 3986 section 2.5): '${path}'`,
    });
    expectNoContentHeaders(response, path);
  }
});

test('the emulator’s JSON answers carry nosniff and a policy that allows nothing: discovery, the JWKS, the QA API, its 404 and 405', async ({ request }) => {
  const answers: [string, APIResponse][] = [
    ['discovery', await request.get(`${APP}/emulator/.well-known/openid-configuration`)],
    ['jwks', await request.get(`${APP}/emulator/jwks`)],
    ['qa', await request.get(`${APP}/emulator/qa/lock`)],
    ['404', await request.get(`${APP}/emulator/nothing-here`)],
    ['405', await request.delete(`${APP}/emulator/jwks`)],
  ];
  for (const [what, response] of answers) {
    expect(response.status(), what).toBeLessThan(500);
    expectNoContentHeaders(response, what);
  }
});
