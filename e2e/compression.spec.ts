/**
 * IDV_COMPRESS: Next.js's `compress` option (gzip of pages and static files) decided when the
 * built server starts, not when it is built. The default compresses; `0` leaves it to a proxy in
 * front. And the home page, gzipped once when it is kept (lib/server/home-page.ts), sent so to a
 * browser that accepts gzip, whatever IDV_COMPRESS says, and never gzipped twice. Runs servers of
 * its own (`npm start`, the standalone build).
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';

/**
 * The status, Content-Encoding and Vary of `url` asked for with `Accept-Encoding: gzip`, as a
 * browser would (or with `acceptEncoding`), and its body decoded as that encoding says.
 */
function encodingOf(url: string, acceptEncoding = 'gzip'): Promise<{ status: number; encoding: string | undefined; vary: string | undefined; location: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { headers: { 'accept-encoding': acceptEncoding } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const encoding = incoming.headers['content-encoding'];
        const body = Buffer.concat(chunks);
        resolve({ status: incoming.statusCode!, encoding, vary: incoming.headers.vary, location: incoming.headers.location, text: (encoding === 'gzip' ? gunzipSync(body) : body).toString('utf8') });
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

async function started(env: Record<string, string>): Promise<{ server: AppServer; app: string }> {
  const port = await freePort();
  const app = `http://127.0.0.1:${port}`;
  const server = startAppServer(port, {
    APP_URL: app,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_DATA_DIR: `.data/e2e-compression-${port}`,
    REDIS_URL: '',
    IDV_BASE_URL: '',
    ...env,
  });
  await expect.poll(() => fetch(`${app}/healthz`).then((response) => response.status, () => 0), { timeout: 60_000 }).toBe(200);
  return { server, app };
}

test('by default the server gzips a page and a script for a browser that accepts gzip; with IDV_COMPRESS=0 it sends them as they are', async () => {
  test.setTimeout(120_000);
  const [compressed, plain] = [await started({ IDV_COMPRESS: '' }), await started({ IDV_COMPRESS: '0' })];
  try {
    // The home page rendered per request (/home-page) names its scripts in `src` attributes.
    const script = /<script src="(\/_next\/static\/[^"]+\.js)"/.exec(await (await fetch(`${compressed.app}/home-page`)).text())?.[1];
    expect(script).toBeDefined();
    for (const path of ['/home-page', script!]) {
      expect(await encodingOf(`${compressed.app}${path}`)).toMatchObject({ status: 200, encoding: 'gzip' });
      expect(await encodingOf(`${plain.app}${path}`)).toMatchObject({ status: 200, encoding: undefined });
    }
  } finally {
    compressed.server.kill('SIGKILL');
    plain.server.kill('SIGKILL');
  }
});

test('the home page goes gzipped once, as it was kept, to a browser that accepts gzip, whatever IDV_COMPRESS says; as it is to one that does not', async () => {
  test.setTimeout(120_000);
  const [compressed, plain] = [await started({ IDV_COMPRESS: '' }), await started({ IDV_COMPRESS: '0' })];
  try {
    for (const { app } of [compressed, plain]) {
      // The header's badge settled first: a page kept while the service was still being checked
      // is another variant of the page (lib/server/service-health.ts), and a busy machine may
      // still be checking at the first request.
      await expect.poll(async () => (await encodingOf(`${app}/`, 'identity')).text.includes('data-state="checking"'), { timeout: 30_000 }).toBe(false);
      const [gzipped, asItIs] = [await encodingOf(`${app}/`), await encodingOf(`${app}/`, 'identity')];
      // Gzipped once: the body gunzips to the page itself (gzipped twice, it would gunzip to gzip).
      expect(gzipped).toMatchObject({ status: 200, encoding: 'gzip' });
      expect(gzipped.text).toMatch(/^<!DOCTYPE html>/);
      expect(gzipped.text).toContain('action="/auth/start"');
      expect(asItIs).toMatchObject({ status: 200, encoding: undefined });
      // The same page either way: the kept render, its scripts allowed by the same hashes.
      expect(asItIs.text).toBe(gzipped.text);
      for (const response of [gzipped, asItIs]) expect(response.vary).toContain('Accept-Encoding');
      // A browser that refuses gzip (q=0) gets it as it is.
      expect(await encodingOf(`${app}/`, 'gzip;q=0, identity')).toMatchObject({ status: 200, encoding: undefined });
    }
    // A link to a request is a page rendered for it (proxy.ts; on this APP_URL, through a redirect
    // to /home-page): never labelled gzip by next.config.mjs, Next.js encodes it as IDV_COMPRESS says.
    for (const [{ app }, encoding] of [[compressed, 'gzip'], [plain, undefined]] as const) {
      const link = await encodingOf(`${app}/?preset=full-kyc`);
      const page = link.status === 307 ? await encodingOf(new URL(link.location!, app).href) : link;
      expect(page).toMatchObject({ status: 200, encoding });
      expect(page.text).toContain('action="/auth/start"');
    }
    // Under another name of this server: the redirect to APP_URL, gzipped (empty) as next.config.mjs said.
    const elsewhere = await encodingOf(compressed.app.replace('127.0.0.1', 'localhost') + '/');
    expect(elsewhere).toMatchObject({ status: 307, encoding: 'gzip', text: '' });
  } finally {
    compressed.server.kill('SIGKILL');
    plain.server.kill('SIGKILL');
  }
});

test('IDV_COMPRESS other than 1 or 0 stops `npm start` before the server starts, naming the variable', async () => {
  const server = startAppServer(await freePort(), { IDV_COMPRESS: 'off' });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain('[idv] configuration error: IDV_COMPRESS must be 1 (Next.js compresses its responses, the default) or 0 (a proxy in front compresses them) (it is "off")');
});
