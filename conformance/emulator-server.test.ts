import { createServer } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_CONTENT_POLICY } from '../lib/emulator';
import { clientKeys } from '../test/support/client-keys';
import { readClientKeys, registeredClient, startEmulatorServer, type EmulatorServer } from './emulator-server';

const keys = clientKeys('kit-rp');
const REDIRECT = 'http://127.0.0.1:8000/callback';

describe('readClientKeys', () => {
  it('reads a public JWKS given as JSON or as a file', () => {
    expect(readClientKeys(JSON.stringify(keys.jwks))).toEqual({ jwks: keys.jwks });
    const file = join(mkdtempSync(join(tmpdir(), 'kit-keys-')), 'jwks.json');
    writeFileSync(file, JSON.stringify(keys.jwks));
    expect(readClientKeys(file)).toEqual({ jwks: keys.jwks });
  });

  it('reads what `npm run keys -- --json` prints: the public JWKS, and the private keys for a relying party the kit starts', () => {
    const printed = { IDV_SIGNING_KEY: keys.signing, IDV_ENCRYPTION_KEY: keys.encryption, public_jwks: keys.jwks };
    expect(readClientKeys(JSON.stringify(printed))).toEqual({ jwks: keys.jwks, privateKeys: { signing: keys.signing, encryption: keys.encryption } });
  });

  it('says what is wrong with a file that is missing or not JSON', () => {
    expect(() => readClientKeys('/nowhere/jwks.json')).toThrow(/--client-jwks: cannot read \/nowhere\/jwks\.json/);
    expect(() => readClientKeys('{"keys": [')).toThrow(/--client-jwks: not valid JSON/);
  });
});

describe('registeredClient', () => {
  it('registers the relying party from its keys and redirect URIs, entitled to the population register', () => {
    const client = registeredClient({ clientId: 'kit-rp', keys: { jwks: keys.jwks }, redirectUris: [REDIRECT] });
    expect(client).toMatchObject({ clientId: 'kit-rp', redirectUris: [REDIRECT], populationRegister: true });
    expect(client.jwks.keys.map((key) => key.kid)).toEqual(['kit-rp-sig', 'kit-rp-enc']);
  });

  it('refuses keys without a redirect URI, and a JWKS the emulator would refuse, naming the option', () => {
    expect(() => registeredClient({ clientId: 'kit-rp', keys: { jwks: keys.jwks }, redirectUris: [] })).toThrow(/--client-jwks needs --redirect-uri/);
    expect(() => registeredClient({ clientId: 'kit-rp', keys: { jwks: { keys: [keys.signing] } }, redirectUris: [REDIRECT] })).toThrow(
      /^--client-jwks \/ --redirect-uri: /,
    );
  });

  it('takes the client from EMULATOR_CLIENTS when no keys are given, with --redirect-uri replacing its own', () => {
    const clients = JSON.stringify([{ client_id: 'kit-rp', jwks: keys.jwks, redirect_uris: ['http://127.0.0.1:9000/cb'], population_register: false }]);
    expect(registeredClient({ clientId: 'kit-rp', redirectUris: [], emulatorClients: clients })).toMatchObject({
      redirectUris: ['http://127.0.0.1:9000/cb'],
      populationRegister: false,
    });
    expect(registeredClient({ clientId: 'kit-rp', redirectUris: [REDIRECT], emulatorClients: clients }).redirectUris).toEqual([REDIRECT]);
    expect(() => registeredClient({ clientId: 'other', redirectUris: [], emulatorClients: clients })).toThrow(
      "EMULATOR_CLIENTS has no client 'other' (it has: kit-rp)",
    );
    expect(() => registeredClient({ clientId: 'kit-rp', redirectUris: [], emulatorClients: '[{' })).toThrow(/^EMULATOR_CLIENTS: not valid JSON/);
  });

  it('says how to register the relying party when nothing does', () => {
    expect(() => registeredClient({ clientId: 'kit-rp', redirectUris: [] })).toThrow(
      /give --client-jwks FILE and --redirect-uri URL \(or EMULATOR_CLIENTS\), or name a running emulator with --emulator URL/,
    );
  });
});

describe('startEmulatorServer', () => {
  let server: EmulatorServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const client = () => registeredClient({ clientId: 'kit-rp', keys: { jwks: keys.jwks }, redirectUris: [REDIRECT] });

  it('serves the emulator over HTTP on loopback, its issuer the address it listens on', async () => {
    server = await startEmulatorServer({ client: client(), port: 0 });
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const discovery = await fetch(`${server.baseUrl}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(server.baseUrl);
    // The client is registered, and its QA API is open to the kit.
    const registered = await fetch(`${server.baseUrl}/qa/clients/kit-rp`);
    expect(registered.status).toBe(200);
    expect(((await registered.json()) as { redirectUris: string[] }).redirectUris).toEqual([REDIRECT]);
    const head = await fetch(`${server.baseUrl}/jwks`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('answers a body over 1 MiB with 413, and a refused request with the emulator’s own error', async () => {
    server = await startEmulatorServer({ client: client(), port: 0 });
    const large = await fetch(`${server.baseUrl}/par`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a='.padEnd(1024 * 1024 + 10, 'x'),
    });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ error: 'invalid_request' });
    const par = await fetch(`${server.baseUrl}/par`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'client_id=kit-rp',
    });
    expect(par.status).toBe(400);
    // Both with the headers of every answer of the emulator, its own and the host's.
    for (const answer of [large, par]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('content-security-policy')).toBe(NO_CONTENT_POLICY);
    }
  });

  it('names the option to change when its port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(startEmulatorServer({ client: client(), port })).rejects.toThrow(`port ${port} on 127.0.0.1 is taken: choose another with --emulator-port`);
    } finally {
      taken.close();
    }
  });
});
