import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateClientKeys, type GeneratedClientKeys } from '@/lib/oidc';
import { loadServerConfig } from './configuration';
import { DEMO_CLIENT_ID } from './env';

const keys: GeneratedClientKeys = await generateClientKeys('ES256');
let cwd: string;

async function load(env: Record<string, string | undefined>) {
  cwd = await mkdtemp(join(tmpdir(), 'idv-configuration-'));
  return loadServerConfig(env, cwd);
}

const providerEnv = () => ({
  IDV_BASE_URL: 'https://idv.staging.example',
  IDV_CLIENT_ID: 'client-1',
  IDV_SIGNING_KEY: JSON.stringify(keys.signingKey),
  IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryptionKey),
});

describe('loadServerConfig: the data folder and the shared store', () => {
  it('runs on the embedded emulator with nothing configured, generating keys and a secret once', async () => {
    const config = await load({});
    expect(config).toMatchObject({
      mode: 'emulator',
      appUrl: 'http://localhost:3000',
      redirectUri: 'http://localhost:3000/auth/callback',
      issuer: 'http://localhost:3000/emulator',
      allowInsecureRequests: true,
      secureCookies: false,
    });
    expect(config.client.clientId).toBe(DEMO_CLIENT_ID);
    expect(config.generated).toEqual(['SESSION_SECRET', 'IDV_SIGNING_KEY', 'IDV_ENCRYPTION_KEY']);
    const again = await loadServerConfig({}, cwd);
    expect(again.client.signingKey).toEqual(config.client.signingKey);
    expect(again.sessionSecret).toBe(config.sessionSecret);
    expect((await readFile(join(cwd, '.data', 'session-secret'), 'utf8')).trim()).toBe(config.sessionSecret);
  });

  it('generates keys into the data folder in provider mode without REDIS_URL (one instance, whose public JWKS the doctor prints to register)', async () => {
    const config = await load({ ...providerEnv(), IDV_SIGNING_KEY: undefined, IDV_ENCRYPTION_KEY: undefined });
    expect(config.generated).toEqual(['SESSION_SECRET', 'IDV_SIGNING_KEY', 'IDV_ENCRYPTION_KEY']);
    expect(config.sharedDevKeys).toBeUndefined();
    expect(JSON.parse(await readFile(join(cwd, '.data', 'dev-client-keys.json'), 'utf8')).signingKey).toEqual(config.client.signingKey);
  });

  it('fails naming REDIS_URL when the development keys are to be shared through a Redis it cannot reach', async () => {
    await expect(load({ REDIS_URL: 'redis://127.0.0.1:1', SESSION_SECRET: 's'.repeat(32) })).rejects.toThrow(
      /^REDIS_URL: cannot connect to Redis at redis:\/\/127.0.0.1:1/,
    );
  });
});

describe('loadServerConfig: this machine’s LAN address', () => {
  it('points the QR code of the emulated app at this machine’s LAN address when APP_URL is a loopback address', async () => {
    const lan = Object.values(networkInterfaces())
      .flatMap((addresses) => addresses ?? [])
      .find((address) => address.family === 'IPv4' && !address.internal)?.address;
    expect((await load({})).emulatorDeviceUrl).toBe(`http://${lan ?? 'localhost'}:3000/emulator`);
  });
});

describe('loadServerConfig: the demo’s logo file (IDV_DEMO_LOGO)', () => {
  /** A file in the test's own folder (the working folder relative paths are read from). */
  async function file(name: string, bytes: Uint8Array | string): Promise<string> {
    await writeFile(join(cwd, name), bytes);
    return name;
  }
  const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
  const WEBP = new Uint8Array(Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'));

  it('reads a PNG, JPEG or WebP logo of at most 64 KiB, its type told by its first bytes', async () => {
    cwd = await mkdtemp(join(tmpdir(), 'idv-env-'));
    for (const [name, bytes, contentType] of [
      ['logo.png', PNG, 'image/png'],
      ['logo.jpg', JPEG, 'image/jpeg'],
      ['logo.bin', WEBP, 'image/webp'],
    ] as const) {
      const config = await loadServerConfig({ IDV_DEMO_LOGO: await file(name, bytes) }, cwd);
      expect(config.demo.logo?.contentType).toBe(contentType);
      expect(Buffer.from(config.demo.logo!.bytes).equals(Buffer.from(bytes))).toBe(true);
    }
    const big = new Uint8Array(64 * 1024 + 1);
    big.set(PNG);
    await expect(loadServerConfig({ IDV_DEMO_LOGO: await file('big.png', big) }, cwd)).rejects.toThrow(
      /^IDV_DEMO_LOGO: must be at most 64 KiB \(the file has 65537 bytes\)/,
    );
    const justRight = new Uint8Array(64 * 1024);
    justRight.set(PNG);
    expect((await loadServerConfig({ IDV_DEMO_LOGO: await file('right.png', justRight) }, cwd)).demo.logo?.bytes).toHaveLength(65536);
  });

  it('refuses an SVG (it can carry script), whatever its name, and any file that is not one of the three', async () => {
    cwd = await mkdtemp(join(tmpdir(), 'idv-env-'));
    const svg = await file('logo.png', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await expect(loadServerConfig({ IDV_DEMO_LOGO: svg }, cwd)).rejects.toThrow(
      /^IDV_DEMO_LOGO: must be a PNG, JPEG or WebP image \(judged by its first bytes\); SVG is refused/,
    );
    await expect(loadServerConfig({ IDV_DEMO_LOGO: await file('empty.png', '') }, cwd)).rejects.toThrow(/^IDV_DEMO_LOGO: must be a file of 1 byte/);
    await expect(loadServerConfig({ IDV_DEMO_LOGO: 'missing.png' }, cwd)).rejects.toThrow(/^IDV_DEMO_LOGO: cannot read "missing.png" \(ENOENT\)/);
    await expect(loadServerConfig({ IDV_DEMO_LOGO: '.' }, cwd)).rejects.toThrow(/^IDV_DEMO_LOGO: "." is not a file/);
  });
});
