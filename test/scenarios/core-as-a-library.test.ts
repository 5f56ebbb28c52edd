/**
 * The core as integrators copy it (issue 9): lib/oidc alone in a blank NodeNext project with
 * only jose compiles and loads, so do the examples with it, and none of its files points outside
 * lib/oidc. (The core's README, its example and its error table, is proven by
 * lib/oidc/readme.test.ts, which travels with the folder.)
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createBlankProject, type BlankProject } from '@/test/support/blank-project';

const projects: BlankProject[] = [];
afterAll(() => projects.forEach((project) => project.remove()));

describe('lib/oidc copied into a blank project', () => {
  // The oldest TypeScript the core's README names and the newest (7, what `npm install typescript` gives).
  it.each(['typescript-5.7', 'typescript-7'] as const)(
    'compiles with %s under the README’s tsconfig (NodeNext, ES2023 without the DOM lib, strict), with only jose installed, and loads in Node',
    async (typescript) => {
      const project = createBlankProject();
      projects.push(project);
      const { status, output } = project.compile(typescript);
      expect(output).toBe('');
      expect(status).toBe(0);
      const core = (await import(pathToFileURL(join(project.dir, 'dist/lib/oidc/index.js')).href)) as Record<string, unknown>;
      for (const name of ['startAuthorization', 'completeAuthorization', 'DiscoveryCache', 'JwksCache', 'generateClientKeys', 'IdvError']) {
        expect(typeof core[name], name).toBe('function');
      }
    },
    60_000,
  );

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

  it('has tests that import only test tooling besides the folder, and docs that name only its files', () => {
    const folder = join(import.meta.dirname, '../../lib/oidc');
    const files = readdirSync(folder);
    for (const file of files.filter((name) => name.endsWith('.test.ts'))) {
      const text = readFileSync(join(folder, file), 'utf8');
      const specifiers = [...text.matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((match) => match[1]!);
      for (const specifier of specifiers) expect(specifier, `${file} imports ${specifier}`).toMatch(/^(\.\/[a-z-]+\.ts|jose|vitest|node:[a-z_]+)$/);
    }
    for (const file of files.filter((name) => name.endsWith('.md'))) {
      const text = readFileSync(join(folder, file), 'utf8');
      expect(text, `${file} points outside lib/oidc`).not.toMatch(/\.\.\/|shared\/spec|DESIGN\.md/);
      // `./oidc/index.ts` is the README example's import: the folder as the integrator placed it.
      const named = [...text.matchAll(/(?<![*\w.-])(?:\.\/oidc\/)?([a-z][a-z0-9-]*(?:\.test)?\.(?:ts|md))\b/gi)].map((match) => match[1]!);
      for (const name of named) expect(files, `${file} names ${name}`).toContain(name);
    }
  });
});
