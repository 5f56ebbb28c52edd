/**
 * public/: the favicon, the app icons and the web-app manifest, linked from every page of the
 * app and served to the emulator's pages too (browsers ask the origin for /favicon.ico).
 */
import { expect, test } from '@playwright/test';
import { EMULATOR_APP as APP } from './servers';

test('every page links the favicon, the SVG icon, the Apple touch icon and the manifest, and each is served', async ({ page, request }) => {
  for (const path of ['/', '/result', '/failure?code=access_denied']) {
    await page.goto(`${APP}${path}`);
    const links = await page
      .locator('head link[rel~="icon"], head link[rel="apple-touch-icon"], head link[rel="manifest"]')
      .evaluateAll((elements) => elements.map((element) => `${element.getAttribute('rel')} ${element.getAttribute('href')}`));
    expect(links, path).toEqual(
      expect.arrayContaining(['icon /favicon.ico', 'icon /icon.svg', 'apple-touch-icon /apple-touch-icon.png', 'manifest /manifest.webmanifest']),
    );
  }

  const favicon = await request.get(`${APP}/favicon.ico`);
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  const ico = await favicon.body();
  expect([ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([1, 3]); // an icon resource holding 16, 32 and 48 px

  const svg = await request.get(`${APP}/icon.svg`);
  expect(svg.headers()['content-type']).toMatch(/^image\/svg\+xml/);
  const touch = await request.get(`${APP}/apple-touch-icon.png`);
  expect(touch.headers()['content-type']).toBe('image/png');
});

test('the manifest names the app and lists icons that exist at the sizes it states', async ({ request }) => {
  const response = await request.get(`${APP}/manifest.webmanifest`);
  expect(response.status()).toBe(200);
  const manifest = (await response.json()) as {
    name: string;
    short_name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest).toMatchObject({
    name: expect.stringContaining('Identity verification'),
    short_name: expect.any(String),
    start_url: '/',
    display: 'standalone',
  });
  expect(manifest.icons.map((icon) => icon.purpose)).toEqual(expect.arrayContaining(['any', 'maskable']));
  for (const icon of manifest.icons) {
    const file = await request.get(new URL(icon.src, `${APP}/`).href);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type'], icon.src).toContain(icon.type);
    if (icon.type === 'image/png') {
      const png = await file.body();
      // PNG IHDR: width and height at bytes 16 and 20
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
    }
  }
});

test('no page of the app or of the emulator asks for something that is not there', async ({ page }) => {
  const missing: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`);
  });
  for (const path of ['/', '/result', '/emulator']) {
    await page.goto(`${APP}${path}`);
    await page.waitForLoadState('networkidle');
  }
  expect(missing).toEqual([]);
});
