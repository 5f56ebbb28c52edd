/**
 * The QA panel's sign-in limits are per client address, on the real built app: while one address
 * guesses (and is made to wait), QA signs in from another at once, in a browser and through the
 * conformance kit's own sign-in. Linux routes all of 127.0.0.0/8 to loopback, so the guesses come
 * from 127.0.0.2 (the request's local address) and the app, with no proxy in front, counts them
 * by the connection's address (lib/server/client-address.ts).
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect, test } from '@playwright/test';
import { EmulatorQa } from '../conformance/emulator-qa';
import { FREE_WRONG_PASSWORDS } from '../lib/emulator/qa/panel-access';
import { freePort, startAppServer } from '../test/support/app-server';

const PASSWORD = randomBytes(18).toString('base64url');

/** POSTs the panel's sign-in form from `localAddress`, as a browser on that address would. */
function signInFrom(localAddress: string, app: string, password: string): Promise<{ status: number; retryAfter?: string; cookie?: string }> {
  const body = new URLSearchParams({ action: 'sign_in', password }).toString();
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      `${app}/emulator/panel`,
      { method: 'POST', localAddress, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.once('end', () =>
          resolve({
            status: response.statusCode!,
            ...(response.headers['retry-after'] ? { retryAfter: response.headers['retry-after'] } : {}),
            ...(response.headers['set-cookie'] ? { cookie: response.headers['set-cookie'][0]!.split(';')[0]! } : {}),
          }),
        );
      },
    );
    sent.once('error', reject);
    sent.end(body);
  });
}

test('while 127.0.0.2 guesses the panel password and is made to wait, QA on 127.0.0.1 signs in at once, in a browser and through the conformance kit', async ({
  page,
  request,
}) => {
  const port = await freePort();
  const app = `http://127.0.0.1:${port}`;
  const server = startAppServer(port, {
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-panel-sign-in',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    EMULATOR_PANEL_PASSWORD: PASSWORD,
  });
  try {
    await expect
      .poll(
        () =>
          request.get(`${app}/readyz`).then(
            (response) => response.status(),
            () => 0,
          ),
        { timeout: 30_000, message: server.output() },
      )
      .toBe(200);

    // The guesser: three free wrong passwords, a fourth that makes it wait 2 s (refused meanwhile,
    // 429), and two more after its waits, which make it wait 8 s: time enough for QA below.
    for (let wrong = 0; wrong <= FREE_WRONG_PASSWORDS; wrong++) {
      expect((await signInFrom('127.0.0.2', app, `guess ${wrong} guess guess`)).status).toBe(403);
    }
    for (const wait of [2, 4]) {
      expect(await signInFrom('127.0.0.2', app, 'another guess guess')).toMatchObject({ status: 429, retryAfter: String(wait) });
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      expect((await signInFrom('127.0.0.2', app, `guess after ${wait} s guess`)).status).toBe(403);
    }
    expect(await signInFrom('127.0.0.2', app, 'another guess guess')).toMatchObject({ status: 429, retryAfter: '8' });

    // QA, on 127.0.0.1, in a browser: signed in at once.
    await page.goto(`${app}/emulator`);
    await page.getByLabel('Panel password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('panel-access')).toHaveAttribute('data-access', 'signed-in');

    // And the conformance kit's sign-in (the same gate), which then reads the QA API.
    await new EmulatorQa(request, `${app}/emulator`).signIn(PASSWORD);
    expect((await request.get(`${app}/emulator/qa/clients/demo-relying-party`)).status()).toBe(200);

    // QA's right password ended no one's wait but its own: the guesser, with the right password, still waits.
    const stillWaiting = await signInFrom('127.0.0.2', app, PASSWORD);
    expect(stillWaiting.status).toBe(429);
    expect(stillWaiting.cookie).toBeUndefined();
  } finally {
    server.kill('SIGKILL');
  }
});
