import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_BASE_URL,
  clientAuthentication,
  createTestClient,
  createTestEmulator,
  formPost,
  openAuthorizationPage,
  requestObjectClaims,
  signAsClient,
  type TestClient,
} from '@/test/support/emulator';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

/** The first URL of `html` whose data-testid is back-to-client, unescaped. */
function backLink(html: string): string | undefined {
  return /href="([^"]+)" data-testid="back-to-client"/.exec(html)?.[1]?.replaceAll('&#38;', '&');
}

describe('pages of a used-up flow, reached again (the Back button after the result)', () => {
  it('explain that the request was used and link back to the relying party: GET /auth, the authorization page, the app', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const done = await emulator.handle(formPost(`${TEST_BASE_URL}/auth`, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' }));
    expect(done.status).toBe(303);
    const home = `${new URL(client.redirectUri).origin}/`;

    const page = await emulator.handle(new Request(`${TEST_BASE_URL}/auth/page?interaction=${interaction}&browser=${browser}`));
    expect(page.status).toBe(400);
    const pageHtml = await page.text();
    expect(pageHtml).toContain('This verification has already been used');
    expect(pageHtml).toContain('<code data-testid="error-code">invalid_request</code>');
    expect(backLink(pageHtml)).toBe(home);

    const app = await emulator.handle(
      new Request(`${TEST_BASE_URL}/app/${interaction}?browser=${browser}&step=consent`, { headers: { 'Accept-Language': 'nb' } }),
    );
    expect(app.status).toBe(200);
    const appHtml = await app.text();
    expect(appHtml).toContain('Denne verifiseringen er fullført');
    expect(appHtml).toContain('Tilbake til');
    expect(backLink(appHtml)).toBe(home);

    const status = await emulator.handle(new Request(`${TEST_BASE_URL}/auth/status?interaction=${interaction}&browser=${browser}`));
    expect(status.status).toBe(200);
    expect((await status.json()).status).toBe('completed');
  });

  it('names the client on GET /auth with a request_uri already used, in Norwegian too', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const claims = requestObjectClaims(client, { codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' });
    const par = await emulator.handle(
      formPost(`${TEST_BASE_URL}/par`, { ...(await clientAuthentication(client)), request: await signAsClient(client, claims) }),
    );
    const { request_uri: requestUri } = (await par.json()) as { request_uri: string };
    const url = `${TEST_BASE_URL}/auth?${new URLSearchParams({ client_id: client.clientId, request_uri: requestUri })}`;
    expect((await emulator.handle(new Request(url))).status).toBe(200);
    const again = await emulator.handle(new Request(url, { headers: { 'Accept-Language': 'nb' } }));
    expect(again.status).toBe(400);
    const text = await again.text();
    expect(text).toContain('Denne verifiseringen er allerede brukt');
    expect(text).toContain('<code data-testid="error-code">invalid_request_uri</code>');
    expect(backLink(text)).toBe(`${new URL(client.redirectUri).origin}/`);
  });

  it('is the plain error page for a request_uri nobody used', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const url = `${TEST_BASE_URL}/auth?${new URLSearchParams({ client_id: client.clientId, request_uri: 'urn:ietf:params:oauth:request_uri:nope' })}`;
    const text = await (await emulator.handle(new Request(url))).text();
    expect(text).not.toContain('data-testid="used-flow"');
  });
});
