/**
 * IDV_COMPRESS: Next.js's `compress` option (gzip of pages and static files) decided when the
 * built server starts, not when it is built. The default compresses; `0` leaves it to a proxy in
 * front. Runs servers of its own (`npm start`, the standalone build).
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
function encodingOf(
  url: string,
  acceptEncoding = 'gzip',
): Promise<{ status: number; encoding: string | undefined; vary: string | undefined; location: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { headers: { 'accept-encoding': acceptEncoding } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const encoding = incoming.headers['content-encoding'];
        const body = Buffer.concat(chunks);
        resolve({
          status: incoming.statusCode!,
          encoding,
          vary: incoming.headers.vary,
          location: incoming.headers.location,
          text: (encoding === 'gzip' ? gunzipSync(body) : body).toString('utf8'),
        });
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
  await expect
    .poll(
      () =>
        fetch(`${app}/healthz`).then(
          (response) => response.status,
          () => 0,
        ),
      { timeout: 60_000 },
    )
    .toBe(200);
  return { server, app };
}

test('by default the server gzips a page, a shared link’s page and a script for a browser that accepts gzip; with IDV_COMPRESS=0 it sends them as they are', async () => {
  const [compressed, plain] = await Promise.all([started({}), started({ IDV_COMPRESS: '0' })]);
  try {
    // The home page names its scripts in `src` attributes.
    const script = /<script src="(\/_next\/static\/[^"]+\.js)"/.exec(await (await fetch(`${compressed.app}/`)).text())?.[1];
    expect(script).toBeDefined();
    for (const [{ app }, encoding] of [
      [compressed, 'gzip'],
      [plain, undefined],
    ] as const) {
      for (const path of ['/', '/?preset=full-kyc', script!]) {
        const answer = await encodingOf(`${app}${path}`);
        expect(answer, `${path}`).toMatchObject({ status: 200, encoding });
        if (path !== script) expect(answer.text).toContain('action="/auth/start"');
      }
      // A browser that refuses gzip (q=0) gets the page as it is.
      expect(await encodingOf(`${app}/`, 'gzip;q=0, identity')).toMatchObject({ status: 200, encoding: undefined });
    }
  } finally {
    compressed.server.kill('SIGKILL');
    plain.server.kill('SIGKILL');
  }
});

test('IDV_COMPRESS other than 1 or 0 stops `npm start` before the server starts, naming the variable', async () => {
  const server = startAppServer(await freePort(), { IDV_COMPRESS: 'off' });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain(
    '[idv] configuration error: IDV_COMPRESS must be 1 (Next.js compresses its responses, the default) or 0 (a proxy in front compresses them) (it is "off")',
  );
});
