import { availableParallelism } from 'node:os';
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
    // One test file per core and one more: many files spend their time waiting on sockets, servers,
    // redis-server and Chromium, not on the CPU. Vitest's default (cores − 1) runs one file at a time
    // on a 2-core machine: the suite took 130 s there, 79 s with 2 workers, 70 s with 3.
    maxWorkers: availableParallelism() + 1,
  },
});
