// kct grades moodle and a comment the teacher already typed in the worksheet (walk-h4, defect 3):
// kept by default, from a CSV saved run (scores only) and from an ndjson run (the marker's words);
// the marks' feedback goes into empty cells; --overwrite-feedback replaces the comments.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readAsMoodleImports } from '../../../src/platforms/moodle-import-rules.js';
import { runKct } from '../cli/run-kct.js';
import { MOODLE_HEADER, moodleWorksheet, rawCells, recordTexts } from '../platforms/fixtures.js';

const root = mkdtempSync(join(tmpdir(), 'kct-grades-comments-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let made = 0;
const fresh = () => mkdtempSync(join(root, `case-${made++}-`));

const TYPED = '<p>Great start, Ada</p>';
const SHEET = [
  { id: 101, name: 'Ada Lovelace', feedback: TYPED },
  { id: 102, name: 'Bo Chen' },
];
const CRITERIA = ['Thesis & position', 'Evidence & reasoning'];

/** A run saved with --output csv: kct's columns and one per criterion, its score (no feedback). */
function csvRun(dir: string): string {
  const path = join(dir, 'marks.csv');
  const header = ['file', 'student_id', 'task_id', 'status', 'score', ...CRITERIA, 'max_score', 'message', 'duplicate_of', 'student_name'];
  const row = (id: string, name: string, a: number, b: number) =>
    [`dl/${name} (${id})`, id, `tsk_${id}`, 'SUCCESS', a + b, a, b, 20, '', '', name].join(',');
  writeFileSync(path, `${[header.join(','), row('101', 'Ada Lovelace', 8.5, 9.5), row('102', 'Bo Chen', 4.5, 5.5)].join('\n')}\n`);
  return path;
}

/** A run saved with --output ndjson: the marker's words with each criterion. */
function ndjsonRun(dir: string): string {
  const path = join(dir, 'marks.ndjson');
  const row = (id: string, name: string, a: number, b: number) => ({
    file: `dl/${name} (${id})`,
    student_id: id,
    student_name: name,
    task_id: `tsk_${id}`,
    status: 'SUCCESS',
    score: a + b,
    max_score: 20,
    evaluation: [
      { item: CRITERIA[0], score: a, max_score: 10, feedback: `A clear position, ${name}.` },
      { item: CRITERIA[1], score: b, max_score: 10, feedback: 'Cite your sources.' },
    ],
  });
  writeFileSync(
    path,
    `${[row('101', 'Ada Lovelace', 8.5, 9.5), row('102', 'Bo Chen', 4.5, 5.5)].map((r) => JSON.stringify(r)).join('\n')}\n`,
  );
  return path;
}

const FEEDBACK = MOODLE_HEADER.indexOf('Feedback comments');
const GRADE = MOODLE_HEADER.indexOf('Grade');

async function fill(dir: string, run: string, flags: string[] = []) {
  const sheet = moodleWorksheet(SHEET);
  const path = join(dir, 'Grades.csv');
  writeFileSync(path, sheet.bytes);
  const out = join(dir, 'out.csv');
  const result = await runKct(['grades', 'moodle', run, path, '--grades-out', out, ...flags]);
  const filled = readFileSync(out);
  return { result, before: sheet.bytes, filled, imports: readAsMoodleImports(filled, { maxGrade: 100 }).imports };
}

describe('kct grades moodle: a comment the teacher typed in the worksheet', () => {
  it.each([
    ['a CSV saved run (scores only)', csvRun, '<p>Thesis &amp; position: 4.5</p><p>Evidence &amp; reasoning: 5.5</p>'],
    ["an ndjson saved run (the marker's words)", ndjsonRun, '<p>Thesis &amp; position: 4.5 / 10<br>A clear position, Bo Chen.</p>'],
  ])('from %s: kept as typed, the grade filled; the empty cell gets the feedback; said in the report', async (_, save, bosStart) => {
    const dir = fresh();
    const { result, before, filled, imports } = await fill(dir, save(dir));
    expect(result.code, result.stderr).toBe(0);
    expect(imports.get('101')).toEqual({ participantId: '101', grade: 90, feedback: TYPED });
    expect(imports.get('102')?.grade).toBe(50);
    expect(imports.get('102')?.feedback?.startsWith(bosStart)).toBe(true);
    // Ada's row: only its Grade changed, byte for byte
    const [was, now] = [rawCells(recordTexts(before)[1]), rawCells(recordTexts(filled)[1])];
    was.forEach((cell, c) => c === GRADE || expect(now[c]).toBe(cell));
    expect(now[FEEDBACK]).toBe(was[FEEDBACK]);
    expect(result.stdout).toContain(
      `Ada Lovelace (Participant 101, line 2): 90.00; keeps the feedback comment already there, the marks' feedback not written ("${TYPED}")`,
    );
    expect(result.stdout).toContain('1 filled row already held a feedback comment, kept as it was');
  });

  it("--overwrite-feedback writes the marks' feedback over it, and the report quotes what was replaced", async () => {
    const dir = fresh();
    const { result, imports } = await fill(dir, ndjsonRun(dir), ['--overwrite-feedback', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(imports.get('101')?.feedback).toMatch(/^<p>Thesis &amp; position: 8.5 \/ 10<br>A clear position, Ada Lovelace.<\/p>/);
    const ada = JSON.parse(result.stdout).entries.find((e: { participantId: string }) => e.participantId === '101');
    expect(ada).toMatchObject({ warnings: ['overwrites-feedback'], previousFeedback: TYPED });
  });

  it('--overwrite-feedback with --feedback none is refused before anything is written (exit 2)', async () => {
    const dir = fresh();
    const sheet = join(dir, 'Grades.csv');
    writeFileSync(sheet, moodleWorksheet(SHEET).bytes);
    const result = await runKct(['grades', 'moodle', ndjsonRun(dir), sheet, '--overwrite-feedback', '--feedback', 'none']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--overwrite-feedback writes the marks' feedback over the comments, and --feedback none writes no feedback",
    );
    expect(readFileSync(sheet).equals(moodleWorksheet(SHEET).bytes)).toBe(true);
  });
});
