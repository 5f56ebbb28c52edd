import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  captureCapped,
  launchChromium,
  newCaseContext,
  pngSize,
  SCREENSHOT_LIMITS,
  SCREENSHOT_MAX_BYTES,
  SCREENSHOT_MAX_HEIGHT,
  SCREENSHOT_MAX_WIDTH,
} from './browser';

/** A page of `width` × `height` CSS px, drawn as noise (which PNG cannot compress) from `noiseFrom` px down, else a plain gradient. */
function canvasPage(width: number, height: number, noiseFrom = height): string {
  return `<!doctype html><body style="margin:0"><canvas id="c" width="${width}" height="${height}" style="display:block"></canvas><script>
    const canvas = document.getElementById('c');
    const context = canvas.getContext('2d');
    const gradient = context.createLinearGradient(0, 0, 0, ${height});
    gradient.addColorStop(0, '#1e3a8a');
    gradient.addColorStop(1, '#fde68a');
    context.fillStyle = gradient;
    context.fillRect(0, 0, ${width}, ${height});
    if (${noiseFrom} < ${height}) {
      const noise = context.createImageData(${width}, ${height - noiseFrom});
      for (let i = 0; i < noise.data.length; i++) noise.data[i] = i % 4 === 3 ? 255 : (Math.random() * 256) | 0;
      context.putImageData(noise, 0, ${noiseFrom});
    }
  </script></body>`;
}

const pages: Record<string, { type: string; body: string; headers?: Record<string, string> }> = {
  '/download': { type: 'text/html', body: '<!doctype html><a href="/file.bin" download>Get the file</a>' },
  '/file.bin': { type: 'application/octet-stream', body: 'x'.repeat(100_000), headers: { 'content-disposition': 'attachment; filename="file.bin"' } },
};

let browser: Browser;
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const page = pages[new URL(request.url ?? '/', 'http://localhost').pathname];
    if (!page) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': page.type, ...page.headers }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Fails, saying how to install Chromium, when it is missing: these tests need a real browser.
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

let context: BrowserContext;
let page: Page;

beforeEach(async () => {
  context = await newCaseContext(browser);
  page = await context.newPage();
});

afterEach(async () => {
  await context.close();
});

describe('a case context', () => {
  it('refuses a download the page starts with <a download>', async () => {
    await page.goto(`${origin}/download`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Get the file' }).click()]);
    expect(await download.failure()).toMatch(/acceptDownloads/);
    await expect(download.path()).rejects.toThrow(/acceptDownloads/);
  });

  it('refuses a download the start URL itself answers with (Content-Disposition: attachment)', async () => {
    const downloading = page.waitForEvent('download');
    await expect(page.goto(`${origin}/file.bin`)).rejects.toThrow(/Download is starting/);
    const download = await downloading;
    expect(await download.failure()).toMatch(/acceptDownloads/);
    await expect(download.path()).rejects.toThrow(/acceptDownloads/);
  });
});

describe('the screenshot of the final page', () => {
  it('is the whole page when the page is small', async () => {
    await page.setContent('<!doctype html><h1>Verification failed</h1>');
    const { png, note } = await captureCapped(page);
    expect(note).toBeUndefined();
    expect(pngSize(png!)).toEqual({ width: 1280, height: 900 });
  });

  it(`keeps a page 30,000 px tall and 2,000 px wide to its top ${SCREENSHOT_MAX_WIDTH} × ${SCREENSHOT_MAX_HEIGHT} px, within ${SCREENSHOT_MAX_BYTES} bytes, and says so`, async () => {
    await page.setContent(
      '<!doctype html><body style="margin:0"><div style="width:2000px;height:30000px;background:linear-gradient(#1e3a8a,#fde68a)"></div></body>',
    );
    const { png, note } = await captureCapped(page);
    expect(pngSize(png!)).toEqual({ width: SCREENSHOT_MAX_WIDTH, height: SCREENSHOT_MAX_HEIGHT });
    expect(png!.length).toBeLessThanOrEqual(SCREENSHOT_MAX_BYTES);
    expect(note).toBe(`The screenshot shows the page's top ${SCREENSHOT_MAX_HEIGHT} px (the kit's cap); the page may go on below.`);
  });

  it('falls back to the viewport when the page top is over the byte cap', async () => {
    // Noise below the viewport: the top of the page is large as PNG, the viewport small.
    await page.setContent(canvasPage(1280, 1600, 900));
    const limits = { ...SCREENSHOT_LIMITS, maxBytes: 1024 * 1024 };
    const { png, note } = await captureCapped(page, limits);
    expect(pngSize(png!)).toEqual({ width: 1280, height: 900 });
    expect(png!.length).toBeLessThanOrEqual(limits.maxBytes);
    expect(note).toMatch(/^The page's top was \d+\.\d MB as PNG, over the kit's cap of 1\.0 MB: the screenshot shows the viewport only\.$/);
  });

  it('keeps none, and says why, when the viewport alone is over the byte cap', async () => {
    await page.setContent(canvasPage(1280, 1000, 0));
    const { png, note } = await captureCapped(page, { ...SCREENSHOT_LIMITS, maxBytes: 1024 * 1024 });
    expect(png).toBeUndefined();
    expect(note).toMatch(/^No screenshot kept: the page's top was \d+\.\d MB as PNG and its viewport alone \d+\.\d MB, over the kit's cap of 1\.0 MB\.$/);
  });
});

describe('pngSize', () => {
  it("reads a PNG's width and height from its IHDR chunk", () => {
    // The signature, then IHDR: length 13, "IHDR", width 640, height 4000.
    const png = Buffer.from(['89504e470d0a1a0a', '0000000d', '49484452', '00000280', '00000fa0'].join(''), 'hex');
    expect(pngSize(png)).toEqual({ width: 640, height: 4000 });
  });
});
