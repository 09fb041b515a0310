// `kct report` of runs appended into one file (`cat a.ndjson b.ndjson`): every answer is counted
// once per mark, whatever the order; a row printed again (the same name and task) is never counted
// twice; a name marked again under another task is counted, and said. Generated saved runs.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runKct } from '../cli/run-kct.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'kct-report-appended-'));

/** A row as `kct one-pass` or `kct batch` prints it (with its file), or as `kct result <batch>` does (`asResult`: no file). */
const rowOf = (student: number, task: number, asResult = false) =>
  JSON.stringify({
    file: asResult ? null : `pupil-${student}.txt`,
    student_id: `pupil-${student}`,
    task_id: `tsk_${task}`,
    status: 'SUCCESS',
    score: 10 + (task % 5),
    max_score: 20,
    evaluation: [],
  });

describe('kct report of appended runs', () => {
  it('counts each (answer, task) once, and says what it left out and what it counted twice', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        // runs of a class: each a list of (student, task) rows, appended one after another; each run
        // printed by one-pass or batch (rows name their file), or by `kct result` of a batch (no file)
        fc.array(fc.tuple(fc.array(fc.tuple(fc.nat(5), fc.nat(3)), { minLength: 1, maxLength: 8 }), fc.boolean()), {
          minLength: 1,
          maxLength: 3,
        }),
        async (printed) => {
          const runs = printed.map(([run]) => run);
          const rows = runs.flat();
          const file = join(dir, `appended-${n++}.ndjson`);
          const lines = printed.flatMap(([run, asResult]) => run.map(([student, task]) => rowOf(student, task, asResult)));
          writeFileSync(file, `${lines.join('\n')}\n`);
          const result = await runKct(['report', file, '--out', join(dir, `appended-${n}.html`), '--json']);
          expect(result.code, result.stderr).toBe(0);
          const pairs = new Set(rows.map(([student, task]) => `${student}/${task}`));
          const students = new Set(rows.map(([student]) => student));
          expect(JSON.parse(result.stdout)).toMatchObject({ answers: pairs.size, marked: pairs.size });
          const repeated = rows.length - pairs.size;
          expect(/"(\d+) rows? repeated another/.exec(result.stderr)?.[1] ?? '0').toBe(String(repeated));
          // the same file, or the same student printed without one, under another task: counted, and said
          if (printed.every(([, asResult]) => asResult === printed[0][1]))
            expect(/"(\d+) rows? named an answer seen before with another task/.exec(result.stderr)?.[1] ?? '0').toBe(
              String(pairs.size - students.size),
            );
        },
      ),
      {
        examples: [
          // a class run twice, the second replayed: cat a.ndjson b.ndjson
          [
            [
              [
                [
                  [0, 0],
                  [1, 1],
                ],
                false,
              ],
              [
                [
                  [0, 0],
                  [1, 1],
                ],
                false,
              ],
            ],
          ],
          // kct batch's rows, then kct result's of the same batch: each item once
          [
            [
              [[[0, 0]], false],
              [[[0, 0]], true],
            ],
          ],
        ],
        numRuns: 30 + propertyRuns(30),
        seed: propertySeed(7070),
      },
    );
  });

  // copies share a task and, under --student-id-from name, a student id ("essay"), in files of their
  // own; a --no-wait batch's items share its task: every file is an answer of the report
  it('counts each (file, student, task) once, and a row without a file once per (student, task) no file row has', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.array(fc.tuple(fc.nat(4), fc.nat(2), fc.nat(2)), { minLength: 1, maxLength: 10 }), fc.boolean()), {
          minLength: 1,
          maxLength: 3,
        }),
        async (printed) => {
          const lines = printed.flatMap(([run, asResult]) =>
            run.map(([folder, student, task]) =>
              JSON.stringify({
                file: asResult ? null : `school/pupil-${folder}/essay.txt`,
                student_id: `s${student}`,
                task_id: `tsk_${task}`,
                status: 'SUCCESS',
                score: 10,
                max_score: 20,
                evaluation: [],
              }),
            ),
          );
          const file = join(dir, `shared-${n++}.ndjson`);
          writeFileSync(file, `${lines.join('\n')}\n`);
          const result = await runKct(['report', file, '--out', join(dir, `shared-${n}.html`), '--json']);
          expect(result.code, result.stderr).toBe(0);
          const withFile = new Set(printed.flatMap(([run, asResult]) => (asResult ? [] : run.map(([f, s, t]) => `${f}/${s}/${t}`))));
          const filedAnswers = new Set([...withFile].map((key) => key.split('/').slice(1).join('/')));
          const withoutFile = new Set(
            printed
              .flatMap(([run, asResult]) => (asResult ? run.map(([, s, t]) => `${s}/${t}`) : []))
              .filter((key) => !filedAnswers.has(key)),
          );
          expect(JSON.parse(result.stdout)).toMatchObject({ answers: withFile.size + withoutFile.size });
        },
      ),
      {
        examples: [
          // two copies under one student id (--student-id-from name: both "essay"), one task
          [
            [
              [
                [
                  [0, 0, 0],
                  [1, 0, 0],
                ],
                false,
              ],
            ],
          ],
        ],
        numRuns: 30 + propertyRuns(30),
        seed: propertySeed(7071),
      },
    );
  });

  // Monday's `--no-wait` rows (QUEUED) and Tuesday's marks appended: the report once kept Monday's
  // and said "0 marked"; a corrected row appended after its original was dropped as "the same answer again"
  it('counts each answer as its row that says most (marked, else ended, else any), the last of those, from a file or stdin', async () => {
    const STATES = ['QUEUED', 'PROCESSING', 'SUCCESS', 'FAILURE'] as const;
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        // rows of (student, state, score, batch), in the order appended; the task is the student's own,
        // or for a row not ended of `--via batch --no-wait` (batch), its batch's, shared by every item
        fc.array(fc.tuple(fc.nat(3), fc.constantFrom(...STATES), fc.integer({ min: 0, max: 20 }), fc.boolean()), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.boolean(),
        async (rows, fromStdin) => {
          // a batch's task names a row not ended before the student's first row that ended (a newer submission after it is its own)
          const ended = new Set<number>();
          const lines = rows.map(([student, status, score, batch]) => {
            const early = batch && (status === 'QUEUED' || status === 'PROCESSING') && !ended.has(student);
            if (status === 'SUCCESS' || status === 'FAILURE') ended.add(student);
            return JSON.stringify({
              file: `pupil-${student}.txt`,
              student_id: `pupil-${student}`,
              task_id: early ? 'tsk_batch' : `tsk_${student}`,
              status,
              score: status === 'SUCCESS' ? score : null,
              max_score: 20,
              evaluation: status === 'SUCCESS' ? [{ item: 'Thesis', score, max_score: 20, feedback: `mark ${score}` }] : null,
            });
          });
          const source = join(dir, `states-${n++}.ndjson`);
          writeFileSync(source, `${lines.join('\n')}\n`);
          const out = join(dir, `states-${n}.html`);
          const result = fromStdin
            ? await runKct(['report', '-', '--out', out, '--json'], { stdin: `${lines.join('\n')}\n` })
            : await runKct(['report', source, '--out', out, '--json']);
          expect(result.code, result.stderr).toBe(0);
          const students = [...new Set(rows.map(([student]) => student))];
          const weight = (status: string) => (status === 'SUCCESS' ? 2 : status === 'FAILURE' ? 1 : 0);
          const shown = students.map((student) => {
            const own = rows.filter(([s]) => s === student);
            const best = Math.max(...own.map(([, status]) => weight(status)));
            return own.filter(([, status]) => weight(status) === best).at(-1)!;
          });
          const marked = shown.filter(([, status]) => status === 'SUCCESS');
          expect(JSON.parse(result.stdout)).toMatchObject({ answers: students.length, marked: marked.length });
          const page = readFileSync(out, 'utf8');
          for (const [, , score] of marked) expect(page).toContain(`mark ${score}`);
        },
      ),
      { numRuns: 20 + propertyRuns(20), seed: propertySeed(7072) },
    );
  });

  it('a row not ended after a mark, under another task, is a newer submission: its own answer, not the old mark again', async () => {
    const file = join(dir, 'newer.ndjson');
    const row = (task: string, status: string) =>
      JSON.stringify({ file: 'ana.txt', student_id: 'ana', task_id: task, status, score: status === 'SUCCESS' ? 12 : null, max_score: 20 });
    writeFileSync(file, `${[row('tsk_1', 'SUCCESS'), row('tsk_3', 'QUEUED')].join('\n')}\n`);
    const result = await runKct(['report', file, '--out', join(dir, 'newer.html'), '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ answers: 2, marked: 1 });
  });

  it('says so in words a teacher reads', async () => {
    const file = join(dir, 'twice.ndjson');
    writeFileSync(file, `${[rowOf(1, 1), rowOf(2, 2), rowOf(1, 1), rowOf(2, 2), rowOf(2, 3)].join('\n')}\n`);
    const result = await runKct(['report', file, '--out', join(dir, 'twice.html')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'note: 2 rows repeated another (pupil-1.txt, …): the same answer again, as when runs are appended (cat a.ndjson b.ndjson); each answer is counted once, as the row that says most of it (marked, else ended), the last of those',
    );
    expect(result.stderr).toContain('warning: 1 row named an answer seen before with another task (pupil-2.txt):');
  });

  it("a download's zip run and its folder's appended: the same students and tasks under other files are counted, with a warning", async () => {
    const file = join(dir, 'zip-and-folder.ndjson');
    const row = (input: string, id: number, copyOf?: string) =>
      JSON.stringify({
        file: `${input}/Ada ${id} (${id})`,
        student_id: String(id),
        task_id: `tsk_${id}`,
        status: 'SUCCESS',
        score: 12,
        max_score: 20,
        evaluation: [],
        ...(copyOf ? { duplicate_of: copyOf } : {}),
      });
    writeFileSync(
      file,
      `${[row('submissions.zip', 1), row('submissions.zip', 2), row('submissions', 1), row('submissions', 2)].join('\n')}\n`,
    );
    const result = await runKct(['report', file, '--out', join(dir, 'zip-and-folder.html'), '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ answers: 4 });
    expect(result.stderr).toContain(
      '2 rows named a student and task seen before under another file (submissions/Ada 1 (1), …), and no copy of it',
    );
    // copies of one run name each other: no warning
    const copies = join(dir, 'copies.ndjson');
    writeFileSync(
      copies,
      `${[row('class', 1, 'class/Ada 1 (1) b'), JSON.stringify({ ...JSON.parse(row('class', 1, 'class/Ada 1 (1)')), file: 'class/Ada 1 (1) b' })].join('\n')}\n`,
    );
    const quiet = await runKct(['report', copies, '--out', join(dir, 'copies.html')]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('under another file');
    // a --no-wait batch's items share its task, and under --student-id-from name a student id: one run, no warning
    const queued = join(dir, 'queued.ndjson');
    writeFileSync(
      queued,
      `${['p1/essay.txt', 'p2/essay.txt'].map((file) => JSON.stringify({ file, student_id: 'essay', task_id: 'tsk_batch', status: 'QUEUED' })).join('\n')}\n`,
    );
    const batch = await runKct(['report', queued, '--out', join(dir, 'queued.html')]);
    expect(batch.code, batch.stderr).toBe(0);
    expect(batch.stderr).not.toContain('under another file');
  });
});
