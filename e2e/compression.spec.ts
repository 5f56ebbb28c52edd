/**
 * IDV_COMPRESS: Next.js's `compress` option (gzip of pages and static files) decided when the
 * built server starts, not when it is built. The default compresses; `0` leaves it to a proxy in
 * front. Runs servers of its own (`npm start`, the standalone build).
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';

/** The Content-Encoding and status of `url` asked for with `Accept-Encoding: gzip`, as a browser would. */
function encodingOf(url: string): Promise<{ status: number; encoding: string | undefined; vary: string | undefined }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { headers: { 'accept-encoding': 'gzip' } }, (incoming) => {
      incoming.resume();
      incoming.on('end', () => resolve({ status: incoming.statusCode!, encoding: incoming.headers['content-encoding'], vary: incoming.headers.vary }));
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
    for (const path of ['/', script!]) {
      expect(await encodingOf(`${compressed.app}${path}`)).toMatchObject({ status: 200, encoding: 'gzip' });
      expect(await encodingOf(`${plain.app}${path}`)).toMatchObject({ status: 200, encoding: undefined });
    }
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
