import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

/** Test support (test/support) is for tests only: product code never imports it. */
const testSupport = { group: ['@/test/*', '**/test/support/*'], message: 'test/ is for tests; product code never imports it.' };
/** DESIGN.md: the core and the emulator are framework-free and never read the environment. */
const frameworks = { group: ['next', 'next/*', '@/lib/server/*', 'server-only'], message: 'lib/oidc and lib/emulator are framework-free.' };

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', 'node_modules/**', '.data/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**', 'next-env.d.ts']),
  {
    // DESIGN.md "Architecture": no import cycles (this rule sees value imports; `npm run lint:cycles` sees types too).
    files: ['**/*.ts', '**/*.tsx'],
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['app/**/*.{ts,tsx}', 'lib/**/*.ts', 'instrumentation.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [testSupport] }] },
  },
  {
    files: ['lib/oidc/**/*.ts', 'lib/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [frameworks] }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only lib/server/env.ts reads process.env.' }],
    },
  },
  {
    files: ['lib/oidc/**/*.ts', 'lib/emulator/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [frameworks, testSupport] }] },
  },
]);
