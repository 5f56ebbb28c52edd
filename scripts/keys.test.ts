/**
 * `npm run keys` as a user runs it: through tsx, which loads the core's `.ts` imports as they are.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKeysArguments } from './keys';

const ROOT = join(import.meta.dirname, '..');

function runKeys(...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'scripts/keys.ts'), ...args], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('npm run keys', () => {
  it('prints private keys for the environment and the public JWKS to register (--json), under tsx', () => {
    const run = runKeys('--json', '--alg', 'EdDSA');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const printed = JSON.parse(run.stdout) as {
      IDV_SIGNING_KEY: Record<string, unknown>;
      IDV_ENCRYPTION_KEY: Record<string, unknown>;
      public_jwks: { keys: Record<string, unknown>[] };
    };
    expect(printed.IDV_SIGNING_KEY).toMatchObject({ alg: 'EdDSA', crv: 'Ed25519', d: expect.any(String) });
    expect(printed.IDV_ENCRYPTION_KEY).toMatchObject({ alg: 'RSA-OAEP-256', d: expect.any(String) });
    expect(printed.public_jwks.keys.map((key) => key.kid)).toEqual([printed.IDV_SIGNING_KEY.kid, printed.IDV_ENCRYPTION_KEY.kid]);
    expect(JSON.stringify(printed.public_jwks)).not.toMatch(/"d":/);
  }, 30_000);

  it('prints env lines a shell can source', () => {
    const run = runKeys();
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^IDV_SIGNING_KEY='\{"/m);
    expect(run.stdout).toMatch(/^IDV_ENCRYPTION_KEY='\{"/m);
  }, 30_000);

  it('prints, with --env-file, lines an env file holds as they are: the JSON unquoted, everything else a comment', () => {
    const run = runKeys('--env-file');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    // Docker's and Podman's --env-file take the rest of the line as the value, quotes included.
    expect(lines.filter((line) => !line.startsWith('#')).map((line) => line.slice(0, line.indexOf('=')))).toEqual(['IDV_SIGNING_KEY', 'IDV_ENCRYPTION_KEY']);
    const value = (name: string) => JSON.parse(lines.find((line) => line.startsWith(`${name}=`))!.slice(name.length + 1)) as Record<string, unknown>;
    expect(value('IDV_SIGNING_KEY')).toMatchObject({ alg: 'ES256', d: expect.any(String) });
    expect(value('IDV_ENCRYPTION_KEY')).toMatchObject({ alg: 'RSA-OAEP-256', d: expect.any(String) });
    const jwks = JSON.parse(lines.find((line) => line.startsWith('# public JWKS: '))!.slice('# public JWKS: '.length)) as { keys: Record<string, unknown>[] };
    expect(jwks.keys.map((key) => key.kid)).toEqual([value('IDV_SIGNING_KEY').kid, value('IDV_ENCRYPTION_KEY').kid]);
    expect(JSON.stringify(jwks)).not.toMatch(/"d":/);
    expect(() => parseKeysArguments(['--json', '--env-file'])).toThrow('choose one');
  }, 30_000);

  it('refuses an unknown algorithm or argument with exit code 2', () => {
    const run = runKeys('--alg', 'RS256');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('keys: --alg must be one of ES256, PS256, EdDSA');
    expect(() => parseKeysArguments(['--verbose'])).toThrow('unknown argument "--verbose"');
  }, 30_000);
});
