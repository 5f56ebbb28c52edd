/**
 * What the code and the docs cite exists, and lies in the repository: a file named in a comment,
 * a README, docs/, DECISIONS.md or the core's CHANGELOG is a file of this repository, so a reader
 * (or an integrator who copied a folder) can open it; and no text anywhere in the tree points to a
 * file outside it (a sibling folder, a folder of one machine). The design note the team works from
 * is not in the repository, so nothing cites it: the spec is cited by title and section, RFCs by URL.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** The repository's files: those git tracks, and new ones not yet added (never what git ignores). */
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  // Files only: a deleted file is still in git's index, and a link to a folder (node_modules linked
  // into a second checkout) is listed as a new file.
  .filter((file) => file !== '' && statSync(join(ROOT, file), { throwIfNoEntry: false })?.isFile() === true);
const names = new Set(tracked.map((file) => basename(file)));

/** The files whose text is read for file names: source, tests, scripts and docs (docs/ too). */
const READ = tracked.filter((file) => /\.(ts|tsx|mjs|md|css)$/.test(file));

/**
 * Every text file of the tree, where nothing may point outside the repository: READ, and the
 * Dockerfile, compose.yaml, deploy/, .ci/, configuration. Binary files (images) hold no text;
 * package-lock.json is written by npm and names registry URLs only.
 */
const TEXT = tracked.filter((file) => file !== 'package-lock.json' && !readFileSync(join(ROOT, file)).includes(0));

/**
 * Names that look like files but are not files of this repository, each for a reason: made at
 * run time or by a tool, or a pattern rather than a name.
 */
const NOT_OURS = new Set([
  'next-env.d.ts', // written by `next build`, git-ignored
  'example.ts', // the blank project's file, written by the tests that compile the core
  'Next.js',
  'Response.json',
  'response.json',
]);

/** `lib/view/*-messages.ts`, `*.test.ts`, `.test.ts`: patterns, not names. */
const isPattern = (reference: string, text: string, index: number) =>
  text[index - 1] === '*' || (reference.startsWith('.') && !/^\.\.?\//.test(reference)) || reference.startsWith('-');

function references(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/[A-Za-z0-9_.[\]/-]*[A-Za-z0-9_\]]\.(?:ts|tsx|mjs|md|css)\b/g)) {
    // A Markdown link's text may be a path: `[docs/operations.md](docs/operations.md)` names docs/operations.md.
    const reference = match[0].startsWith('[') && !match[0].includes(']') ? match[0].slice(1) : match[0];
    // An absolute path names a file on a machine or in a container (the image's /app/scripts/start.mjs),
    // never one of the repository's: the next test keeps those to what is allowed.
    if (NOT_OURS.has(reference) || isPattern(reference, text, match.index) || /node_modules\/|^dist\/|^\//.test(reference)) continue;
    found.push(reference);
  }
  return found;
}

function exists(reference: string, from: string): boolean {
  // A path that climbs is read from the folder of the file that names it, as a Markdown link is.
  if (reference.startsWith('../')) return existsSync(join(ROOT, dirname(from), reference));
  if (!reference.includes('/')) return names.has(reference);
  const path = reference.replace(/^\.\//, '');
  return [join(ROOT, path), join(ROOT, dirname(from), path)].some((candidate) => existsSync(candidate)) || tracked.some((file) => file.endsWith(`/${path}`));
}

/** Where a path starts: at the start of a line, or after a space, a quote, a bracket, `=`, `,` or `:`. */
const START = String.raw`(?<=^|[\s'"\x60(\[{=,:])`;
/** What a path runs on with: anything but a space, a quote, a closing bracket, `,` or `;`. */
const REST = String.raw`[^\s'"\x60)\]},;]*`;

/**
 * Top folders that belong to one machine or one person (a checkout, a home, a mount, a shared
 * drive): a path under them names a file that readers elsewhere do not have. Not among them, since
 * every machine or image that runs this has them or they are not files at all: the container
 * image's folders (`/app`, the image's working directory, which is also the emulator's route
 * `/app/<interaction>`; `/data`, its data folder), Debian's system folders the code uses (`/usr`,
 * `/etc`, `/proc`, `/dev`, `/run`, `/var`) and the scratch folder `/tmp`.
 */
const MACHINE_FOLDERS = ['work', 'workspace', 'workspaces', 'home', 'Users', 'root', 'mnt', 'media', 'srv', 'opt', 'Volumes', 'private', 'shared', 'projects'];
const ABSOLUTE = new RegExp(`${START}/(?:${MACHINE_FOLDERS.join('|')})(?![A-Za-z0-9_.-])${REST}`, 'gm');
/** A relative path that climbs (`../`): it must stay in the repository, read from its file's folder. */
const CLIMBING = new RegExp(`${START}(?:\\./)?(?:\\.\\./)+${REST}`, 'gm');

/** Paths outside the repository that are allowed all the same, each for the reason given. */
const ALLOWED_OUTSIDE: { path: RegExp; in?: RegExp; why: string }[] = [
  {
    path: /^\/home\//,
    in: /^scripts\/container\//,
    why: 'a folder inside the container: the container test checks that the app cannot write its user’s home',
  },
  {
    path: /^\/opt\/cni\//,
    in: /^scripts\/container\//,
    why: 'where Podman’s CNI plugins are installed on any machine: the container test looks for the dnsname plugin there',
  },
  {
    path: /^(\.\/)?(\.\.\/)+(?!.*\.[A-Za-z]{1,4}$)/,
    in: /\.(test|spec)\.ts$/,
    why: 'a traversal string a security test sends to be refused (`../../../etc/passwd`): it names no file of ours, having no extension of a source or document file',
  },
];

/** The paths in `file` that lead outside the repository and are not allowed. */
function outsideReferences(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const outside = [
    ...[...text.matchAll(ABSOLUTE)].map((match) => match[0]),
    ...[...text.matchAll(CLIMBING)].map((match) => match[0]).filter((path) => relative(ROOT, resolve(ROOT, dirname(file), path)).startsWith('..')),
  ];
  return outside.filter((path) => !ALLOWED_OUTSIDE.some((allowed) => allowed.path.test(path) && (allowed.in === undefined || allowed.in.test(file))));
}

describe('file references', () => {
  it('name only files that exist in the repository', () => {
    const missing = READ.flatMap((file) =>
      references(file)
        .filter((reference) => !exists(reference, file))
        .map((reference) => `${file}: ${reference}`),
    );
    expect(missing).toEqual([]);
  });

  it('never lead outside the repository: no sibling folder, no folder of one machine', () => {
    const outside = TEXT.flatMap((file) => outsideReferences(file).map((path) => `${file}: ${path}`));
    expect(outside).toEqual([]);
  });

  it('never cite the design note, which is not in the repository', () => {
    const citing = READ.filter((file) => /DESIGN\.md/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(citing).toEqual([]);
  });
});

/**
 * ARCHITECTURE.md names functions, types and files by hand: each must still be there. A name in
 * backticks that looks like code (`camelCase`, `PascalCase`, `UPPER_CASE`) is declared in the
 * product's source (a function, class, interface, type, constant, method or property), and a
 * path in backticks under one of the repository's top folders exists.
 */
describe('ARCHITECTURE.md', () => {
  const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const source = tracked
    .filter((file) => /\.(ts|tsx|mjs)$/.test(file) && !/\.(test|spec)\.tsx?$/.test(file))
    .map((file) => readFileSync(join(ROOT, file), 'utf8'))
    .join('\n');
  /** Words in backticks that are not code of ours: a cookie attribute, a standard global. */
  const NOT_CODE = new Set(['HttpOnly', 'Intl', 'Secure', 'Origin']);

  it('cites only names the source declares', () => {
    const cited = new Set([...text.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((match) => match[1]!));
    const codeLike = [...cited].filter((name) => !NOT_CODE.has(name) && /^(?:[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)$/.test(name));
    expect(codeLike.length).toBeGreaterThan(50);
    const declared = (name: string) =>
      new RegExp(
        String.raw`(?:function\*?|class|interface|type|const|let|enum)\s+${name}\b|^\s*(?:async\s+|readonly\s+|static\s+|get\s+)*${name}\s*[(:?<=]|\b${name}\s*:\s*(?:async\s*)?\(|\bexport\s*\{[^}]*\b${name}\b|process\.env\.${name}\b|'${name}'`,
        'm',
      ).test(source);
    expect(codeLike.filter((name) => !declared(name))).toEqual([]);
  });

  it('cites only paths that exist', () => {
    const cited = [...text.matchAll(/`((?:app|lib|e2e|test|scripts|docs|conformance|examples|deploy|public)\/[^`\s*]*)`/g)].map((match) => match[1]!);
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});

describe('README.md', () => {
  it('stays at most 200 lines: detail goes to docs/, figures to docs/benchmarks.md', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });
});
