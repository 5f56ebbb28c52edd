/**
 * The app under `npm run dev` (`next dev`), as a newcomer first meets it: no Next.js dev
 * indicator floats over the pages (it covered the ETSI preset and the masked-numbers notice on a
 * phone), while Next.js's dev tools are still loaded to show a build or runtime error
 * (`devIndicators: false` in next.config.mjs,
 * https://nextjs.org/docs/app/api-reference/config/next-config-js/devIndicators).
 *
 * The only spec that runs `next dev`: it compiles in `.next/dev`, apart from the production build
 * the other specs run, on a free port of 127.0.0.1 and with a data folder of its own. Next.js
 * allows one `next dev` per checkout (a lock in `.next/dev`): stop `npm run dev` before running it.
 * About 12 s alone, 30 s beside the other specs on two cores.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { freePort } from '../test/support/app-server';
import { killOnExit } from '../test/support/kill-on-exit';

test.use({ viewport: { width: 390, height: 844 } });

test('under next dev, no dev indicator floats over the page, and the dev tools are still there for errors', async ({ page }) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-dev-server-'));
  // A process group of its own: `next dev` runs its server in a child process, stopped with it.
  const dev = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'dev', '--port', String(port), '--hostname', '127.0.0.1'], {
    env: { ...process.env, NODE_ENV: 'development', APP_URL: app, IDV_DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  killOnExit(dev);
  let output = '';
  dev.stdout.on('data', (chunk) => (output += chunk));
  dev.stderr.on('data', (chunk) => (output += chunk));
  try {
    await expect
      .poll(
        () =>
          fetch(`${app}/healthz`).then(
            (response) => response.status,
            () => 0,
          ),
        { timeout: 60_000, message: output },
      )
      .toBe(200);
    await page.goto(`${app}/?preset=etsi`, { timeout: 90_000 });
    await expect(page.getByTestId('start')).toBeVisible();
    // The dev tools render their indicator's element either way: shown, or hidden until there is
    // an error to report. Once it is there, the button that opens the dev tools must not be.
    const indicator = page.locator('#devtools-indicator');
    await expect(indicator).toBeAttached({ timeout: 30_000 });
    await expect(indicator).toBeHidden();
    await expect(page.locator('[data-nextjs-dev-tools-button]')).toHaveCount(0);
  } finally {
    if (dev.pid) process.kill(-dev.pid, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
