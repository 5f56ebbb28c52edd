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
 * ARCHITECTURE.md names modules, a few entry points and files by hand: each must still be where
 * it says. So that names drift less, it cites modules rather than the functions inside them; a
 * name it does cite is checked where it is cited:
 * - a path in backticks (`lib/server/failures.ts`, `app/page.tsx`, `qa/`, `steps.ts`) exists, and
 *   so does every entry of the tree's drawing;
 * - a name cited with a module, `name` (`path`) or (`name`, `path`) or (`path`: `name`), is
 *   declared in that module (or, for a folder, in one of its files); `Type.member` is a member
 *   declared in the module that declares `Type`;
 * - any other name that looks like code (`camelCase`, `PascalCase`, `UPPER_CASE`) is declared
 *   somewhere in the product's source. Environment variables are configuration, not code.
 */
describe('ARCHITECTURE.md', () => {
  const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
  const SOURCE = /\.(ts|tsx|mjs)$/;
  const sources = tracked.filter((file) => SOURCE.test(file) && !/\.(test|spec)\.tsx?$/.test(file));
  const sourceOf = new Map(sources.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
  const allSource = [...sourceOf.values()].join('\n');
  /** The variables docs/operations.md's tables list, and what the source reads from process.env. */
  const variables = new Set([
    ...[...readFileSync(join(ROOT, 'docs/operations.md'), 'utf8').matchAll(/^\| `([A-Z][A-Z0-9_]+)`/gm)].map((match) => match[1]!),
    ...[...allSource.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)].map((match) => match[1]!),
    ...[...allSource.matchAll(/process\.env\[['"]([A-Z][A-Z0-9_]+)['"]\]/g)].map((match) => match[1]!),
  ]);
  /** Words in backticks that are not code of ours: cookie attributes, a header, a standard global. */
  const NOT_CODE = new Set(['HttpOnly', 'Intl', 'Secure', 'Origin', 'SameSite']);
  const isCode = (name: string) =>
    !NOT_CODE.has(name) && !variables.has(name) && /^(?:[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*|[A-Z][A-Z0-9]*_[A-Z0-9_]+)$/.test(name);
  const topLevel = new Set(tracked.map((file) => file.split('/')[0]!));

  /** `name` declared at the top of `code`: a function, class, interface, type, constant or enum, or a re-export. */
  const declaresAtTop = (code: string, name: string) =>
    new RegExp(
      String.raw`^(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|interface|type|const|let|enum)\s+${name}\b|\bexport\s*(?:type\s*)?\{[^}]*\b${name}\b[^}]*\}`,
      'm',
    ).test(code);
  /** `name` declared anywhere in `code`: as above, or a member (property or method) of something. */
  const declaresAnywhere = (code: string, name: string) =>
    declaresAtTop(code, name) ||
    new RegExp(
      String.raw`(?:function\*?|class|interface|type|const|let|enum)\s+${name}\b|^\s*(?:async\s+|readonly\s+|static\s+|get\s+)*${name}\??\s*[(:<=]|\b${name}\s*:\s*(?:async\s*)?\(`,
      'm',
    ).test(code);
  /** The source files a cited module stands for: the file, or every file under the folder. */
  const filesOf = (path: string) => (SOURCE.test(path) ? [path] : sources.filter((file) => file.startsWith(`${path.replace(/\/$/, '')}/`)));
  /** A module of ours: a source file, or a folder under lib/ (`lib/oidc`). */
  const isModule = (path: string) => SOURCE.test(path) || /^lib\/[\w-]+\/?$/.test(path);

  /** Every `name` and `path` in backticks. */
  const backticked = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  const looksLikePath = (value: string) =>
    /^[\w@[\]-][\w.@[\]-]*(?:\/[\w.@[\]-]*)*$/.test(value) &&
    ((value.includes('/') && topLevel.has(value.split('/')[0]!)) || /^[\w-]+\/$/.test(value) || /\.(?:ts|tsx|mjs|md|json|yaml|css)$/.test(value));

  /**
   * The names tied to a module. Within one parenthesis (or one of its `;`-parts), a name is tied to
   * the first module cited after it, else to the last one before it: (`name`, `path`),
   * (`path`: `name`), (`a`, `path`; `b`, `path2`). The name written just before a parenthesis is
   * tied to the first module in it: `name` (`path`).
   */
  function tiedNames(): { name: string; module: string }[] {
    const tied: { name: string; module: string }[] = [];
    for (const group of text.matchAll(/(`[^`\n]+`\**\s*)?\(([^()]*)\)/g)) {
      const before = group[1] ? /`([^`]+)`/.exec(group[1])![1]! : undefined;
      group[2]!.split(';').forEach((part, index) => {
        const inside = [...part.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
        const modules = inside.flatMap((value, at) => (looksLikePath(value) && isModule(value) ? [at] : []));
        if (modules.length === 0) return;
        if (index === 0 && before !== undefined && isCode(before)) tied.push({ name: before, module: inside[modules[0]!]! });
        inside.forEach((value, at) => {
          if (!isCode(value)) return;
          const nearest = modules.find((position) => position > at) ?? modules.findLast((position) => position < at)!;
          tied.push({ name: value, module: inside[nearest]! });
        });
      });
    }
    return tied;
  }

  it('cites only paths that exist', () => {
    const cited = backticked.filter(looksLikePath);
    expect(cited.length).toBeGreaterThan(40);
    const found = (path: string) =>
      existsSync(join(ROOT, path)) ||
      (!path.includes('/') ? names.has(path) : tracked.some((file) => file.includes(`/${path.replace(/\/$/, '')}/`) || file.endsWith(`/${path}`)));
    expect(cited.filter((path) => !found(path))).toEqual([]);
  });

  it('draws a tree whose every entry exists', () => {
    const drawing = /## The tree[\s\S]*?```\n([\s\S]*?)```/.exec(text)![1]!;
    const entries: string[] = [];
    let folder = '';
    for (const line of drawing.split('\n')) {
      const first = /^( *)(\S.*?)(?: {2,}|$)/.exec(line);
      if (first === null || first[1]!.length > 2) continue; // a description running on
      // An entry may name several files side by side (`presets.ts policy.ts`).
      for (const name of first[2]!.split(' ')) {
        const path = first[1]!.length === 0 ? name : `${folder}${name}`;
        if (first[1]!.length === 0 && name.endsWith('/')) folder = name;
        entries.push(path);
      }
    }
    expect(entries.length).toBeGreaterThan(30);
    expect(entries.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('cites a name with its module only where that module declares it', () => {
    const tied = tiedNames();
    expect(tied.length).toBeGreaterThan(5);
    const wrong = tied.filter(({ name, module }) => !filesOf(module).some((file) => sourceOf.has(file) && declaresAtTop(sourceOf.get(file)!, name)));
    expect(wrong.map(({ name, module }) => `${name} is not declared in ${module}`)).toEqual([]);
  });

  it('cites a member only of a type that declares it', () => {
    const members = backticked.map((value) => /^([A-Z]\w+)\.([a-z]\w*)$/.exec(value)).filter((match) => match !== null);
    const wrong = members.filter(
      ([, type, member]) =>
        ![...sourceOf.values()].some(
          (code) => declaresAtTop(code, type!) && new RegExp(String.raw`^\s*(?:async\s+|readonly\s+|static\s+|get\s+)*${member}\??\s*[(:<=]`, 'm').test(code),
        ),
    );
    expect(wrong.map(([value]) => value)).toEqual([]);
  });

  it('cites only names the product’s source declares', () => {
    const cited = new Set(backticked.filter(isCode));
    expect(cited.size).toBeGreaterThan(5);
    expect([...cited].filter((name) => !declaresAnywhere(allSource, name))).toEqual([]);
  });
});

describe('README.md', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  it('stays at most 200 lines: detail goes to docs/, figures to docs/benchmarks.md', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('keeps what a newcomer needs: one command to run the app, one to test it, staging, several instances', () => {
    expect(readme).toContain('npm install && npm run dev');
    expect(readme).toContain('npm install && npm test');
    for (const variable of ['IDV_BASE_URL', 'IDV_CLIENT_ID', 'IDV_SIGNING_KEY', 'IDV_ENCRYPTION_KEY', 'REDIS_URL', 'SESSION_SECRET'])
      expect(readme).toContain(`\`${variable}\``);
    expect(readme).toContain('](docs/operations.md#against-staging-provider-mode)');
    expect(readme).toContain('](docs/operations.md#run-several-instances)');
  });

  it('says why each dependency is there', () => {
    const { dependencies, devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const table = readme.slice(readme.indexOf('## Dependencies'), readme.indexOf('\n## ', readme.indexOf('## Dependencies') + 1));
    // `@types/*` stands for every package of types.
    const unexplained = Object.keys({ ...dependencies, ...devDependencies }).filter((name) => !name.startsWith('@types/') && !table.includes(`\`${name}\``));
    expect(unexplained).toEqual([]);
  });
});
