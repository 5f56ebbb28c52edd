import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestClient, createTestEmulator, openAuthorizationPage, type TestClient } from '@/test/support/emulator';
import { APP_THEME_COOKIE, chooseTheme } from './theme';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

const request = (cookie?: string) => new Request(`${TEST_BASE_URL}/`, { headers: cookie ? { Cookie: cookie } : {} });

describe('the theme of the pages (views/theme.ts)', () => {
  it('follows the host app’s theme cookie (idv_theme), else the browser (system)', () => {
    expect(APP_THEME_COOKIE).toBe('idv_theme');
    expect(chooseTheme(request('idv_theme=dark'))).toBe('dark');
    expect(chooseTheme(request('other=1; idv_theme=light'))).toBe('light');
    expect(chooseTheme(request('idv_theme=system'))).toBe('system');
    expect(chooseTheme(request('idv_theme=purple'))).toBe('system');
    expect(chooseTheme(request())).toBe('system');
  });

  it('marks every kind of page with it: <html data-theme> and the color-scheme the stylesheets follow', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const pages = [
      `${TEST_BASE_URL}/auth/page?${new URLSearchParams({ interaction, browser })}`,
      `${TEST_BASE_URL}/app/${interaction}?${new URLSearchParams({ browser })}`,
      `${TEST_BASE_URL}/`,
    ];
    for (const url of pages) {
      for (const [cookie, theme, scheme] of [
        ['idv_theme=dark', 'dark', 'dark'],
        ['idv_theme=light', 'light', 'light'],
        [undefined, 'system', 'light dark'],
      ] as const) {
        const response = await emulator.handle(new Request(url, { headers: cookie ? { Cookie: cookie } : {} }));
        expect(response.status, url).toBe(200);
        const html = await response.text();
        expect(html, url).toMatch(new RegExp(`<html lang="en" data-theme="${theme}">`));
        expect(html, url).toContain(`<meta name="color-scheme" content="${scheme}">`);
      }
    }
  });
});
