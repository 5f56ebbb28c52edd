/**
 * This folder's README, as an integrator reads it: its example compiles as written, in a blank
 * project with this folder copied in as `oidc/`, and its error table lists exactly the codes of
 * errors.ts. Self-contained, so it travels with the folder: it imports only test tooling and
 * errors.ts, and takes typescript, jose and @types/node from a node_modules folder above this one.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OAUTH_ERROR_CODES, RP_ERROR_CODES } from './errors.ts';

const HERE = import.meta.dirname;
const README = readFileSync(join(HERE, 'README.md'), 'utf8');

/** A package as installed in the nearest node_modules above this folder. */
function installed(name: string): string {
  for (let dir = HERE; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed above ${HERE}`);
  }
}

/** The README's tsconfig for `tsc` emitting JavaScript ("Copy it"): its one JSON block, as written. */
const TSCONFIG = JSON.parse(/```json\n([\s\S]*?)```/.exec(README)?.[1] ?? 'null') as { compilerOptions: Record<string, unknown> };

const projects: string[] = [];
afterAll(() => projects.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A blank project of an integrator's: `"type": "module"`, the README's tsconfig, only jose (and
 * Node's types) installed, this folder without its tests copied in as `oidc/`, and `example.ts`.
 * Returns what tsc printed and its exit status.
 */
function compileInBlankProject(example: string): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'idv-readme-'));
  projects.push(dir);
  mkdirSync(join(dir, 'oidc'));
  for (const file of readdirSync(HERE)) {
    if (file.endsWith('.ts') && !file.endsWith('.test.ts')) cpSync(join(HERE, file), join(dir, 'oidc', file));
  }
  writeFileSync(join(dir, 'example.ts'), example);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'blank', private: true, type: 'module' }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...TSCONFIG, include: ['oidc', 'example.ts'] }, null, 2));
  for (const name of ['jose', '@types/node']) {
    mkdirSync(join(dir, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(installed(name), join(dir, 'node_modules', name), 'dir');
  }
  const run = spawnSync(process.execPath, [join(installed('typescript'), 'bin/tsc'), '-p', dir], { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe('README.md of the core', () => {
  it('gives a tsconfig that names rootDir, outDir and the types it loads, as TypeScript 6 and later need', () => {
    expect(TSCONFIG.compilerOptions).toMatchObject({
      module: 'NodeNext',
      rewriteRelativeImportExtensions: true,
      rootDir: '.',
      outDir: 'dist',
      types: ['node'],
    });
  });

  it('has an example that compiles as written, in a blank project with only jose installed', () => {
    const example = /```ts\n([\s\S]*?)```/.exec(README)?.[1];
    expect(example).toBeDefined();
    // The example only leaves out where the callback URL comes from.
    const { status, output } = compileInBlankProject(`declare const callbackUrl: string;\n${example!}`);
    expect(output).toBe('');
    expect(status).toBe(0);
    expect(example!.split('\n').length).toBeLessThanOrEqual(35);
  }, 60_000);

  it('lists exactly the error codes of errors.ts, in their order', () => {
    const from = README.slice(README.indexOf('<!-- error-codes'));
    const table = from.slice(0, from.indexOf('\n## '));
    const listed = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(listed).toEqual([...OAUTH_ERROR_CODES, ...RP_ERROR_CODES]);
  });
});
