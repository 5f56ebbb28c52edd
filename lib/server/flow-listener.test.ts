import type { Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_CONTENT_POLICY } from '@/lib/emulator';
import { createTestClient, createTestEmulator } from '@/test/support/emulator';
import { startFlowListener } from './flow-listener';

let listener: Server;
let port: number;

beforeAll(async () => {
  const emulator = createTestEmulator({ baseUrl: 'http://127.0.0.1:3999/emulator', clients: [await createTestClient()] });
  listener = await startFlowListener(emulator, 'http://127.0.0.1:3999/emulator', { host: '127.0.0.1', port: 0 });
  port = (listener.address() as { port: number }).port;
});

afterAll(() => new Promise((resolve) => listener.close(resolve)));

/** Sends `raw` on a connection of its own; resolves with what came back. */
function askRaw(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the flow listener (EMULATOR_FLOW_URL)', () => {
  it('answers a request Fetch cannot hold (TRACE, a target that is no URL) with the emulator’s JSON error, 400, not a 500', async () => {
    for (const raw of [
      'TRACE /emulator/jwks HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'GET http://x:99999/emulator/jwks HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    ]) {
      const answer = await askRaw(raw);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('"error":"invalid_request"');
      expect(answer.toLowerCase()).toContain('x-content-type-options: nosniff');
      expect(answer.toLowerCase()).toContain(`content-security-policy: ${NO_CONTENT_POLICY}`);
    }
  });

  it('answers a body over its limit with the emulator’s JSON error, 413', async () => {
    const body = 'a='.padEnd(70 * 1024, 'x');
    const answer = await askRaw(`POST /emulator/par HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"error":"invalid_request"');
    expect(answer.toLowerCase()).toContain('x-content-type-options: nosniff');
  });

  it('hands every other request to the emulator as it is', async () => {
    const answer = await askRaw('GET /emulator/jwks HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"keys":[');
  });
});
