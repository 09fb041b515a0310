// Every benchmark runs (docs/benchmarks.md): the smoke pass of each (`node bench/run.js --smoke
// <name>`: one round of tiny inputs through the same code as `npm run bench`), so that none can
// go stale unseen, as bench/sqlite.js once did. What a run measures is printed, never asserted:
// the only failure is a benchmark that could not run. The ones that build or install something,
// or OCR a page, run in the slow tier (benchmarks-slow.test.ts).
import { describe, it } from 'vitest';
import { smokeRun } from './benchmark-smoke.js';

describe('the benchmarks, smoke pass', () => {
  // one process for all: its sandboxes (in-process in a smoke pass) load their modules once
  it('startup, throughput, memory, sandbox, sqlite, stall, report and scale run', async () => {
    await smokeRun(['startup', 'throughput', 'memory', 'sandbox', 'sqlite', 'stall', 'report', 'scale']);
  });
});
