import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { relyingPartyEnvironment, startRelyingParty, waitForStartPage } from './relying-party';

describe('relyingPartyEnvironment', () => {
  it('points the relying party at the emulator as its client, with the private keys --client-jwks held', () => {
    const env = relyingPartyEnvironment({ PATH: '/bin', IDV_BASE_URL: 'https://elsewhere.example' }, 'http://127.0.0.1:3999', 'kit-rp', {
      jwks: { keys: [] },
      privateKeys: { signing: { kid: 's' }, encryption: { kid: 'e' } },
    });
    expect(env).toMatchObject({
      PATH: '/bin',
      IDV_BASE_URL: 'http://127.0.0.1:3999',
      IDV_CLIENT_ID: 'kit-rp',
      IDV_SIGNING_KEY: '{"kid":"s"}',
      IDV_ENCRYPTION_KEY: '{"kid":"e"}',
    });
    expect(env.SESSION_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('keeps a session secret and keys of its own when --client-jwks held no private keys', () => {
    const env = relyingPartyEnvironment({ SESSION_SECRET: 'mine', IDV_SIGNING_KEY: 'own' }, 'http://127.0.0.1:3999', 'kit-rp', { jwks: { keys: [] } });
    expect(env).toMatchObject({ SESSION_SECRET: 'mine', IDV_SIGNING_KEY: 'own' });
  });
});

describe('waitForStartPage', () => {
  it('resolves once the start page answers, whatever its status', async () => {
    const server: Server = createServer((_request, response) => response.writeHead(503).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await waitForStartPage(`http://127.0.0.1:${(server.address() as { port: number }).port}/`, undefined, 2000);
    } finally {
      server.close();
    }
  });

  it('says nothing answers there after the timeout (--start-wait)', async () => {
    await expect(waitForStartPage('http://127.0.0.1:9/', undefined, 300)).rejects.toThrow(
      'nothing answers at http://127.0.0.1:9/ after 0 s: is your relying party running there?',
    );
  });

  it('gives the output of a relying party that exited before its page answered, and stops one that runs', async () => {
    const exited = startRelyingParty(`node -e "console.log('listening? no: ' + process.env.IDV_BASE_URL); process.exit(3)"`, {
      ...process.env,
      IDV_BASE_URL: 'http://127.0.0.1:3999',
    });
    await expect(waitForStartPage('http://127.0.0.1:9/', exited, 10_000)).rejects.toThrow(
      /exited with status 3 before http:\/\/127\.0\.0\.1:9\/ answered\. Its last output:\nlistening\? no: http:\/\/127\.0\.0\.1:3999/,
    );
    const running = startRelyingParty('node -e "setInterval(() => {}, 1000)"', process.env);
    await running.stop();
    expect(running.process.exitCode !== null || running.process.signalCode !== null).toBe(true);
  });
});
