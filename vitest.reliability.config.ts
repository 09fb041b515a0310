import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// npm run test:reliability: the whole reliability suite at full size, with its latency bounds
// (docs/security.md). One file at a time, so one file's load does not skew another's figures.
export default defineConfig({
  // the sandbox imports kct's contract by package name; tests run it from the sources
  resolve: { alias: [{ find: /^kct\/api\//, replacement: fileURLToPath(new URL('./src/api/', import.meta.url)) }] },
  test: {
    include: ['test/reliability/**/*.test.ts'],
    env: { KCT_RELIABILITY: 'full' },
    testTimeout: 600_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    reporters: ['default'],
  },
});
