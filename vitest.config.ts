import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/reliability runs here at a smaller size and without its timed bounds; the whole of it
    // is `npm run test:reliability` (vitest.reliability.config.ts, docs/security.md).
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: end-to-end files each run a sandbox and several kct processes.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
