// The smoke pass of the benchmarks too slow for npm test (benchmarks.test.ts): an install from
// packed tarballs, a single-file executable built, OCR. Figures printed, never asserted.
import { describe, it } from 'vitest';
import { smokeRun } from './benchmark-smoke.js';

describe('the slow benchmarks, smoke pass', () => {
  it.each(['install', 'executable', 'ocr'])('%s runs', async (name) => {
    await smokeRun([name]);
  });
});
