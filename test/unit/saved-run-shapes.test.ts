// A saved run reads back in every shape kct writes it in (src/cli/report/saved-run.ts): for
// generated runs, the real writers (OutcomeWriter for ndjson, --json's array, CSV; the run's
// record in its --resume journal) write it, and readSavedRun gives back the same rows: all of each
// row for the JSON shapes and the journal, and what CSV holds (no feedback, no charge) for CSV.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { processIO } from '../../src/cli/core/io.js';
import type { OutputFormat } from '../../src/cli/render/format.js';
import { type AnswerOutcome, ndjsonRow } from '../../src/cli/render/outcome.js';
import { OutcomeWriter } from '../../src/cli/render/outcomes.js';
import type { ReportRow } from '../../src/cli/report/html.js';
import { readSavedRun } from '../../src/cli/report/saved-run.js';
import { Journal } from '../../src/run/journal.js';
import { RunRecord } from '../../src/run/record.js';
import { testIO } from './cli/test-io.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'kct-saved-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function read(path: string, stdin = ''): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  for await (const row of readSavedRun(path, Readable.from([stdin]))) rows.push(row);
  return rows;
}

/** What the writers print for these outcomes, in a format. */
async function written(format: OutputFormat, outcomes: AnswerOutcome[], options: { studentNames?: boolean }) {
  const { io, stdout } = testIO();
  const writer = new OutcomeWriter(processIO({ env: {}, noColor: true }, io), format, { rows: outcomes.length, ...options });
  await writer.init();
  outcomes.forEach((outcome, index) => writer.add(outcome, index));
  await writer.finish();
  return stdout.text();
}

/** --json's object with "rows" (what `jq '{rows: .}'` or a script makes of a run): read as the array. */
const envelope_ = (json: string) =>
  `${JSON.stringify({ rows: JSON.parse(json), import: { file: 'grades.csv', output: null } }, null, 2)}\n`;

// text as students and services write it: quotes, commas, line breaks, formulas, accents, emoji
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('=SUM(A1)', '+1', '-x', '@me', 'a, "b"\nc', 'Zoë 📝', '\ttab', ' ', "'quoted"),
);
// a leading ' before a formula character is where CSV's formula guard cannot be undone
const cellText = text.filter((value) => !/^'([=+\-@].|[\t\r])/s.test(value));
const score = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 100, noNaN: true }));

const run = fc
  .record({
    criteria: fc.uniqueArray(
      cellText.filter((item) => item !== ''),
      { minLength: 1, maxLength: 4 },
    ),
    studentNames: fc.boolean(),
    answers: fc.array(
      fc.record({
        status: fc.constantFrom('SUCCESS', 'SUCCESS', 'FAILURE', 'ERROR', 'NOT_SENT', 'CANCEL'),
        student_id: fc.option(
          cellText.filter((value) => value !== ''),
          { nil: undefined },
        ),
        student_name: fc.option(
          cellText.filter((value) => value !== ''),
          { nil: undefined },
        ),
        score: score,
        max_score: fc.option(score, { nil: undefined }),
        feedback: text,
        message: fc.option(
          cellText.filter((value) => value !== ''),
          { nil: undefined },
        ),
        duplicate: fc.boolean(),
        graded_by: fc.option(fc.constantFrom('offline grader', 'llama3'), { nil: undefined }),
        credits: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 12 },
    ),
  })
  .map(({ criteria, studentNames, answers }): { outcomes: AnswerOutcome[]; studentNames: boolean } => ({
    studentNames,
    outcomes: answers.map((answer, index) => {
      const marked = answer.status === 'SUCCESS';
      const sent = answer.status !== 'NOT_SENT' && answer.status !== 'ERROR';
      return {
        file: `answers/${index}-${answer.student_id ?? 'anon'}.txt`,
        student_id: answer.student_id,
        ...(studentNames && answer.student_name ? { student_name: answer.student_name } : {}),
        task_id: sent ? `tsk_${index.toString(16).padStart(8, '0')}` : undefined,
        status: answer.status,
        score: marked ? answer.score : null,
        max_score: answer.max_score,
        credits_charged: answer.credits,
        evaluation: marked
          ? criteria.map((item, at) => ({ item, score: at === 0 ? answer.score : at, max_score: 10, feedback: answer.feedback }))
          : answer.status === 'FAILURE'
            ? [{ type: 'error', comment: answer.message ?? 'unreadable' }]
            : undefined,
        ...(marked ? {} : { message: answer.message ?? 'not marked' }),
        ...(answer.duplicate && index > 0 ? { duplicate_of: `answers/0-x.txt` } : {}),
        ...(answer.graded_by && marked ? { graded_by: answer.graded_by } : {}),
      };
    }),
  }));

/** A row as the JSON shapes carry it (a row's file is never null in a class run). */
const full = (outcome: AnswerOutcome) => JSON.parse(JSON.stringify(ndjsonRow(outcome))) as ReportRow;

/** A row as CSV carries it: kct's columns and the criteria's scores, no feedback, no charge. */
function csvView(outcome: AnswerOutcome, criteria: string[]): Record<string, unknown> {
  const row = ndjsonRow(outcome);
  const scores = new Map((outcome.evaluation ?? []).filter((e) => e.type !== 'error').map((e) => [e.item, e.score]));
  const evaluation = criteria.filter((item) => scores.get(item) != null).map((item) => ({ item, score: scores.get(item) }));
  return {
    file: row.file,
    student_id: row.student_id,
    ...(row.student_name ? { student_name: row.student_name } : {}),
    task_id: row.task_id,
    status: row.status,
    score: row.score,
    max_score: row.max_score,
    ...(row.message ? { message: row.message } : {}),
    ...(row.duplicate_of ? { duplicate_of: row.duplicate_of } : {}),
    evaluation: evaluation.length > 0 ? evaluation : null,
  };
}

const settings = { numRuns: propertyRuns(60), seed: propertySeed(3601) };

describe(`every shape kct writes a run in reads back to the same rows (seed ${settings.seed}, ${settings.numRuns} runs; KCT_PROPERTY_SEED, KCT_PROPERTY_RUNS)`, () => {
  it('ndjson, --json (array), an object with "rows", from a file and from stdin', async () => {
    await fc.assert(
      fc.asyncProperty(run, async ({ outcomes, studentNames }) => {
        const expected = outcomes.map(full);
        for (const [format, envelope] of [
          ['ndjson', false],
          ['json', false],
          ['json', true],
        ] as const) {
          const printed = await written(format, outcomes, { studentNames });
          const saved = envelope ? envelope_(printed) : printed;
          const path = join(dir, `run.${format}`);
          writeFileSync(path, saved);
          expect(await read(path), `${format}${envelope ? ' envelope' : ''}`).toEqual(expected);
          expect(await read('-', saved)).toEqual(expected);
        }
      }),
      settings,
    );
  });

  it('--output csv: the rows with their scores', async () => {
    await fc.assert(
      fc.asyncProperty(run, async ({ outcomes, studentNames }) => {
        const saved = await written('csv', outcomes, { studentNames });
        const path = join(dir, 'run.csv');
        writeFileSync(path, saved);
        // the header's criteria are the first marked answer's
        const first = outcomes.find((outcome) => outcome.status === 'SUCCESS');
        const criteria = (first?.evaluation ?? []).map((entry) => entry.item as string);
        const rows = await read(path);
        expect(rows.map((row) => JSON.parse(JSON.stringify(row)))).toEqual(outcomes.map((outcome) => csvView(outcome, criteria)));
      }),
      settings,
    );
  });

  it('--output csv of two runs appended (cat a.csv b.csv): the rows of both, each run read by its own header', async () => {
    await fc.assert(
      fc.asyncProperty(run, run, async (a, b) => {
        const path = join(dir, 'appended.csv');
        writeFileSync(path, (await written('csv', a.outcomes, a)) + (await written('csv', b.outcomes, b)));
        const criteriaOf = (outcomes: AnswerOutcome[]) =>
          (outcomes.find((outcome) => outcome.status === 'SUCCESS')?.evaluation ?? []).map((entry) => entry.item as string);
        const rows = await read(path);
        expect(rows.map((row) => JSON.parse(JSON.stringify(row)))).toEqual([
          ...a.outcomes.map((outcome) => csvView(outcome, criteriaOf(a.outcomes))),
          ...b.outcomes.map((outcome) => csvView(outcome, criteriaOf(b.outcomes))),
        ]);
      }),
      settings,
    );
  });

  it('a --resume journal: the rows of its last run, in the order found, as the run recorded them, however they finished, or still the file and student of a row a stopped run left', async () => {
    await fc.assert(
      fc.asyncProperty(
        run.chain((generated) =>
          fc.record({
            generated: fc.constant(generated),
            // the rows that ended, in the order they did; a run stopped part-way ended only some
            order: fc.shuffledSubarray([...generated.outcomes.keys()]),
          }),
        ),
        fc.boolean(),
        async ({ generated: { outcomes }, order }, rerun) => {
          const path = join(dir, `journal-${Math.random().toString(36).slice(2)}.jsonl`);
          // the record writes the journal as a run does: a run begins, its answers are sent, each row ends
          const record = (journal: Journal) => {
            const run = new RunRecord(journal);
            run.begin(outcomes.length);
            outcomes.forEach((outcome, row) => {
              run.found(row, { label: outcome.file, studentId: outcome.student_id }, `id-${row}`);
              if (outcome.task_id) run.accepted(row, `id-${row}`, { taskId: outcome.task_id }, 'QUEUED', false);
            });
            for (const row of order) run.final(row, `id-${row}`, outcomes[row]);
          };
          const journal = new Journal(path);
          record(journal);
          journal.close();
          // a second run of the same command: its record is the one read
          if (rerun) {
            const again = new Journal(path);
            record(again);
            again.close();
          }
          const { readFileSync } = await import('node:fs');
          const ended = new Set(order);
          // a row not ended is no mark yet: its task and status, under the file and student it was found as
          const expected = outcomes.map((outcome, row) =>
            ended.has(row)
              ? full(outcome)
              : expect.objectContaining({ file: outcome.file, student_id: outcome.student_id ?? null, task_id: outcome.task_id ?? null }),
          );
          expect(await read(path)).toEqual(expected);
          expect(await read('-', readFileSync(path, 'utf8'))).toEqual(expected);
        },
      ),
      settings,
    );
  });
});

describe('the shapes by example', () => {
  it('an unfinished answer of a journal is a row with its task and status, saying how to follow it', async () => {
    const path = join(dir, 'unfinished.jsonl');
    writeFileSync(
      path,
      [
        { kct_journal: 2, at: '2026-11-29T00:00:00Z' },
        { e: 'run', at: '2026-11-29T00:00:00Z', rows: 3 },
        { e: 'found', row: 0, answer: 'a.txt', identity: 'ia' },
        { e: 'accepted', row: 0, identity: 'ia', task_id: 'tsk_a', status: 'QUEUED' },
        { e: 'found', row: 1, answer: 'b.txt', identity: 'ib' },
        { e: 'accepted', row: 1, identity: 'ib', task_id: 'tsk_b', status: 'QUEUED' },
        { e: 'unsent', row: 2, answer: 'c.odt', status: 'SKIPPED', reason: 'unsupported file type' },
        {
          e: 'final',
          row: 1,
          identity: 'ib',
          task_id: 'tsk_b',
          status: 'SUCCESS',
          at: 'x',
          out: { file: 'b.txt', status: 'SUCCESS', score: 7 },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const rows = await read(path);
    expect(rows.map((row) => [row.file, row.status, row.task_id ?? null])).toEqual([
      ['a.txt', 'QUEUED', 'tsk_a'],
      ['b.txt', 'SUCCESS', null],
      ['c.odt', 'SKIPPED', null],
    ]);
    expect(rows[0].message).toContain('--resume');
    expect(rows[2].message).toBe('unsupported file type');
  });

  it('a journal of an earlier kct is named as such', async () => {
    const error = await read('-', '{"answer":"a","at":"x","status":"QUEUED"}\n').catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/a --resume journal of an earlier kct/);
  });

  it('one JSON line (jq -c) of an array or of an object with rows', async () => {
    expect(await read('-', '[{"file":"a","status":"SUCCESS","score":1}]')).toHaveLength(1);
    expect(await read('-', '{"rows":[{"file":"a","status":"SUCCESS"},{"file":"b","status":"ERROR"}],"import":{}}\n')).toHaveLength(2);
  });

  it("one answer's result, pretty-printed (kct one-pass <file> --json, kct result <task> --json), is one row", async () => {
    const result = {
      task_id: 'tsk_1',
      status: 'SUCCESS',
      score: 1.5,
      max_score: 20,
      evaluation: [{ item: 'Thesis', score: 1.5, max_score: 5, feedback: 'A clear position.' }],
      student_id: 'essay',
      replayed: true,
    };
    const rows = await read('-', `${JSON.stringify(result, null, 2)}\n`);
    expect(rows).toEqual([expect.objectContaining({ task_id: 'tsk_1', status: 'SUCCESS', score: 1.5, student_id: 'essay' })]);
    expect(rows[0].evaluation).toEqual(result.evaluation);
  });

  it('anything else is refused naming the file and line, with what kct reads', async () => {
    const cases: [string, RegExp][] = [
      ['<html>', /stdin is not a run kct saved: its first line is neither JSON/],
      ['name,mark\nx,1\n', /stdin is not a run kct saved/],
      ['file,student_id,task_id,status\na,b,c,SUCCESS\n', /stdin line 1 is not the header of kct's CSV/],
      // the row that is wrong, not how far the parser had read ahead (it said line 5 of each)
      [
        'file,student_id,task_id,status,score,Thesis,max_score,message,duplicate_of\na,a,t1,SUCCESS,3,3,99,5,,\nb,b,t2,SUCCESS,3,3,5,,\nc,c,t3,SUCCESS,3,3,5,,\n',
        /stdin line 2 has 10 cells where its header has 9/,
      ],
      ['[\n  {\n    "file": "a",\n    "status": "SUCCESS"\n', /stdin line 2 starts a row that never ends/],
      ['{"a": 1}\n', /stdin line 1 is not an answer of a run: status/],
      // another record, pretty-printed (an assignment): no task and no marks, so no answer
      [
        '{\n  "assignment_id": 1001,\n  "status": "ACTIVE"\n}\n',
        /stdin line 1 starts a JSON object that is neither a run's rows nor one answer's result/,
      ],
      ['"just a string"\n', /stdin is not a run kct saved/],
      ['{"rows": "no"}\n', /stdin line 1 is not an answer of a run/],
      ['[]\n', /stdin holds no answers/],
      ['', /stdin holds no answers/],
      // a batch's own record: kct batch --no-wait's line, kct result <batch> --json's object (once read as a "student" tsk_…, or as no answers)
      [
        '{"task_id":"tsk_1","status":"SUCCESS","credits_charged":2,"count":2}\n',
        /stdin line 1 is a batch's own record .*kct result <batch id> --output ndjson/,
      ],
      [
        '{\n  "task_id": "tsk_1",\n  "status": "SUCCESS",\n  "count": 1,\n  "items": [\n    {\n      "index": 0\n    }\n  ]\n}\n',
        /stdin line 5 is a batch's own record/,
      ],
    ];
    for (const [input, message] of cases) {
      const error = await read('-', input).catch((caught: unknown) => caught);
      expect(error, input).toBeInstanceOf(UsageError);
      expect((error as Error).message, input).toMatch(message);
      expect((error as UsageError).suggestion).toContain('--output ndjson');
    }
  });
});
