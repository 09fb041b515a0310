// `kct evaluate` (the legacy path, charged at acceptance, no Idempotency-Key) charges an answer
// once per assignment and options, whatever its labels, as a property over generated sequences of
// runs (fast-check, seeded, shrinking): the same answer as --text, stdin or a file under any name,
// with or without a student id, waiting or not, printed as the record or as a row; --mark-again pays again and is the task followed
// next; an answer whose task ended FAILURE is sent again. Against a real sandbox, in-process.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEXT_LABEL } from '../../src/cli/answers/labels.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

const ANSWERS = [
  'School uniforms should be required: they reduce bullying and help pupils focus on learning.',
  'Uniforms should not be compulsory, since they cost families money and stop self-expression.',
  // the sandbox ends this one FAILURE (docs/sandbox.md, magic inputs): never reused, so sent each time
  'An answer the sandbox fails on purpose: KCT-SANDBOX-FAIL.',
];
const FAILS = 2;
const ASSIGN = 'assign --model 12 --name p --desc d --deadline 2026-12-24 --expected 9 --json'.split(' ');

interface Step {
  answer: number;
  via: 'text' | 'stdin' | 'file';
  fileName: string;
  studentId?: string;
  style?: 'Long';
  wait: boolean;
  markAgain: boolean;
  /** The record (--json), or the row a class run prints (ndjson): both say replayed. */
  output: 'json' | 'ndjson';
}

const step: fc.Arbitrary<Step> = fc.record(
  {
    answer: fc.integer({ min: 0, max: ANSWERS.length - 1 }),
    via: fc.constantFrom('text' as const, 'stdin' as const, 'file' as const),
    fileName: fc.constantFrom('essay.txt', 'Ana Pérez.txt', 'copy of essay.txt'),
    studentId: fc.option(fc.constantFrom('s-1', 's-2'), { nil: undefined }),
    style: fc.option(fc.constant('Long' as const), { nil: undefined }),
    // the failing answer is waited for, so that its task has ended FAILURE before the next run asks
    wait: fc.boolean(),
    markAgain: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
    output: fc.constantFrom('json' as const, 'ndjson' as const),
  },
  { requiredKeys: ['answer', 'via', 'fileName', 'wait', 'markAgain', 'output'] },
);

describe('kct evaluate re-runs', () => {
  it('charges each answer once per assignment and options, whatever its labels; --mark-again pays again; a failed one is sent again', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 6 }), async (steps) => {
        const kct = asUser(shared.sandbox, 'user', tempDir()); // a machine of its own: an empty ledger
        const assign = await kct(ASSIGN);
        const assignment = String(parseJson<{ assignment_id: number }>(assign.stdout).assignment_id);
        const dir = tempDir();
        /** the task each identity (answer and style) was last sent as */
        const latest = new Map<string, string>();
        for (const s of steps) {
          const wait = s.wait || s.answer === FAILS;
          const args = ['evaluate', '--assignment', assignment, ...(s.output === 'json' ? ['--json'] : ['--output', 'ndjson'])];
          if (s.via === 'text') args.push('--text', ANSWERS[s.answer]);
          if (s.via === 'stdin') args.push('-');
          if (s.via === 'file') {
            writeFileSync(join(dir, s.fileName), ANSWERS[s.answer]);
            args.push(join(dir, s.fileName));
          }
          if (s.studentId) args.push('--student-id', s.studentId);
          if (s.style) args.push('--style', s.style);
          if (!wait) args.push('--no-wait');
          if (s.markAgain) args.push('--mark-again');
          const identity = `${s.answer} ${s.style ?? ''}`;
          const before = await creditsOf(kct);
          const run = await kct(args, s.via === 'stdin' ? { input: ANSWERS[s.answer] } : {});
          const charged = before - (await creditsOf(kct));
          const printed = parseJson<{ task_id: string; replayed?: boolean; student_id?: string | null; file?: string | null }>(run.stdout);
          // a row names the answer as one-pass's rows do (a replay's once said nothing, and every file null)
          if (s.output === 'ndjson' && wait)
            expect(printed.file).toBe(s.via === 'file' ? join(dir, s.fileName) : s.via === 'stdin' ? '-' : TEXT_LABEL);
          const sent = s.markAgain || s.answer === FAILS || !latest.has(identity);
          expect(run.code, run.stderr).toBe(wait && s.answer === FAILS ? 3 : 0);
          expect(charged > 0, `charged ${charged} for ${JSON.stringify(s)}\n${run.stderr}`).toBe(sent);
          if (sent) {
            expect(printed.replayed).toBeUndefined();
            expect(printed.task_id).not.toBe(latest.get(identity));
            latest.set(identity, printed.task_id);
          } else {
            expect(printed.replayed).toBe(true);
            // under this run's student id, never the one it was first sent under
            expect(printed.student_id ?? null).toBe(s.studentId ?? null);
            expect(printed.task_id).toBe(latest.get(identity));
            expect(run.stderr).toContain('not sent again');
          }
        }
      }),
      { numRuns: propertyRuns(12), seed: propertySeed(5301) },
    );
  }, 240_000);
});
