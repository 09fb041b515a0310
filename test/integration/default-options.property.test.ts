// An option that says what the service does without it (`--style Bullet`, the spec's default;
// `--cum-method` naming the model's own method) asks for the same marking: the answer marked
// without it is never charged again with it, on this machine (its ledger) or another (the key
// and body are the same, so the service replays its task). Generated sequences of runs against a
// real sandbox: the content is charged once, whatever the options said and wherever it ran.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

/** Options equal to what the service does without them, for model 12 (its method is sum). */
const SAME_MARKING = [[], ['--style', 'Bullet'], ['--cum-method', 'sum'], ['--style', 'Bullet', '--cum-method', 'sum']];

/** The flags as a manifest item's fields. */
const fieldsOf = (options: string[]) => ({
  ...(options.includes('--style') ? { style: 'Bullet' } : {}),
  ...(options.includes('--cum-method') ? { cum_method: 'sum' } : {}),
});

describe('an option that says the default', () => {
  it(`never charges again what was marked without it, here or on another machine (seed ${propertySeed(5371)})`, async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...SAME_MARKING), fc.boolean()), { minLength: 2, maxLength: 4 }),
        fc.constantFrom('one-pass', 'batch', 'manifest'),
        async (sequence, via) => {
          const dir = tempDir('kct-defaults-');
          const file = join(dir, 'essay.txt');
          writeFileSync(file, `School uniforms should be compulsory: they cost families less (${runs++} ${Date.now()}).\n`);
          const here = asUser(shared.sandbox, 'user', tempDir());
          const before = await creditsOf(here);
          for (const [options, elsewhere] of sequence) {
            // another machine: a config folder, and so a ledger, of its own
            const kct = elsewhere ? asUser(shared.sandbox, 'user', tempDir()) : here;
            if (via === 'manifest') {
              // a manifest item says the options as fields; a batch that holds only items marked before is refused (2), not charged
              const item = { file: 'essay.txt', student_id: 'essay', ...fieldsOf(options) };
              writeFileSync(join(dir, 'class.jsonl'), `${JSON.stringify(item)}\n`);
              const run = await kct(['batch', join(dir, 'class.jsonl'), '--model', '12', '--output', 'ndjson']);
              expect([0, 2], `${options.join(' ')}\n${run.stderr}`).toContain(run.code);
              continue;
            }
            const route = via === 'batch' ? ['--via', 'batch'] : [];
            const run = await kct(['one-pass', file, '--model', '12', ...route, ...options, '--output', 'ndjson']);
            expect(run.code, `${options.join(' ')}\n${run.stderr}`).toBe(0);
          }
          expect(before - (await creditsOf(here))).toBe(1);
        },
      ),
      {
        numRuns: propertyRuns(8),
        seed: propertySeed(5371),
        examples: [
          [
            [
              [[], false],
              [['--style', 'Bullet'], true],
            ],
            'one-pass',
          ],
        ],
      },
    );
  }, 120_000);
});
