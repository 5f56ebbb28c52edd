/**
 * The kit's browser: Chromium through Playwright, found the way this project's end-to-end tests
 * find it (CHROMIUM_PATH, else Debian's headless shell or Chromium, else Playwright's own), and
 * launched with flags that work as root and without a GPU; what a case may do in it (no downloads)
 * and what the kit keeps of a page (a screenshot within caps).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

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

/** Every case's viewport: a common laptop's, so a relying party lays its pages out as for a person. */
export const CASE_VIEWPORT = { width: 1280, height: 900 } as const;

/**
 * A fresh browser context for one case. Downloads are refused (Playwright cancels each one): a
 * start page is whatever address the kit was given, and a page that answers with a file, or
 * with endless ones, must not write to the disk of the machine that runs the kit.
 */
export async function newCaseContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ locale: 'en-GB', viewport: CASE_VIEWPORT, acceptDownloads: false });
}

/*
 * The screenshot of the page a case ended on is for a person reading the report, and the page is
 * the relying party's, whatever it is: a page 100,000 px tall, or one of noise that PNG cannot
 * compress, would otherwise cost hundreds of megabytes of memory and disk per case, times 58
 * cases. The top of a page is what says where the case ended.
 */
/** The widest screenshot kept, in CSS pixels: the viewport's width. */
export const SCREENSHOT_MAX_WIDTH = 1280;
/** The tallest screenshot kept, in CSS pixels: about four screens of the page's top. */
export const SCREENSHOT_MAX_HEIGHT = 4000;
/** The largest screenshot kept, in bytes of PNG: a text page's 1280 × 4000 px takes well under 1 MB. */
export const SCREENSHOT_MAX_BYTES = 5 * 1024 * 1024;

export interface ScreenshotLimits {
  maxWidth: number;
  maxHeight: number;
  maxBytes: number;
}

export const SCREENSHOT_LIMITS: ScreenshotLimits = { maxWidth: SCREENSHOT_MAX_WIDTH, maxHeight: SCREENSHOT_MAX_HEIGHT, maxBytes: SCREENSHOT_MAX_BYTES };

/** A screenshot within the limits, or none; and what a person should know about it. */
export interface CappedScreenshot {
  png?: Buffer;
  /** why the screenshot is cut, only the viewport, or absent */
  note?: string;
}

/**
 * The page's top, at most `limits.maxWidth` × `limits.maxHeight` CSS pixels (the whole page when
 * it is smaller); when that PNG is over `limits.maxBytes`, the viewport alone; when that is too,
 * none. Never throws: a page that cannot be photographed gives none and says why.
 */
export async function captureCapped(page: Page, limits: ScreenshotLimits = SCREENSHOT_LIMITS, timeoutMs = 10_000): Promise<CappedScreenshot> {
  const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  try {
    // `fullPage` with a `clip`: Playwright trims the clip to the page's size, so a small page is
    // photographed whole and a big one only within the clip. `scale: 'css'`: the caps are CSS pixels.
    const top = await page.screenshot({
      fullPage: true,
      clip: { x: 0, y: 0, width: limits.maxWidth, height: limits.maxHeight },
      scale: 'css',
      timeout: timeoutMs,
    });
    if (top.length <= limits.maxBytes) {
      const cut = pngSize(top).height >= limits.maxHeight;
      return cut ? { png: top, note: `The screenshot shows the page's top ${limits.maxHeight} px (the kit's cap); the page may go on below.` } : { png: top };
    }
    const viewport = await page.screenshot({ scale: 'css', timeout: timeoutMs });
    if (viewport.length <= limits.maxBytes) {
      return {
        png: viewport,
        note: `The page's top was ${megabytes(top.length)} as PNG, over the kit's cap of ${megabytes(limits.maxBytes)}: the screenshot shows the viewport only.`,
      };
    }
    return {
      note: `No screenshot kept: the page's top was ${megabytes(top.length)} as PNG and its viewport alone ${megabytes(viewport.length)}, over the kit's cap of ${megabytes(limits.maxBytes)}.`,
    };
  } catch (error) {
    const first = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { note: `No screenshot: the page could not be photographed (${first}).` };
  }
}

/** The width and height a PNG's IHDR chunk gives (bytes 16–23, after the signature and the chunk's length and type). */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}
