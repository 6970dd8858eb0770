import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file starts its own servers on port 0 with its own database file.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
