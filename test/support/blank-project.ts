/**
 * A blank TypeScript project of an integrator's, in a temporary directory, with the core copied
 * in (lib/oidc without its tests): `"type": "module"`, the tsconfig of the core's README (strict,
 * NodeNext, `lib: ["ES2023"]` with @types/node and no DOM lib, `rewriteRelativeImportExtensions`,
 * `rootDir` and `outDir`), and only jose installed (linked from this project's node_modules).
 * It compiles with the project's TypeScript, or with another installed under an npm alias
 * (`typescript-5.7`, `typescript-7`: package.json). With `examples`, examples/ is copied too,
 * and what they need besides (express, express-session and their types; openid-client and its
 * oauth4webapi); with `brokenRelyingParty`, test/support/broken-relying-party.ts (an Express app
 * like examples/express-server.ts, so it needs `examples` too).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../..');

/** The integrator's tsconfig.json: the one the core's README gives ("Copy it"), as written there. */
export const BLANK_TSCONFIG = JSON.parse(/```json\n([\s\S]*?)```/.exec(readFileSync(join(ROOT, 'lib/oidc/README.md'), 'utf8'))![1]!) as {
  compilerOptions: Record<string, unknown>;
};

/** A TypeScript installed in this project: its own, or one under an npm alias of package.json. */
export type TypeScriptPackage = 'typescript' | 'typescript-5.7' | 'typescript-7';

export interface BlankProject {
  readonly dir: string;
  /** Runs tsc (of `typescript`, by default the project's own) on the project: its exit status and everything it printed. */
  compile(typescript?: TypeScriptPackage): { status: number | null; output: string };
  remove(): void;
}

export function createBlankProject(options: { examples?: boolean; brokenRelyingParty?: boolean } = {}): BlankProject {
  const dir = mkdtempSync(join(tmpdir(), 'idv-blank-'));
  mkdirSync(join(dir, 'lib/oidc'), { recursive: true });
  for (const file of readdirSync(join(ROOT, 'lib/oidc'))) {
    if (file.endsWith('.ts') && !file.endsWith('.test.ts')) cpSync(join(ROOT, 'lib/oidc', file), join(dir, 'lib/oidc', file));
  }
  const packages = ['jose', '@types/node'];
  const include = ['lib/oidc'];
  if (options.examples) {
    cpSync(join(ROOT, 'examples'), join(dir, 'examples'), { recursive: true, filter: (source) => !source.endsWith('.md') });
    packages.push('express', 'express-session', '@types/express', '@types/express-session', 'openid-client', 'oauth4webapi');
    include.push('examples');
  }
  if (options.brokenRelyingParty) {
    // At the same path as here, so its import of lib/oidc resolves as it does in this project.
    mkdirSync(join(dir, 'test/support'), { recursive: true });
    cpSync(join(ROOT, 'test/support/broken-relying-party.ts'), join(dir, 'test/support/broken-relying-party.ts'));
    include.push('test/support/broken-relying-party.ts');
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'blank', private: true, type: 'module' }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...BLANK_TSCONFIG, include }, null, 2));
  for (const name of packages) {
    mkdirSync(join(dir, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  return {
    dir,
    compile(typescript = 'typescript') {
      const run = spawnSync(process.execPath, [join(ROOT, 'node_modules', typescript, 'bin/tsc'), '-p', dir], { encoding: 'utf8' });
      return { status: run.status, output: `${run.stdout}${run.stderr}` };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
