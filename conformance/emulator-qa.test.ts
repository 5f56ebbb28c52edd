import { createServer, type Server } from 'node:http';
import { request as playwrightRequest } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorQa } from './emulator-qa';

const servers: Server[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** An emulator's QA API that answers each request with the next of `answers`; the requests it got. */
async function qaApi(answers: { status: number; retryAfter?: string; body: unknown }[]): Promise<{ base: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const answer = answers.shift() ?? { status: 500, body: { error: 'server_error' } };
    response.writeHead(answer.status, { 'Content-Type': 'application/json', ...(answer.retryAfter ? { 'Retry-After': answer.retryAfter } : {}) });
    response.end(JSON.stringify(answer.body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests };
}

describe('EmulatorQa', () => {
  it('waits out a 429 or 503 with Retry-After and asks again, a few times at most', async () => {
    const busy = { status: 429, retryAfter: '0', body: { error: 'temporarily_unavailable' } };
    const { base, requests } = await qaApi([busy, { ...busy, status: 503 }, { status: 200, body: { client_id: 'c', state: 's', faults: [], events: [] } }]);
    const api = await playwrightRequest.newContext();
    try {
      const qa = new EmulatorQa(api, base);
      await expect(qa.flow('s')).resolves.toMatchObject({ state: 's' });
      expect(requests).toEqual(['GET /qa/flow?state=s', 'GET /qa/flow?state=s', 'GET /qa/flow?state=s']);
      // Still turned away after the retries: an error that says so, never "no such flow".
      const stubborn = await qaApi(Array.from({ length: 5 }, () => busy));
      await expect(new EmulatorQa(api, stubborn.base).flow('s')).rejects.toThrow(/reading the flow with 429 temporarily_unavailable/);
      expect(stubborn.requests).toHaveLength(4);
    } finally {
      await api.dispose();
    }
  });
});
