import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', 'node_modules/**', '.data/**', 'test-results/**', 'playwright-report/**', 'e2e/artifacts/**', 'next-env.d.ts']),
  {
    files: ['lib/oidc/**/*.ts', 'lib/emulator/**/*.ts'],
    rules: {
      // DESIGN.md: the core and the emulator are framework-free and never read the environment.
      'no-restricted-imports': ['error', { patterns: [{ group: ['next', 'next/*', '@/lib/server/*', 'server-only'], message: 'lib/oidc and lib/emulator are framework-free.' }] }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Only lib/server/env.ts reads process.env.' }],
    },
  },
]);
