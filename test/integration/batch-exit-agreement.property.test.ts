// One batch, one exit code: `kct batch`, `kct status` (once and --watch) and `kct result` (in every
// format) all exit 3 when any item ended FAILURE, and 0 when none did (docs/guides/exit-codes.md).
// A batch ends SUCCESS when one item did, so each command must look at the items, not the status.
// Over generated batches of 1 to 4 items, any of them failing; in-process, against a real sandbox.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

describe('every command that reads a batch gives it the same exit code', () => {
  it('3 when any item failed, 0 when none did', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), async (fails) => {
        round += 1;
        const manifest = join(tempDir('kct-batch-exits-'), 'answers.jsonl');
        const lines = fails.map((fail, i) => ({
          paper_content: `An essay on school uniforms, round ${round}, item ${i}: they limit expression.${fail ? ' KCT-SANDBOX-FAIL' : ''}`,
        }));
        writeFileSync(manifest, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
        const expected = fails.includes(true) ? 3 : 0;
        const batch = await shared.kct(['batch', manifest, '--model', '12', '--output', 'ndjson']);
        expect(batch.code, batch.stderr).toBe(expected);
        // the same manifest again: the same batch, replayed, free
        const [task] = parseJson<{ task_id: string }[]>(
          (await shared.kct(['batch', manifest, '--model', '12', '--no-wait', '--json'])).stdout,
        );
        for (const args of [
          ['status', task.task_id],
          ['status', task.task_id, '--watch'],
          ['result', task.task_id],
          ['result', task.task_id, '--output', 'csv'],
          ['result', task.task_id, '--json'],
        ]) {
          const run = await shared.kct(args);
          expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(expected);
        }
      }),
      { numRuns: propertyRuns(5), seed: propertySeed(20261129) },
    );
  });
});
