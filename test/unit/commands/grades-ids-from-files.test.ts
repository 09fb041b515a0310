// kct grades, in-process, when the saved run holds student ids that are not the platform's: names
// from files, as a plain folder marked gives them (a student's own folder once gave "draft" and
// "final essay"). With some ids matching, those are said to be names from files, never "a student
// who joined after it was downloaded", and are never shown as "Participant draft". And a Moodle
// student's own folder given to --download is that one student, as kct one-pass reads it.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKct } from '../cli/run-kct.js';
import { moodleWorksheet, writeCsv } from '../platforms/fixtures.js';

const marked = (id: string, score: number, name?: string) => ({
  file: `dl/${name ?? id}`,
  student_id: id,
  ...(name ? { student_name: name } : {}),
  status: 'SUCCESS',
  score,
  max_score: 20,
  evaluation: [{ item: 'Argument', score, max_score: 20, feedback: 'Clear.' }],
});

function files(rows: object[]): { dir: string; run: string; sheet: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kct-grades-ids-'));
  const run = join(dir, 'plus.ndjson');
  writeFileSync(run, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
  const sheet = join(dir, 'Grades.csv');
  writeFileSync(
    sheet,
    moodleWorksheet([
      { id: 101, name: 'Ada Lovelace' },
      { id: 102, name: 'Bo Chen' },
    ]).bytes,
  );
  return { dir, run, sheet };
}

describe('kct grades moodle: a saved run whose marks are partly under names from files', () => {
  const rows = [marked('101', 13.5, 'Ada Lovelace'), marked('102', 12, 'Bo Chen'), marked('draft', 3), marked('final essay', 12)];

  it('fills the students that match, and says the other ids are names from files, not students who joined late', async () => {
    const { dir, run, sheet } = files(rows);
    const text = await runKct(['grades', 'moodle', run, sheet, '--grades-out', join(dir, 'out.csv')]);
    expect(text.code, text.stderr).toBe(10);
    expect(text.stdout).toContain('2 filled, 0 refused, 2 with no row in the file');
    expect(text.stdout).toContain('student id "draft": marked: 15.00 out of 100, to enter by hand');
    expect(text.stdout).not.toContain('Participant draft');
    expect(text.stdout).toContain(
      "Note: 2 marks of the saved run have no row in the file: their student ids (draft, final essay) are names from files, not Moodle's ids: mark the submissions as Moodle downloads them",
    );
    expect(text.stdout + text.stderr).not.toContain('joined after');
    expect(text.stderr).toMatch(/hint: .*their student ids \(draft, final essay\) are names from files, not Moodle's ids/);
  });

  it('a student of the platform with no row is still the one who joined after the file was downloaded, said apart', async () => {
    const { dir, run, sheet } = files([...rows, marked('103', 14, 'Cy Dee')]);
    const json = await runKct(['grades', 'moodle', run, sheet, '--grades-out', join(dir, 'out.csv'), '--json']);
    expect(json.code, json.stderr).toBe(10);
    const notes: string[] = JSON.parse(json.stdout).notes;
    expect(notes.filter((note) => note.includes('joined after'))).toEqual([expect.stringContaining('(Cy Dee)')]);
    expect(notes.filter((note) => note.includes('names from files'))).toEqual([expect.stringContaining('(draft, final essay)')]);
    const { suggestion } = JSON.parse(json.stderr.trim().split('\n').pop()!).error;
    expect(suggestion).toContain('a student who joined after the file was downloaded needs a fresh download of it');
    expect(suggestion).toContain('Of those, the student ids (draft, final essay) are names from files');
  });

  it("Canvas: a user id or an anonymous id is Canvas's, a name from a file is not", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kct-grades-ids-'));
    const run = join(dir, 'plus.ndjson');
    writeFileSync(run, [marked('5001', 8, 'lovelaceada'), marked('essay', 9)].map((row) => `${JSON.stringify(row)}\n`).join(''));
    const book = join(dir, 'export.csv');
    writeFileSync(
      book,
      writeCsv({
        rows: [
          ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Essay 1 (1234)'],
          ['    Points Possible', '', '', '', '', '10.00'],
          ['Lovelace, Ada', '5001', '', '', 'Y9', ''],
        ],
      }).bytes,
    );
    const text = await runKct(['grades', 'canvas', run, book, '--assignment', 'Essay 1', '--grades-out', join(dir, 'out.csv')]);
    expect(text.code, text.stderr).toBe(10);
    expect(text.stdout).toContain('student id "essay"');
    expect(text.stdout).not.toContain('ID essay');
    expect(text.stdout).toContain("its student id (essay) is a name from a file, not Canvas's ids");
  });
});

describe('kct grades moodle --download <a Moodle student’s own folder>', () => {
  it('is that one student, as kct one-pass reads the folder: the other rows are students with no submission in it', async () => {
    const { dir, run, sheet } = files([marked('102', 12, 'Bo Chen')]);
    const folder = join(dir, 'dl', 'Bo Chen_102_assignsubmission_file_');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'essay.txt'), 'An answer.');
    const json = await runKct(['grades', 'moodle', run, sheet, '--download', folder, '--grades-out', join(dir, 'out.csv'), '--json']);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    const status = Object.fromEntries(
      report.entries.map((entry: { participantId: string; status: string }) => [entry.participantId, entry.status]),
    );
    expect(status).toEqual({ '101': 'not-marked', '102': 'filled' });
  });
});
