// The plan of a run (src/run/plan.ts), before anything is sent: each answer's identity is its
// content, never its labels; the first answer of each content is sent, every other one is a copy of
// it; an identity marked before (journal, then ledger) is reused unless --mark-again; an answer
// whose file vanished is sent as it is (its row says why), never a crash of the plan.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Answer } from '../../../src/cli/answers/answers.js';
import type { LocalFile } from '../../../src/client/files.js';
import { identityOf } from '../../../src/client/identity.js';
import { Ledger } from '../../../src/run/ledger.js';
import { planOf, planRun } from '../../../src/run/plan.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const root = mkdtempSync(join(tmpdir(), 'kct-plan-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const signal = new AbortController().signal;
const COMMON = { model_id: 12 };

/** Answers of one file each: a content from `texts`, under any name and student id. */
function answers(texts: string[], labels: { name: string; student: string }[]): Answer[] {
  const dir = join(root, `class-${made++}`);
  mkdirSync(dir);
  return texts.map((text, index) => {
    const path = join(dir, `${index}-${labels[index].name}`);
    writeFileSync(path, text);
    const file = { path, name: labels[index].name, type: 'text/plain', size: Buffer.byteLength(text) };
    return { index, label: path, keyName: labels[index].name, studentId: labels[index].student, files: [file] };
  });
}

describe('planning a run', () => {
  it('identical contents are one identity whatever their labels: the first is sent, the others are its copies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat(3), { minLength: 1, maxLength: 12 }),
        fc.array(fc.record({ name: fc.constantFrom('a.txt', 'Ben final.txt', 'x.txt'), student: fc.string({ maxLength: 4 }) }), {
          minLength: 12,
          maxLength: 12,
        }),
        async (contents, labels) => {
          const texts = contents.map((c) => `answer ${c}`);
          const list = answers(texts, labels);
          const plan = await planRun(list, list.length, { common: COMMON, rubricFiles: [], questionFiles: [] }, signal);
          const firstOf = new Map<string, number>();
          texts.forEach((text, row) => {
            const first = firstOf.get(text);
            if (first === undefined) {
              firstOf.set(text, row);
              expect(planOf(plan, row)).toEqual({ kind: 'send' });
            } else {
              expect(planOf(plan, row)).toEqual({ kind: 'copy', of: first });
              expect(plan.identities.get(row)).toBe(plan.identities.get(first));
            }
          });
          expect(new Set(texts.map((_, row) => plan.identities.get(row))).size).toBe(firstOf.size);
          expect(plan.toSend).toBe(firstOf.size);
        },
      ),
      { numRuns: propertyRuns(40), seed: propertySeed(3303) },
    );
  });

  it('an identity this machine marked is reused, unless --mark-again; the model is part of it', async () => {
    const list = answers(
      ['the same essay', 'another essay'],
      [
        { name: 'a.txt', student: 'a' },
        { name: 'b.txt', student: 'b' },
      ],
    );
    const state = join(root, `state-${made++}`);
    const earlier = Ledger.open(state, 'http://127.0.0.1:1/v1').ledger!;
    const first = await planRun(list, 2, { common: COMMON, rubricFiles: [], questionFiles: [], ledger: earlier }, signal);
    earlier.accepted(first.identities.get(0), { taskId: 'tsk_1' });
    earlier.close();
    // a later run reads what the earlier one wrote
    const { ledger } = Ledger.open(state, 'http://127.0.0.1:1/v1');
    const renamed = answers(
      ['the same essay', 'another essay'],
      [
        { name: 'Ben final.txt', student: 'Ben final' },
        { name: 'b.txt', student: 'b' },
      ],
    );
    const again = await planRun(renamed, 2, { common: COMMON, rubricFiles: [], questionFiles: [], ledger }, signal);
    expect(planOf(again, 0)).toEqual({ kind: 'reuse', from: 'ledger', known: { taskId: 'tsk_1' } });
    expect(again.reusedTasks).toEqual(['task tsk_1']);
    expect(again.toSend).toBe(1);
    const paid = await planRun(renamed, 2, { common: COMMON, rubricFiles: [], questionFiles: [], ledger, markAgain: true }, signal);
    expect(planOf(paid, 0)).toEqual({ kind: 'send' });
    const otherModel = await planRun(renamed, 2, { common: { model_id: 13 }, rubricFiles: [], questionFiles: [], ledger }, signal);
    expect(planOf(otherModel, 0)).toEqual({ kind: 'send' });
    ledger!.close();
  });

  it('an identity whose task ended FAILURE or CANCEL is sent again, in place of that task; a later mark is reused', async () => {
    const list = answers(['a failed essay'], [{ name: 'a.txt', student: 'a' }]);
    const state = join(root, `state-${made++}`);
    const options = { common: COMMON, rubricFiles: [], questionFiles: [], replaceFailures: true };
    const earlier = Ledger.open(state, 'http://127.0.0.1:1/v1').ledger!;
    const identity = (await planRun(list, 1, options, signal)).identities.get(0);
    earlier.accepted(identity, { taskId: 'tsk_1' });
    earlier.accepted(identity, { taskId: 'tsk_1', failed: true });
    earlier.close();
    const { ledger } = Ledger.open(state, 'http://127.0.0.1:1/v1');
    const rerun = await planRun(list, 1, { ...options, ledger }, signal);
    expect(planOf(rerun, 0)).toEqual({ kind: 'again', task: 'tsk_1' });
    expect([rerun.again, rerun.reused, rerun.toSend]).toEqual([1, 0, 1]);
    // with --idempotency-key the keys are the caller's: a failure is reused (the service replays its key)
    expect(planOf(await planRun(list, 1, { ...options, ledger, replaceFailures: false }, signal), 0)).toMatchObject({ kind: 'reuse' });
    // sent again and marked: reused from then on
    ledger!.accepted(identity, { taskId: 'tsk_2' });
    ledger!.close();
    const { ledger: later } = Ledger.open(state, 'http://127.0.0.1:1/v1');
    expect(planOf(await planRun(list, 1, { ...options, ledger: later }, signal), 0)).toEqual({
      kind: 'reuse',
      from: 'ledger',
      known: { taskId: 'tsk_2' },
    });
    later!.close();
  });

  it("the plan's identities are identityOf's (the one rule): for files, and for text", async () => {
    const list = answers(
      ['an essay', 'another'],
      [
        { name: 'a.txt', student: 'a' },
        { name: 'b.pdf', student: 'b' },
      ],
    );
    list[1].files[0].type = 'application/pdf';
    const withText: Answer = { index: 2, label: '--text', keyName: 'text', files: [], text: 'pasted words' };
    const plan = await planRun(
      [...list, withText],
      3,
      { common: { model_id: 12, style: 'Long' }, rubricFiles: [], questionFiles: [] },
      signal,
    );
    const hash = async (file: LocalFile) => createHash('sha256').update(readFileSync(file.path)).digest('hex');
    for (const answer of list)
      expect(plan.identities.get(answer.index)).toBe(
        await identityOf({ model_id: 12, style: 'Long', student_id: 'whoever' }, [{ field: 'answer_files', file: answer.files[0] }], hash),
      );
    expect(plan.identities.get(2)).toBe(await identityOf({ model_id: 12, style: 'Long', paper_content: 'pasted words' }, [], hash));
    // a plain-text file and the same bytes pasted are one answer
    expect(plan.identities.get(0)).toBe(await identityOf({ model_id: 12, style: 'Long', paper_content: 'an essay' }, [], hash));
  });

  it('an answer whose file vanished after the folder was read is sent as it is, not a crash', async () => {
    const list = answers(['here'], [{ name: 'gone.txt', student: 'g' }]);
    rmSync(list[0].files[0].path);
    const plan = await planRun(list, 1, { common: COMMON, rubricFiles: [], questionFiles: [] }, signal);
    expect(planOf(plan, 0)).toEqual({ kind: 'send' });
    expect(plan.identities.get(0)).toBe('unreadable:0');
  });
});
