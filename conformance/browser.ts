/**
 * The kit's browser: Chromium through Playwright, found the way this project's end-to-end tests
 * find it (CHROMIUM_PATH, else Debian's headless shell or Chromium, else Playwright's own), and
 * launched with flags that work as root and without a GPU.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** The Chromium to launch: CHROMIUM_PATH, else Debian's; undefined for Playwright's own. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return [env.CHROMIUM_PATH, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path): path is string => Boolean(path) && existsSync(path!));
}

/** The flags Chromium runs with: no sandbox (as root in a container), no GPU, no background traffic. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'];

/** Launches headless Chromium, or fails saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  try {
    return await chromium.launch({ ...(executablePath ? { executablePath } : {}), args: CHROMIUM_ARGS });
  } catch (error) {
    const first = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(
      `Chromium could not be started (${first}). Install it: on Debian or Ubuntu \`apt-get install chromium\` ` +
        '(or chromium-headless-shell); elsewhere `npx playwright install chromium`; or set CHROMIUM_PATH to a Chromium binary.',
      { cause: error },
    );
  }
}
