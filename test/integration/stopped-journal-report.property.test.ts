// A run stopped part way (Ctrl-C) leaves a --resume journal that accounts for every answer of the
// class (one it never reached by its run's count of rows), and `kct report` of it counts each once: an answer marked before (reused from this machine's
// ledger) and the copies of an answer still being marked once had no line naming them, so the
// report lost them or showed a row with no file. Generated classes, stopped at a generated point,
// against a real sandbox that takes its time.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox({ latencyMs: 150 });

describe('the journal of a stopped run', () => {
  it('property: names every answer, copies and answers marked before included, and its report counts each once', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        // which of a pool of answers each file holds (a number twice: a copy), and whether the first was marked before
        fc.array(fc.nat(4), { minLength: 2, maxLength: 9 }),
        fc.boolean(),
        // stop once this many rows are printed (0: at the first accepted task)
        fc.nat(2),
        // sent slowly (--max-rps 2): stopped before it reaches some answers at all
        fc.boolean(),
        async (picks, markedBefore, stopAfter, slow) => {
          const tag = `stopped journal ${runs++} ${Date.now()}`;
          const kct = asUser(shared.sandbox, 'user', tempDir());
          const dir = tempDir('kct-stopped-');
          const files = picks.map((n, i) => {
            const path = join(dir, `pupil-${i + 1}.txt`);
            writeFileSync(path, `Uniforms should not be compulsory, answer ${n} (${tag}): they cost families money.\n`);
            return path;
          });
          if (markedBefore) expect((await kct(['one-pass', files[0], '--model', '12'])).code).toBe(0);
          const journal = join(dir, 'class.journal');
          const controller = new AbortController();
          const pace = slow ? ['--max-rps', '2'] : [];
          const run = await kct(['one-pass', dir, '--model', '12', '--resume', journal, '--output', 'ndjson', ...pace], {
            signal: controller.signal,
            onStdout: (_, all) => {
              if (all.split('\n').length - 1 > stopAfter) controller.abort();
            },
            onStderr: (_, all) => {
              if (stopAfter === 0 && all.includes('accepted')) controller.abort();
            },
          });
          expect([0, 130], run.stderr).toContain(run.code);
          const report = await kct(['report', journal, '--out', join(dir, 'class.html'), '--json']);
          expect(report.code, report.stderr).toBe(0);
          expect(parseJson<{ answers: number }>(report.stdout).answers, report.stderr).toBe(files.length);
          const named = await kct(['report', journal, '--out', join(dir, 'class2.html')]);
          expect(named.code).toBe(0);
          // an answer the run never reached has no line to name it: it is a row all the same, said as not reached
          const page = readFileSync(join(dir, 'class2.html'), 'utf8');
          const unnamed = files.filter((file) => !page.includes(file)).length;
          expect(page.includes('the run stopped before it came to this answer'), `${unnamed} unnamed`).toBe(unnamed > 0);
        },
      ),
      {
        numRuns: 2 + propertyRuns(4),
        seed: propertySeed(5331),
        examples: [
          [[0, 0, 1], true, 0, false],
          [[0, 1, 2, 3, 4, 0, 1, 2], false, 0, true],
        ],
      },
    );
  }, 240_000);
});
