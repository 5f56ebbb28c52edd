import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, TEST_DEVICE_BASE_URL, createTestClient, createTestEmulator, openAuthorizationPage, type TestClient } from '@/test/support/emulator';
import type { Emulator } from '..';
import { LANGUAGE_COOKIE } from '../views/language';

const LANGUAGE_URL = `${TEST_BASE_URL}/language`;
const ORIGIN = new URL(TEST_BASE_URL).origin;
const SAME_ORIGIN = { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-origin' };

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

function newEmulator(): Emulator {
  return createTestEmulator({ clients: [client], deviceBaseUrl: TEST_DEVICE_BASE_URL });
}

/** The switch's form post, as a page of the emulator sends it (same origin unless `headers` say otherwise). */
function switchTo(emulator: Emulator, fields: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN): Promise<Response> {
  return emulator.handle(
    new Request(LANGUAGE_URL, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

async function expectRefusal(response: Response, status: number, message: RegExp): Promise<string> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('set-cookie')).toBeNull();
  expect(response.headers.get('location')).toBeNull();
  const html = await response.text();
  expect(html).toMatch(/<h1>(The language could not be changed|Språket kunne ikke endres)<\/h1>/);
  expect(/data-testid="language-error">([^<]*)</.exec(html)?.[1]).toMatch(message);
  // The refusal page has the switch too.
  expect(html).toContain('data-testid="language-switch"');
  return html;
}

describe('POST {base}/language: the language switch', () => {
  it('keeps the choice in a cookie scoped to the base path for a year and answers 303 to the page it came from', async () => {
    const emulator = newEmulator();
    const response = await switchTo(emulator, { lang: 'nb', return_to: '/emulator/app/abc?browser=s3cret&step=scan' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/emulator/app/abc?browser=s3cret&step=scan');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('set-cookie')).toBe(`${LANGUAGE_COOKIE}=nb; Max-Age=31536000; Path=/emulator; HttpOnly; SameSite=Lax`);
  });

  it('marks the cookie Secure when every address of the emulator is https', async () => {
    const emulator = createTestEmulator({ baseUrl: 'https://idv.example/emulator', clients: [client] });
    const response = await emulator.handle(
      new Request('https://idv.example/emulator/language', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://idv.example', 'Sec-Fetch-Site': 'same-origin' },
        body: 'lang=en&return_to=%2Femulator',
      }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie')).toBe(`${LANGUAGE_COOKIE}=en; Max-Age=31536000; Path=/emulator; HttpOnly; Secure; SameSite=Lax`);
  });

  it('works end to end without JavaScript: the form on the page, the cookie, the page again in the chosen language', async () => {
    const emulator = newEmulator();
    const { html, interaction, browser } = await openAuthorizationPage(emulator, client);
    expect(html).toContain('<html lang="en" data-theme="system">');
    const returnTo = /name="return_to" value="([^"]+)"/.exec(html)![1]!.replaceAll('&#38;', '&');
    expect(returnTo).toBe(`/emulator/auth/page?interaction=${interaction}&browser=${browser}`);

    const response = await switchTo(emulator, { lang: 'nb', return_to: returnTo });
    expect(response.status).toBe(303);
    const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
    const again = await emulator.handle(new Request(`${ORIGIN}${response.headers.get('location')}`, { headers: { Cookie: cookie } }));
    expect(again.status).toBe(200);
    const norwegian = await again.text();
    expect(norwegian).toContain('<html lang="nb" data-theme="system">');
    expect(norwegian).toContain('vil verifisere identiteten din</h1>');
    expect(norwegian).toContain(`name="interaction" value="${interaction}"`);
    // GET /auth/page is the page of the open interaction, for its browser only.
    expect((await emulator.handle(new Request(`${TEST_BASE_URL}/auth/page?interaction=${interaction}&browser=wrong`))).status).toBe(403);
  });

  it('accepts a post with Origin: null (the pages send no referrer) only when Sec-Fetch-Site says same-origin', async () => {
    const emulator = newEmulator();
    const accepted = await switchTo(emulator, { lang: 'nb', return_to: '/emulator' }, { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' });
    expect(accepted.status).toBe(303);
    await expectRefusal(await switchTo(emulator, { lang: 'nb', return_to: '/emulator' }, { Origin: 'null' }), 403, /possible cross-site request/);
    await expectRefusal(
      await switchTo(emulator, { lang: 'nb', return_to: '/emulator' }, { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' }),
      403,
      /cross-site/,
    );
  });

  it('accepts posts from the phone’s address, and from programs that send neither header', async () => {
    const emulator = newEmulator();
    const phone = { Origin: new URL(TEST_DEVICE_BASE_URL).origin, 'Sec-Fetch-Site': 'same-origin' };
    expect((await switchTo(emulator, { lang: 'en', return_to: '/emulator/app/x' }, phone)).status).toBe(303);
    expect((await switchTo(emulator, { lang: 'en', return_to: '/emulator/app/x' }, {})).status).toBe(303);
  });

  it('refuses a post from another site (403), in the reader’s language', async () => {
    const emulator = newEmulator();
    await expectRefusal(
      await switchTo(emulator, { lang: 'nb', return_to: '/emulator' }, { Origin: 'https://evil.example' }),
      403,
      /^This form post came from &#39;https:\/\/evil\.example&#39;, not from one of the emulator&#39;s own pages/,
    );
    await expectRefusal(
      await switchTo(emulator, { lang: 'nb', return_to: '/emulator' }, { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-site' }),
      403,
      /Sec-Fetch-Site: &#39;same-site&#39;/,
    );
    const norwegian = await expectRefusal(
      await switchTo(emulator, { lang: 'nb', return_to: '/emulator' }, { Origin: 'https://evil.example', 'Accept-Language': 'nb' }),
      403,
      /^Skjemaet ble sendt fra &#39;https:\/\/evil\.example&#39;/,
    );
    expect(norwegian).toContain('<html lang="nb" data-theme="system">');
  });

  it('refuses a return path to another origin, //host, or outside the base path (400), and names the rule', async () => {
    const emulator = newEmulator();
    for (const returnTo of ['https://evil.example/', '//evil.example/emulator', '/\\evil.example', '/other/page', '/emulator/../other', 'emulator']) {
      const html = await expectRefusal(
        await switchTo(emulator, { lang: 'nb', return_to: returnTo }),
        400,
        /^The return path .* is not a page of this emulator: it must be a path under \/emulator\/ on this site, not another site or \/\/host\.$/,
      );
      // No link leads anywhere but into the emulator.
      expect(html).not.toContain('evil.example"');
    }
    await expectRefusal(await switchTo(emulator, { lang: 'nb' }), 400, /^The form has no &#39;return_to&#39;/);
  });

  it('refuses an unknown or missing language (400), naming the languages it speaks', async () => {
    const emulator = newEmulator();
    const html = await expectRefusal(
      await switchTo(emulator, { lang: 'de', return_to: '/emulator/app/x' }),
      400,
      /^Unknown language &#39;de&#39;; choose one of en, nb\.$/,
    );
    // The way back is offered when the return path was fine.
    expect(html).toContain('<a href="/emulator/app/x">Back</a>');
    await expectRefusal(await switchTo(emulator, { return_to: '/emulator' }), 400, /^The form has no &#39;lang&#39;; choose one of en, nb\.$/);
    await expectRefusal(await switchTo(emulator, { lang: 'NB', return_to: '/emulator' }), 400, /Unknown language &#39;NB&#39;/);
  });

  it('refuses a body that is not a form, and answers only POST', async () => {
    const emulator = newEmulator();
    const json = await emulator.handle(
      new Request(LANGUAGE_URL, { method: 'POST', headers: { 'Content-Type': 'application/json', ...SAME_ORIGIN }, body: '{"lang":"nb"}' }),
    );
    await expectRefusal(json, 400, /Content-Type must be application\/x-www-form-urlencoded/);
    const get = await emulator.handle(new Request(LANGUAGE_URL));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});
