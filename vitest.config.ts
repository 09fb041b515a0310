import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Four projects (docs/testing.md, "Tiers"). `npm test` runs the first three; `npm run test:slow`
// runs the fourth, and CI runs both. `npx vitest run` alone runs all four.
//
// What is slow is slow by its nature, not by a sleep: an npm install, a single-file executable
// built, interactive shells pressing Tab over generated file names, 600 files under a descriptor
// limit, a SIGKILL halfway, a run held to a few requests a second, forced collections, the
// benchmarks that install, build or OCR.
// test/reliability runs there at a smaller size than `npm run test:reliability`.
const SLOW = [
  'test/e2e/package.test.ts',
  'test/e2e/install-docs.test.ts',
  'test/e2e/completion.test.ts',
  'test/e2e/quick-start.test.ts',
  'test/e2e/executable.test.ts',
  'test/e2e/file-descriptors.test.ts',
  'test/e2e/killed-run.test.ts',
  'test/e2e/benchmarks-slow.test.ts',
  'test/integration/polite-runs.test.ts',
  'test/reliability/**/*.test.ts',
];

// CI's second track (Node.js 22 and 24, .ci/run) leaves out the benchmarks' smoke pass: that every
// benchmark runs is shown by the machine's `npm test`, and the pass is 40 s of each runtime's part.
const RUNTIME_TRACK = process.env.KCT_CI_RUNTIME_TRACK === '1' ? ['test/e2e/benchmarks.test.ts'] : [];

export default defineConfig({
  // the sandbox imports kct's contract by package name; tests run it from the sources
  resolve: { alias: [{ find: /^kct\/api\//, replacement: fileURLToPath(new URL('./src/api/', import.meta.url)) }] },
  test: {
    // hang guards, not speed checks: a loaded CI runner once took 61 s for one OCR answer
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // Two cores: end-to-end files each run a sandbox and several kct processes.
    maxWorkers: 2,
    reporters: ['default'],
    // transformed modules kept on disk (node_modules/.experimental-vitest-cache): a second run,
    // as CI's on Node 22 and 24 after Node 20's, transforms nothing again
    experimental: { fsModuleCache: true },
    projects: [
      // In-process files share one module graph per worker (isolate: false): kct and the sandbox
      // are loaded once a worker instead of once a file, which halves their time. A file must
      // therefore leave the process as it found it (environment, working directory, timers).
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], exclude: SLOW, isolate: false } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], exclude: [...SLOW, ...RUNTIME_TRACK] } },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
