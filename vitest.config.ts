import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // the sandbox imports kct's contract by package name; tests run it from the sources
  resolve: { alias: [{ find: /^kct\/api\//, replacement: fileURLToPath(new URL('./packages/kct/src/api/', import.meta.url)) }] },
  test: {
    // test/reliability runs here at a smaller size and without its timed bounds; the whole of it
    // is `npm run test:reliability` (vitest.reliability.config.ts, docs/security.md).
    include: ['test/**/*.test.ts'],
    // hang guards, not speed checks: a loaded CI runner once took 61 s for one OCR answer
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // Two cores: end-to-end files each run a sandbox and several kct processes.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
