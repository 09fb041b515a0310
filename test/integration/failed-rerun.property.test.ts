// "Run the same command again" recovers an answer whose task ended FAILURE: marked before means
// marked, so an earlier task that did not mark its answer is never reused (docs/guides/
// large-runs-and-reruns.md, "What is the same answer"). Over generated classes, some answers failing
// (the sandbox's KCT-SANDBOX-FAIL), with or without --resume, in any --jobs, after any number of
// earlier re-runs, and on this machine or another (no ledger, no journal: only the service's replays,
// down the chain of tasks earlier re-runs made): the last run sends every failed answer again as a
// task no run had before, reuses every mark, and charges nothing (a failure is never charged, a mark
// is charged once). With --idempotency-key the keys are the caller's: a failure is replayed, and the
// run does not say otherwise. In-process, against a real sandbox.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { asUser, creditsOf, FIXTURES, type NdjsonRow, ndjsonRows, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

const rowsOf = (text: string): Map<string, NdjsonRow> => new Map(ndjsonRows(text).map((row) => [row.file, row]));

describe('an answer whose task failed is sent again when the same command runs again', () => {
  it('as a new task, while every mark is reused and nothing is charged', async () => {
    const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }).filter((fails) => fails.includes(true)),
        fc.boolean(),
        fc.constantFrom('1', '2'),
        fc.boolean(),
        fc.nat(2),
        async (fails, resume, jobs, elsewhere, reruns) => {
          round += 1;
          const dir = join(tempDir('kct-failed-rerun-'), 'class');
          mkdirSync(dir);
          fails.forEach((fail, i) =>
            writeFileSync(join(dir, `pupil-${i + 1}.txt`), `${essay}\n(failed rerun ${round}.${i}${fail ? ' KCT-SANDBOX-FAIL' : ''})`),
          );
          const kct = asUser(shared.sandbox, 'user', tempDir('kct-failed-rerun-cfg-'));
          const args = ['one-pass', dir, '--model', '12', '--jobs', jobs, '--output', 'ndjson'];
          const journal = resume ? ['--resume', join(dir, '..', 'marks.journal')] : [];
          const first = await kct([...args, ...journal]);
          expect(first.code, first.stderr).toBe(3);
          const seen = new Set([...rowsOf(first.stdout).values()].map((row) => row.task_id));
          const before = await creditsOf(kct);
          for (let i = 0; i < reruns; i++)
            for (const row of rowsOf((await kct([...args, ...journal])).stdout).values()) seen.add(row.task_id);
          // another machine knows nothing of the first run: neither its ledger nor its journal
          const again = elsewhere
            ? await asUser(shared.sandbox, 'user', tempDir('kct-failed-rerun-cfg-'))(args)
            : await kct([...args, ...journal]);
          expect(again.code, again.stderr).toBe(3);
          const [was, now] = [rowsOf(first.stdout), rowsOf(again.stdout)];
          expect(now.size).toBe(fails.length);
          for (const [i, fail] of fails.entries()) {
            const [a, b] = [was.get(join(dir, `pupil-${i + 1}.txt`))!, now.get(join(dir, `pupil-${i + 1}.txt`))!];
            expect(b.status).toBe(fail ? 'FAILURE' : 'SUCCESS');
            // a failure: a task no run had; a mark: the same task, reused
            if (fail) expect(seen.has(b.task_id)).toBe(false);
            else expect([b.task_id, b.replayed]).toEqual([a.task_id, true]);
          }
          expect(await creditsOf(kct)).toBe(before);
          expect(again.stderr).not.toContain('sent again and charged');
        },
      ),
      { numRuns: propertyRuns(6), seed: propertySeed(20261129) },
    );
  });

  it("with --idempotency-key the keys are the caller's: a failure is replayed, and nothing says it is sent again", async () => {
    const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
    const dir = join(tempDir('kct-failed-rerun-key-'), 'class');
    mkdirSync(dir);
    writeFileSync(join(dir, 'f.txt'), `${essay}\n(failed rerun with a key) KCT-SANDBOX-FAIL`);
    const kct = asUser(shared.sandbox, 'user', tempDir('kct-failed-rerun-cfg-'));
    const args = ['one-pass', dir, '--model', '12', '--idempotency-key', `class-${Date.now()}`, '--output', 'ndjson'];
    const first = rowsOf((await kct(args)).stdout).get(join(dir, 'f.txt'))!;
    const again = await kct(args);
    expect(again.code).toBe(3);
    expect(rowsOf(again.stdout).get(join(dir, 'f.txt'))!.task_id).toBe(first.task_id);
    expect(again.stderr).not.toContain('sent again as a new task');
    expect(again.stderr).not.toMatch(/sent before, not charged again/);
  });
});
