/**
 * The core as integrators copy it (issue 9): lib/oidc alone in a blank NodeNext project with
 * only jose compiles and loads, and none of its files points outside lib/oidc.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { OAUTH_ERROR_CODES, RP_ERROR_CODES } from '@/lib/oidc/errors';
import { createBlankProject, type BlankProject } from '@/test/support/blank-project';

const README = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
/** The README's section for integrators. */
const copyTheCore = README.slice(README.indexOf('## Copy the core'), README.indexOf('## How it works'));

const projects: BlankProject[] = [];
afterAll(() => projects.forEach((project) => project.remove()));

describe('lib/oidc copied into a blank project', () => {
  it('compiles under NodeNext, ES2023 without the DOM lib, strict, with only jose installed, and loads in Node', async () => {
    const project = createBlankProject();
    projects.push(project);
    const { status, output } = project.compile();
    expect(output).toBe('');
    expect(status).toBe(0);
    const core = (await import(pathToFileURL(join(project.dir, 'dist/lib/oidc/index.js')).href)) as Record<string, unknown>;
    for (const name of ['startAuthorization', 'completeAuthorization', 'DiscoveryCache', 'JwksCache', 'generateClientKeys', 'IdvError']) {
      expect(typeof core[name], name).toBe('function');
    }
  }, 60_000);

  it('compiles the README’s example, as written there', () => {
    const project = createBlankProject();
    projects.push(project);
    const example = /```ts\n([\s\S]*?)```/.exec(copyTheCore)?.[1];
    expect(example).toBeDefined();
    // The example's core sits in ./oidc; here in ./lib/oidc. It only leaves out where the callback URL comes from.
    const source = `declare const callbackUrl: string;\n${example!.replace("'./oidc/index.ts'", "'./lib/oidc/index.ts'")}`;
    writeFileSync(join(project.dir, 'example.ts'), source);
    const tsconfig = JSON.parse(readFileSync(join(project.dir, 'tsconfig.json'), 'utf8')) as { include: string[] };
    writeFileSync(join(project.dir, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: [...tsconfig.include, 'example.ts'] }));
    const { status, output } = project.compile();
    expect(output).toBe('');
    expect(status).toBe(0);
    expect(example!.split('\n').length).toBeLessThanOrEqual(35);
  }, 60_000);

  it('lists exactly the error codes of errors.ts in the README, in their order', () => {
    const table = copyTheCore.slice(copyTheCore.indexOf('<!-- error-codes'));
    const listed = [...table.matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]);
    expect(listed).toEqual([...OAUTH_ERROR_CODES, ...RP_ERROR_CODES]);
  });

  it('compiles with the examples', () => {
    const project = createBlankProject({ examples: true });
    projects.push(project);
    const { status, output } = project.compile();
    expect(output).toBe('');
    expect(status).toBe(0);
  }, 60_000);

  it('imports nothing outside lib/oidc but jose, and mentions no file an integrator does not have', () => {
    const folder = join(import.meta.dirname, '../../lib/oidc');
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
      const text = readFileSync(join(folder, file), 'utf8');
      const specifiers = [...text.matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((match) => match[1]!);
      for (const specifier of specifiers) expect(specifier, `${file} imports ${specifier}`).toMatch(/^(\.\/[a-z-]+\.ts|jose|node:[a-z]+)$/);
      expect(text, `${file} mentions the design note`).not.toMatch(/DESIGN\.md/);
      expect(text, `${file} points outside lib/oidc`).not.toMatch(/\.\.\/|shared\/spec/);
    }
  });
});
