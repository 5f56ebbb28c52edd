/**
 * The graceful stop on a real HTTP server of this process: a request in flight whose handler
 * calls the same server again (as the app calls its embedded emulator at APP_URL) is answered
 * whole; then the server stops accepting. The counter is the process's own, so each test builds
 * on an idle server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isStopping, stopGracefully, trackRequests } from './graceful-stop';

/** How long the handler of /start waits before its call back to the server: time to begin the stop. */
const BEFORE_CALL_MS = 300;

let server: Server;
let base: string;

/** A server whose /start, like the relying party's start, calls /emulator on the same server and answers with what it said. */
async function startServer(): Promise<void> {
  server = createServer((request, response) => {
    if (request.url === '/emulator') return void response.end('pushed');
    setTimeout(() => {
      fetch(`${base}/emulator`)
        .then(async (answer) => response.end(`start: ${await answer.text()}`))
        .catch((error: Error) => response.end(`start: network_error (${(error.cause as { code?: string } | undefined)?.code})`));
    }, BEFORE_CALL_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

describe('the graceful stop', () => {
  it('keeps accepting while a request is in flight, so its call back to the same server is answered; answers close their connections; then it stops accepting', async () => {
    trackRequests();
    await startServer();
    // Before the stop, answers keep their connections.
    expect((await fetch(`${base}/emulator`)).headers.get('connection')).toBe('keep-alive');
    const start = fetch(`${base}/start`);
    // The start is in flight (its handler waits) when the stop begins.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = stopGracefully(10_000).then(() => Date.now());
    expect(isStopping()).toBe(true);
    // A request that comes during the stop is answered, and its connection closed.
    const during = await fetch(`${base}/emulator`);
    expect(await during.text()).toBe('pushed');
    expect(during.headers.get('connection')).toBe('close');
    const answer = await start;
    expect(await answer.text()).toBe('start: pushed');
    expect(answer.headers.get('connection')).toBe('close');
    const answeredAt = Date.now();
    // It stops as soon as nothing is in flight, not at the ceiling.
    expect((await stopped) - answeredAt).toBeLessThan(1000);
    expect(server.listening).toBe(false);
    await expect(fetch(`${base}/emulator`)).rejects.toThrow();
  });

  it('is what Next.js’s own stop is not: a server that stops accepting at once loses the call back (the control)', async () => {
    await startServer();
    const start = fetch(`${base}/start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.close();
    expect(await (await start).text()).toBe('start: network_error (ECONNREFUSED)');
  });
});
