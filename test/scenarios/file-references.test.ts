/**
 * What the code and the docs cite exists: a file named in a comment, the README, DECISIONS.md or
 * the core's CHANGELOG is a file of this repository, so a reader (or an integrator who copied a
 * folder) can open it. The design note the team works from is not in the repository, so nothing
 * cites it: the spec is cited by section, RFCs by URL.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
const names = new Set(tracked.map((file) => basename(file)));

/** The files whose text is read: source, tests, scripts and docs. */
const READ = tracked.filter((file) => /\.(ts|tsx|mjs|md|css)$/.test(file) && !file.startsWith('docs/') && !file.endsWith('package-lock.json'));

/**
 * Names that look like files but are not files of this repository, each for a reason: made at
 * run time or by a tool, or a pattern rather than a name.
 */
const NOT_OURS = new Set([
  'next-env.d.ts', // written by `next build`, git-ignored
  'example.ts', // the blank project's file, written by the test that compiles the core
  'Next.js',
  'Response.json',
  'response.json',
]);

/** `lib/view/*-messages.ts`, `*.test.ts`: patterns, not names. */
const isPattern = (reference: string, text: string, index: number) => text[index - 1] === '*' || reference.startsWith('.') || reference.startsWith('-');

function references(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/[A-Za-z0-9_.[\]/-]*[A-Za-z0-9_\]]\.(?:ts|tsx|mjs|md|css)\b/g)) {
    const reference = match[0];
    // (A path that climbs with `..` is a traversal attempt in a test, not a reference; an absolute
    // one names a file on a machine or in a container, such as the image's /app/scripts/start.mjs.)
    if (NOT_OURS.has(reference) || isPattern(reference, text, match.index) || /node_modules\/|^dist\/|\.\.\/|^\//.test(reference)) continue;
    found.push(reference);
  }
  return found;
}

function exists(reference: string, from: string): boolean {
  if (!reference.includes('/')) return names.has(reference);
  const path = reference.replace(/^\.\//, '');
  return [join(ROOT, path), join(ROOT, dirname(from), path)].some((candidate) => existsSync(candidate)) || tracked.some((file) => file.endsWith(`/${path}`));
}

describe('file references', () => {
  it('name only files that exist in the repository', () => {
    const missing = READ.flatMap((file) => references(file).filter((reference) => !exists(reference, file)).map((reference) => `${file}: ${reference}`));
    expect(missing).toEqual([]);
  });

  it('never cite the design note, which is not in the repository', () => {
    const citing = READ.filter((file) => /DESIGN\.md/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(citing).toEqual([]);
  });
});
