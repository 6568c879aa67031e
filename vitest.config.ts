import { defineConfig } from 'vitest/config';

// Unit and integration tests sit beside the code they test (*.test.ts / *.test.tsx).
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}', 'electron/**/*.test.ts', 'scripts/**/*.test.mjs'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
