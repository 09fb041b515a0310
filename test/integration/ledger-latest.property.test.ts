// This machine's ledger names the latest task that marked an answer. A run with another account's
// key on the same machine asks the service about the answer's tasks, latest first, and is shown
// none of them; it once recorded an earlier task as the latest while it looked, so the next run
// of the owner brought back a mark --mark-again had replaced, and --mark-again then replayed
// instead of marking anew. Property: over generated sequences of runs of one answer (as it is,
// --mark-again, another account's), a run reuses the owner's latest mark, and --mark-again
// always charges one new task.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, FIXTURES, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const SEED = propertySeed(3402);
const RUNS = propertyRuns(6);

type Step = 'again' | 'other account' | 'as it is';

describe("the ledger's latest mark", () => {
  it(`stays the owner's latest through runs with another account's key (seed ${SEED}, ${RUNS} runs)`, async () => {
    let answers = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Step>('again', 'other account', 'as it is'), { minLength: 1, maxLength: 4 }),
        async (steps) => {
          const dir = join(tempDir('kct-latest-'), 'class');
          mkdirSync(dir);
          writeFileSync(join(dir, 'pupil.txt'), `${readFileSync(join(FIXTURES, 'essay.txt'), 'utf8')}\n(latest ${SEED} ${answers++})`);
          const configDir = tempDir('kct-latest-machine-');
          const owner = asUser(shared.sandbox, 'user', configDir);
          const other = asUser(shared.sandbox, 'broke', configDir);
          const mark = async (...more: string[]) => {
            const run = await owner(['one-pass', dir, '--model', '12', '--output', 'ndjson', ...more]);
            expect(run.code, run.stderr).toBe(0);
            return parseJson<{ task_id: string }>(run.stdout.trim()).task_id;
          };
          let latest = await mark();
          for (const step of [...steps, 'as it is' as const]) {
            const before = await creditsOf(owner);
            if (step === 'other account') {
              // its key is shown none of the owner's tasks, nor the model: nothing sent, nothing charged
              const run = await other(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
              expect(run.code, run.stderr).not.toBe(0);
              continue;
            }
            const task = await mark(...(step === 'again' ? ['--mark-again'] : []));
            if (step === 'again') {
              expect(task, `after ${steps.join(', ')}`).not.toBe(latest);
              expect(before - (await creditsOf(owner))).toBe(1);
              latest = task;
            } else {
              expect(task, `after ${steps.join(', ')}`).toBe(latest);
              expect(await creditsOf(owner)).toBe(before);
            }
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
