import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      // `server-only` throws outside React Server Components; unit tests run lib/server directly.
      'server-only': fileURLToPath(new URL('./test/support/server-only-noop.ts', import.meta.url)),
      '@': fileURLToPath(new URL('.', import.meta.url)),
    },
  },
  test: {
    include: ['lib/**/*.test.ts', 'test/**/*.test.ts', 'scripts/**/*.test.ts', 'conformance/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
  },
});
