import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Real processes, real files: each test file in its own process, a generous time per test.
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
