// A class sent in batches with --resume, stopped (Ctrl-C) any number of times, then run to its end:
// every answer charged once, every row its own mark, and the journal's report says the same. A
// second stop once wrote the batch's id as each reused answer's own task: the run that finished
// printed 300 rows SUCCESS with no score ("0 of 300 marked") and exited 0. Against a real sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, ndjsonRows, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox({ latencyMs: 60 });

describe('a --via batch run with --resume, stopped and run again', () => {
  it('property: charges each answer once, and the run that finishes prints every mark and exits 0', async () => {
    let classes = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 6 }),
        // each stop: after this many rows printed (0: when the first batch is accepted)
        fc.array(fc.nat(2), { minLength: 1, maxLength: 3 }),
        async (count, stops) => {
          const tag = `batch resume ${classes++} ${Date.now()}`;
          const kct = asUser(shared.sandbox, 'user', tempDir());
          const dir = tempDir('kct-batch-resume-');
          for (let i = 1; i <= count; i++)
            writeFileSync(join(dir, `pupil-${i}.txt`), `Uniforms help pupils focus, answer ${i} (${tag}): they remove distractions.\n`);
          const journal = join(dir, 'class.journal');
          const args = ['one-pass', dir, '--model', '12', '--via', 'batch', '--resume', journal, '--output', 'ndjson'];
          const before = await creditsOf(kct);
          for (const after of stops) {
            const controller = new AbortController();
            const run = await kct(args, {
              signal: controller.signal,
              onStdout: (_, all) => {
                if (after > 0 && all.split('\n').length - 1 >= after) controller.abort();
              },
              onStderr: (_, all) => {
                if (after === 0 && all.includes('batch')) controller.abort();
              },
            });
            expect([0, 130], run.stderr).toContain(run.code);
          }
          const last = await kct(args);
          expect(last.code, last.stderr).toBe(0);
          const rows = ndjsonRows<{ status: string; score: number | null; task_id: string }>(last.stdout);
          expect(rows).toHaveLength(count);
          for (const row of rows) {
            expect(row.status, last.stdout).toBe('SUCCESS');
            expect(typeof row.score, last.stdout).toBe('number');
          }
          expect(last.stderr).toContain(`Summary: ${count} of ${count} answers marked`);
          expect(before - (await creditsOf(kct)), last.stderr).toBe(count);
          const report = await kct(['report', journal, '--out', join(dir, 'class.html'), '--json']);
          expect(parseJson<{ answers: number; marked: number }>(report.stdout)).toMatchObject({ answers: count, marked: count });
        },
      ),
      { numRuns: 2 + propertyRuns(4), seed: propertySeed(5341), examples: [[3, [0, 0]]] },
    );
  }, 240_000);
});
