import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import {
  clientPublicJwks,
  completeAuthorization,
  DEFAULT_SELECTION,
  DiscoveryCache,
  fetchDiscovery,
  generateClientKeys,
  JwksCache,
  startAuthorization,
  type GeneratedClientKeys,
  type RelyingParty,
} from '@/lib/oidc';
import { freePort } from '@/test/support/app-server';
import { approveInBrowser, createTestEmulator } from '@/test/support/emulator';
import { embeddedEmulatorFetch } from './embedded-emulator-fetch';

const CLIENT_ID = 'embedded-rp';

let keys: GeneratedClientKeys;
/** A server of this test's own at the emulator's origin: what the network reaches there. */
let server: Server;
let origin: string;

beforeAll(async () => {
  keys = await generateClientKeys('ES256');
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = createServer((request, response) => response.end(`the network: ${request.url}`));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** An emulator embedded at `baseUrl`, and a relying party registered with it that reaches it through embeddedEmulatorFetch. */
function embeddedAt(baseUrl: string, timeoutMs?: number): { emulator: Emulator; rp: RelyingParty } {
  const redirectUri = `${new URL(baseUrl).origin}/auth/callback`;
  const emulator = createTestEmulator({
    baseUrl,
    clients: [{ clientId: CLIENT_ID, jwks: clientPublicJwks(keys), redirectUris: [redirectUri], populationRegister: true }],
  });
  const http = { fetch: embeddedEmulatorFetch(emulator), allowInsecureRequests: true, ...(timeoutMs ? { timeoutMs } : {}) };
  return {
    emulator,
    rp: { issuer: baseUrl, client: { clientId: CLIENT_ID, redirectUri, ...keys }, discovery: new DiscoveryCache(http), jwks: new JwksCache(http), http },
  };
}

describe('embeddedEmulatorFetch', () => {
  it('answers every call of a whole verification from the emulator in this process, with nothing listening at its address', async () => {
    // A port nothing listens on: over the network, each call would be refused.
    const { emulator, rp } = embeddedAt(`http://127.0.0.1:${await freePort()}/emulator`);
    const started = await startAuthorization(rp, DEFAULT_SELECTION);
    const completed = await completeAuthorization(rp, await approveInBrowser(emulator, started.authorizationUrl), started.pending);
    expect(completed.verifiedClaims[0]?.claims).toMatchObject({ name: 'Ingrid Solberg Haugen' });
  });

  it('sends over the network whatever lies outside the base URL, on its origin or another', async () => {
    const { emulator } = embeddedAt(`${origin}/emulator`);
    const fetch = embeddedEmulatorFetch(emulator);
    const discovery = await fetchDiscovery(`${origin}/emulator`, { fetch, allowInsecureRequests: true });
    expect(await discovery.json()).toMatchObject({ issuer: `${origin}/emulator` });
    for (const path of ['/emulatorx/jwks', '/auth/callback', '/']) {
      expect(await (await fetch(`${origin}${path}`)).text()).toBe(`the network: ${path}`);
    }
    expect(await (await fetch(new Request(`${origin}/other`, { method: 'POST', body: 'x' }))).text()).toBe('the network: /other');
  });

  it('gives up as fetch does when the caller’s time is over: the core sees its timeout, not the answer the emulator makes afterwards', async () => {
    // The emulator holds the token response longer than the core waits; handed the aborted
    // request, it then answers 500, which nobody must read.
    const { emulator, rp } = embeddedAt(`http://127.0.0.1:${await freePort()}/emulator`, 500);
    const started = await startAuthorization(rp, DEFAULT_SELECTION);
    const callback = await approveInBrowser(emulator, started.authorizationUrl);
    await emulator.control.armFault('token_timeout');
    const began = Date.now();
    await expect(completeAuthorization(rp, callback, started.pending)).rejects.toMatchObject({ name: 'IdvError', code: 'timeout' });
    expect(Date.now() - began).toBeLessThan(5_000);
  });
});
