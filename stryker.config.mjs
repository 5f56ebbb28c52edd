// @ts-check
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * Mutation testing of the security-relevant core: the relying party's protocol code (lib/oidc)
 * and the emulator's request checks (lib/emulator/checks). A measuring tool, run on demand with
 * `npm run test:mutation` (not part of `npm test` or CI); it never fails the build (break: null).
 *
 * Reports: clear text on the console, HTML and JSON in reports/mutation/ (git-ignored).
 * One file: `npm run test:mutation -- --mutate lib/oidc/pkce.ts`.
 * @see https://stryker-mutator.io/docs/stryker-js/configuration/
 * @see https://stryker-mutator.io/docs/stryker-js/vitest-runner/
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  packageManager: 'npm',
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: {
    configFile: 'vitest.config.ts',
    // Only the test files that import (directly or not) the mutated file run; the scenario
    // tests under test/scenarios import lib/oidc and lib/emulator, so they are included.
    related: true,
  },
  mutate: ['lib/oidc/**/*.ts', 'lib/emulator/checks/**/*.ts', '!**/*.test.ts'],
  // Only the tests that cover a mutant run against it.
  coverageAnalysis: 'perTest',
  // Two cores, shared with other work.
  concurrency: 2,
  // A busy machine: give slow (not looping) mutants more room before calling them timeouts.
  timeoutMS: 10_000,
  dryRunTimeoutMinutes: 15,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true, reportMutants: true },
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 80, low: 60, break: null },
  // Build and test output that the unit tests do not read; not copied into the sandboxes.
  ignorePatterns: ['/.next', '/out', '/.data', '/coverage', '/test-results', '/playwright-report', '/e2e/artifacts'],
  // The sandboxes (instrumented copies of the project) live outside the checkout, so that
  // `eslint .` (which does not skip dot-folders) and editors never see them during a run.
  // Deleted after a successful run; `--tempDirName .stryker-tmp` puts them back in (git-ignored).
  tempDirName: join(tmpdir(), `idv-rp-stryker-${basename(process.cwd())}`),
  cleanTempDir: true,
  // Results are kept in reports/mutation/incremental.json: a rerun tests only the mutants whose
  // code or covering tests changed (a full run of every mutant takes hours on two cores).
  // `--force` tests every mutant again.
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
};

export default config;
