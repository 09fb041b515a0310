// kct grades moodle|canvas, in-process: a saved run (the ndjson one-pass prints) fills the grade
// file the platform gave, checked by the importers' own rules (src/platforms/*-import-rules.ts).
// Every refusal comes before anything is written; kct never replaces a file unless --in-place;
// the report names each student on one side only, and kct exits 10 when there are any.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readAsCanvasImports } from '../../../src/platforms/canvas-import-rules.js';
import { readAsMoodleImports } from '../../../src/platforms/moodle-import-rules.js';
import { runKct } from '../cli/run-kct.js';
import { MOODLE_HEADER, moodleWorksheet, rawCells, recordTexts, writeCsv } from '../platforms/fixtures.js';
import { zip } from '../zip-writer.js';

const root = mkdtempSync(join(tmpdir(), 'kct-grades-'));
let made = 0;
const fresh = () => {
  const dir = join(root, `case-${made++}`);
  writeFileSync(join(root, '.keep'), '');
  return mkdtempSync(`${dir}-`);
};

interface Row {
  student_id?: string;
  student_name?: string;
  status: string;
  score?: number;
  max_score?: number;
  message?: string;
  duplicate_of?: string;
  evaluation?: { item: string; score: number; max_score: number; feedback: string }[];
}

const marked = (id: string, name: string, score: number): Row => ({
  student_id: id,
  student_name: name,
  status: 'SUCCESS',
  score,
  max_score: 20,
  evaluation: [{ item: 'Argument', score, max_score: 20, feedback: `Clear & direct, ${name}.` }],
});
const CLASS: Row[] = [
  marked('101', 'Ada Lovelace', 13.5),
  marked('102', 'Bo Chen', 18),
  { student_id: '104', student_name: 'Eve Kim', status: 'EMPTY', message: 'empty submission: nothing submitted' },
];
const WORKSHEET = [
  { id: 101, name: 'Ada Lovelace' },
  { id: 102, name: 'Bo Chen' },
  { id: 104, name: 'Eve Kim', grade: '40.00' },
];

function savedRun(dir: string, rows: Row[], name = 'marks.ndjson'): string {
  const path = join(dir, name);
  writeFileSync(path, rows.map((row) => `${JSON.stringify({ file: `dl/${row.student_name}`, ...row })}\n`).join(''));
  return path;
}

function worksheet(
  dir: string,
  rows: Parameters<typeof moodleWorksheet>[0] = WORKSHEET,
  options: Parameters<typeof moodleWorksheet>[1] = { bom: true, eol: '\r\n' },
) {
  const path = join(dir, 'Grades.csv');
  const sheet = moodleWorksheet(rows, options);
  writeFileSync(path, sheet.bytes);
  return { path, bytes: sheet.bytes };
}

describe('kct grades moodle', () => {
  it('fills Grade and Feedback comments of the marked rows only, in a new file beside the worksheet; the report on stdout', async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS);
    const sheet = worksheet(dir);
    const result = await runKct(['grades', 'moodle', run, sheet.path]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^Import \(Moodle grading worksheet .*Grades\.csv, column "Grade", out of 100, rounding two-decimals\):\n {2}2 filled, 0 refused, 0 with no row in the file, 1 row not marked/,
    );
    expect(result.stdout).toMatch(/Eve Kim \(Participant 104, line 4\): EMPTY: empty submission: nothing submitted/);
    expect(result.stdout).toContain('Students match');
    const filledPath = join(dir, 'Grades.kct.csv');
    expect(result.stderr).toContain(`kct: wrote ${filledPath}: 2 grades filled; import it in Moodle`);
    // the teacher's file as it was; the filled one read as Moodle's importer reads it
    expect(readFileSync(sheet.path).equals(sheet.bytes)).toBe(true);
    const filled = readFileSync(filledPath);
    const imports = readAsMoodleImports(filled, { maxGrade: 100 }).imports;
    expect(imports.get('101')).toMatchObject({ grade: 67.5 });
    expect(imports.get('101')?.feedback).toBe('<p>Argument: 13.5 / 20<br>Clear &amp; direct, Ada Lovelace.</p>');
    expect(imports.get('102')).toMatchObject({ grade: 90 });
    expect(imports.get('104')).toEqual(readAsMoodleImports(sheet.bytes, { maxGrade: 100 }).imports.get('104'));
    const [was, now] = [recordTexts(sheet.bytes), recordTexts(filled)];
    expect(now[0]).toBe(was[0]);
    expect(now[3]).toBe(was[3]);
    const editable = new Set([MOODLE_HEADER.indexOf('Grade'), MOODLE_HEADER.indexOf('Feedback comments')]);
    for (const line of [1, 2]) rawCells(was[line]).forEach((cell, i) => editable.has(i) || expect(rawCells(now[line])[i]).toBe(cell));

    // run again: kct never replaces a file it did not make in this run, and writes nothing
    const again = await runKct(['grades', 'moodle', run, sheet.path]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`${filledPath} exists (from an earlier run?); kct never replaces a file it did not make in this run`);
    expect(readFileSync(filledPath).equals(filled)).toBe(true);
  });

  it('a saved run that is not there is said first, not a grade file from an earlier run in the way (exit 2)', async () => {
    const dir = fresh();
    const { path } = worksheet(dir);
    writeFileSync(join(dir, 'Grades.kct.csv'), 'from an earlier run');
    const run = await runKct(['grades', 'moodle', join(dir, 'missing.ndjson'), path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`error: cannot read ${join(dir, 'missing.ndjson')}: no such file`);
    expect(run.stderr).not.toContain('exists');
  });

  it('--json: the import report, for scripts; --in-place replaces the worksheet; --rounding and --feedback text', async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS);
    const sheet = worksheet(dir);
    const result = await runKct([
      'grades',
      'moodle',
      run,
      sheet.path,
      '--in-place',
      '--rounding',
      'integer',
      '--feedback',
      'text',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      file: sheet.path,
      output: sheet.path,
      savedRun: run,
      download: null,
      platform: 'moodle',
      target: { column: 'Grade', maximum: 100 },
      rounding: 'integer',
      counts: { filled: 2, refused: 0, 'not-in-file': 0, 'not-marked': 1 },
      studentsMatch: true,
    });
    expect(report.entries.find((e: { participantId: string }) => e.participantId === '101')).toMatchObject({
      status: 'filled',
      grade: '68',
      download: { status: 'SUCCESS' },
    });
    const imports = readAsMoodleImports(readFileSync(sheet.path), { maxGrade: 100 }).imports;
    expect(imports.get('101')).toMatchObject({ grade: 68, feedback: 'Argument: 13.5 / 20\nClear & direct, Ada Lovelace.' });
    expect(existsSync(join(dir, 'Grades.kct.csv'))).toBe(false);
  });

  it('students on one side only: the file is written, the report names them, exit 10; --output csv gives a row each', async () => {
    const dir = fresh();
    // 103 was marked but has no row; 106 has a row and no submission
    const run = savedRun(dir, [...CLASS, marked('103', 'Sean OBrien', 10)]);
    const sheet = worksheet(dir, [...WORKSHEET, { id: 106, name: 'Sam Rao', status: 'No submission' }]);
    const result = await runKct(['grades', 'moodle', run, sheet.path, '--grades-out', join(dir, 'out.csv')]);
    expect(result.code, result.stderr).toBe(10);
    expect(result.stdout).toMatch(
      /In the download, with no row in the file[^\n]*\(1\):\n {4}Sean OBrien \(Participant 103\): marked: 50\.00 out of 100, to enter by hand/,
    );
    expect(result.stdout).toMatch(
      /Rows not marked: no submission in the download \(1\):\n {4}Sam Rao \(Participant 106, line 5\): not in the download/,
    );
    expect(result.stdout).toContain('Students do not match (listed above): kct writes the file and exits with code 10.');
    expect(result.stderr).toContain(`error: students do not match: 1 student of ${run} has no row in ${sheet.path}\n`);
    expect([...readAsMoodleImports(readFileSync(join(dir, 'out.csv')), { maxGrade: 100 }).imports.keys()].sort()).toEqual([
      '101',
      '102',
      '104',
    ]);

    expect(result.stderr).toContain('the report above names each student');
    const csv = await runKct(['grades', 'moodle', run, sheet.path, '--grades-out', join(dir, 'out2.csv'), '--output', 'csv']);
    expect(csv.code).toBe(10);
    // no report above: the rows on stdout are it
    expect(csv.stderr).toContain('the report on stdout names (entries not-in-file) each student');
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.participant_id, r.status, r.run_status]).sort()).toEqual([
      ['101', 'filled', 'SUCCESS'],
      ['102', 'filled', 'SUCCESS'],
      ['103', 'not-in-file', 'SUCCESS'],
      ['104', 'not-marked', 'EMPTY'],
      ['106', 'not-marked', ''],
    ]);
  });

  it('a row whose student handed nothing in is a note, not a mismatch: the file is written, exit 0, no "error:"', async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS);
    const sheet = worksheet(dir, [...WORKSHEET, { id: 106, name: 'Sam Rao', status: 'No submission' }]);
    const result = await runKct(['grades', 'moodle', run, sheet.path, '--grades-out', join(dir, 'out.csv')]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('error:');
    expect(result.stdout).toMatch(/Sam Rao \(Participant 106, line 5\): not in the download/);
    expect(result.stdout).toContain('Students match: every student of the download has a row (1 row with no submission left as it was).');
    const json = JSON.parse((await runKct(['grades', 'moodle', run, sheet.path, '--grades-out', join(dir, 'j.csv'), '--json'])).stdout);
    expect(json.studentsMatch).toBe(true);
    expect(json.counts['not-marked']).toBeGreaterThanOrEqual(1);
  });

  it("--download: the download is the class, so a student the saved run has no row for is listed; another platform's download is refused", async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS.slice(0, 2));
    const sheet = worksheet(dir);
    const download = join(dir, 'submissions.zip');
    writeFileSync(
      download,
      zip([
        { name: 'Ada Lovelace_101_assignsubmission_file_/essay.txt', content: Buffer.from('a') },
        { name: 'Bo Chen_102_assignsubmission_file_/essay.txt', content: Buffer.from('b') },
        { name: 'Eve Kim_104_assignsubmission_file_/essay.txt', content: Buffer.from('e') },
      ]),
    );
    const result = await runKct(['grades', 'moodle', run, sheet.path, '--download', download, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.download).toBe(download);
    expect(report.entries.find((e: { participantId: string }) => e.participantId === '104')).toMatchObject({
      status: 'not-marked',
      displayName: 'Eve Kim',
      download: { status: 'NOT_SENT', reason: `no row in ${run}` },
    });

    const canvas = join(dir, 'canvas.zip');
    writeFileSync(canvas, zip([{ name: 'doejane_101_9001_essay.txt', content: Buffer.from('x') }]));
    const refused = await runKct(['grades', 'moodle', run, sheet.path, '--download', canvas, '--grades-out', join(dir, 'x.csv')]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${canvas} is a Canvas download, and kct grades moodle fills Moodle's file: nothing was written`);
    expect(existsSync(join(dir, 'x.csv'))).toBe(false);
  });

  it('refused before anything is written: a worksheet no student has a row in, a spreadsheet, the arguments swapped, marks that disagree, rows naming no student', async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS);
    const sheet = worksheet(dir, [
      { id: 901, name: 'Ada Lovelace' },
      { id: 902, name: 'Bo Chen' },
    ]);
    const latin1 = join(dir, 'latin1.csv');
    writeFileSync(latin1, Buffer.from([0x47, 0x72, 0xe9, 0x0a]));
    const cases: [string[], RegExp][] = [
      [[run, sheet.path], new RegExp(`none of the 3 students of ${run} has a row in ${sheet.path} \\(matched by participant numbers`)],
      [[run, join(dir, 'Grades.xlsx')], /takes the CSV file Moodle downloaded, not a spreadsheet/],
      [[sheet.path, run], /marks\.ndjson looks like a saved run, not the grade file: the saved run comes first/],
      [
        [savedRun(dir, [marked('101', 'Ada', 10), marked('101', 'Ada', 12)], 'twice.ndjson'), sheet.path],
        /1 student of .*twice\.ndjson has marked rows that disagree \(101: 10, 12\)/,
      ],
      [
        [
          savedRun(
            dir,
            [
              marked('101', 'Ada', 10),
              { ...marked('101', 'Ada', 10), evaluation: [{ item: 'Argument', score: 10, max_score: 20, feedback: 'Another mark.' }] },
            ],
            'same-total.ndjson',
          ),
          sheet.path,
        ],
        /1 student of .*same-total\.ndjson has marked rows that disagree \(101: 10, 10, the same total with other criteria or feedback\)/,
      ],
      [
        [savedRun(dir, [{ status: 'SUCCESS', score: 3, max_score: 4 }], 'anon.ndjson'), sheet.path],
        /no row of .*anon\.ndjson names a student/,
      ],
      [[run, join(dir, 'missing.csv')], /cannot read the grade file .*missing\.csv: no such file/],
      // the same file twice is said so, not taken for the arguments swapped
      [[run, run], /marks\.ndjson is given as both the saved run and the grade file\nhint: kct grades moodle <saved-run> <worksheet\.csv>/],
      // a file the reader refuses is named, with what to do
      [[run, latin1], /latin1\.csv: The Moodle grading worksheet is not UTF-8 text/],
      [[run, sheet.path, '--grades-out', join(dir, 'no', 'such', 'out.csv')], /its folder does not exist\nhint: Make the folder first/],
      [[run, sheet.path, '--in-place', '--grades-out', join(dir, 'z.csv')], /both say where to write: give one\nhint: --in-place replaces/],
    ];
    for (const [args, message] of cases) {
      const result = await runKct(['grades', 'moodle', ...args]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    expect(existsSync(join(dir, 'Grades.kct.csv'))).toBe(false);
  });

  it('without --download, a row the worksheet says was submitted and the saved run lacks (a run stopped) is a mismatch, exit 10, never "no submission"', async () => {
    const dir = fresh();
    // the run was stopped while Cai's answer was being marked: the saved run has no row for her
    const run = savedRun(dir, CLASS);
    const sheet = worksheet(dir, [...WORKSHEET, { id: 105, name: 'Cai Wen' }, { id: 106, name: 'Sam Rao', status: 'No submission' }]);
    const result = await runKct(['grades', 'moodle', run, sheet.path, '--grades-out', join(dir, 'out.csv')]);
    expect(result.code, result.stderr).toBe(10);
    expect(result.stdout).toMatch(
      /Rows not marked: submitted, with no row in the saved run[^\n]*\(1\):\n {4}Cai Wen \(Participant 105, line 5\): no row in .*marks\.ndjson, though the file says "Submitted for grading"/,
    );
    expect(result.stdout).toMatch(/Sam Rao \(Participant 106, line 6\): not in the download/);
    expect(result.stderr).toContain('error: students do not match: 1 row of');
    expect(result.stderr).toContain('says its student submitted (Cai Wen)');
    expect(result.stderr).toContain('run the same kct one-pass again (nothing is charged twice)');
  });

  it('rows not final yet (a run saved with --no-wait) are not filled, and the report says how to collect them', async () => {
    const dir = fresh();
    const run = savedRun(dir, [marked('101', 'Ada Lovelace', 13.5), { student_id: '102', student_name: 'Bo Chen', status: 'QUEUED' }]);
    const sheet = worksheet(dir, WORKSHEET.slice(0, 2));
    const result = await runKct(['grades', 'moodle', run, sheet.path, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.counts).toMatchObject({ filled: 1, 'not-marked': 1 });
    expect(report.notes[0]).toMatch(
      /^1 student of .* has only rows not final when the run was saved \(QUEUED 1\): run the same kct one-pass again/,
    );
    // Monday's --no-wait rows, then Tuesday's marks appended: filled, and nothing left to collect
    const appended = savedRun(
      dir,
      [
        { student_id: '101', student_name: 'Ada Lovelace', status: 'QUEUED' },
        { student_id: '102', student_name: 'Bo Chen', status: 'QUEUED' },
        marked('101', 'Ada Lovelace', 13.5),
        marked('102', 'Bo Chen', 18),
      ],
      'appended.ndjson',
    );
    const later = JSON.parse(
      (await runKct(['grades', 'moodle', appended, sheet.path, '--grades-out', join(dir, 'b.csv'), '--json'])).stdout,
    );
    expect(later.counts).toMatchObject({ filled: 2 });
    expect(later.notes.join(' ')).not.toContain('not final');
  });
});

describe('kct grades of another class: the same ids, other students', () => {
  it('a row naming another student than the mark with its id is refused, and kct exits 10; with none matching nothing is written', async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS);
    // the worksheet of another course: the same participant numbers, other people
    const other = worksheet(dir, [
      { id: 101, name: 'Wei Xu' },
      { id: 102, name: 'Kim Yates' },
      { id: 104, name: 'Eve Kim' },
    ]);
    const out = join(dir, 'out.csv');
    const result = await runKct(['grades', 'moodle', run, other.path, '--grades-out', out]);
    expect(result.code, result.stdout + result.stderr).toBe(10);
    expect(result.stdout).toContain('0 filled, 2 refused');
    expect(result.stdout).toContain('the file\'s row is "Wei Xu", and the mark with this id is "Ada Lovelace"\'s');
    expect(result.stdout).not.toContain('Students match');
    expect(result.stderr).toContain(`error: students do not match: 2 rows of ${other.path} name another student than the mark of ${run}`);
    expect(existsSync(out)).toBe(false);
    // one row of another student beside rows that agree: those are filled, that one is left, exit 10
    const mixed = worksheet(dir, [
      { id: 101, name: 'Ada Lovelace' },
      { id: 102, name: 'Kim Yates' },
      { id: 104, name: 'Eve Kim' },
    ]);
    const some = await runKct(['grades', 'moodle', run, mixed.path, '--grades-out', join(dir, 'mixed.csv')]);
    expect(some.code, some.stderr).toBe(10);
    expect([...readAsMoodleImports(readFileSync(join(dir, 'mixed.csv')), { maxGrade: 100 }).imports.keys()]).toEqual(['101']);
    expect(some.stderr).toContain('Do not import the file written until you have');
  });

  it('Canvas: "Lovelace, Ada" is Ada Lovelace; "Xu, Wei" with her id is refused', async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS);
    const path = join(dir, 'export.csv');
    writeFileSync(
      path,
      writeCsv({
        rows: [
          ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Essay 1 (1234)'],
          ['    Points Possible', '', '', '', '', '10.00'],
          ['Lovelace, Ada', '101', '', '', 'Y9', ''],
          ['Xu, Wei', '102', '', '', 'Y9', ''],
        ],
      }).bytes,
    );
    const result = await runKct(['grades', 'canvas', run, path, '--assignment', 'Essay 1', '--output', 'csv']);
    expect(result.code, result.stderr).toBe(10);
    const rows = parse(result.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.filter((r) => r.participant_id !== '104').map((r) => [r.participant_id, r.status, r.reason])).toEqual([
      ['101', 'filled', ''],
      ['102', 'refused', 'other-student'],
    ]);
  });
});

describe('kct grades canvas given a Moodle worksheet', () => {
  it('says what the file is first (even with an earlier output beside it), and which command fills it', async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS);
    const sheet = worksheet(dir);
    writeFileSync(join(dir, 'Grades.kct.csv'), 'from an earlier fill\n');
    const result = await runKct(['grades', 'canvas', run, sheet.path, '--assignment', 'Essay']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "does not start with the Student and ID columns Canvas's importer requires: it looks like Moodle's grading worksheet",
    );
    expect(result.stderr).toContain('hint: Fill it with kct grades moodle');
    expect(result.stderr).not.toContain('exists');
  });
});

describe('kct grades moodle: a grade whose row says something', () => {
  it('a student marked without a file of the submission is filled, and listed to check with what the row said', async () => {
    const dir = fresh();
    const without = {
      ...marked('102', 'Bo Chen', 18),
      message: 'marked without a file that cannot be sent: virus.exe: unsupported file type',
    };
    const run = savedRun(dir, [marked('101', 'Ada Lovelace', 13.5), without]);
    const sheet = worksheet(dir, WORKSHEET.slice(0, 2));
    const text = await runKct(['grades', 'moodle', run, sheet.path, '--grades-out', join(dir, 't.csv')]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /Filled, to check[\s\S]*Bo Chen[^\n]*the run's row says: marked without a file that cannot be sent: virus\.exe/,
    );
    expect(text.stdout).not.toMatch(/to check[\s\S]*Ada Lovelace/);
    const json = JSON.parse((await runKct(['grades', 'moodle', run, sheet.path, '--json', '--grades-out', join(dir, 'j.csv')])).stdout);
    const bo = json.entries.find((entry: { participantId: string }) => entry.participantId === '102');
    expect(bo).toMatchObject({ status: 'filled', warnings: ['row-note'], note: expect.stringContaining('virus.exe') });
  });
});

describe('kct grades moodle with the marks of a plain folder', () => {
  it('says its ids are names from files, not Moodle participant numbers, and to mark the download instead', async () => {
    const dir = fresh();
    const run = savedRun(dir, [marked('alice', 'alice', 12), marked('bob', 'bob', 14)]);
    const sheet = worksheet(dir, WORKSHEET.slice(0, 2));
    const text = await runKct(['grades', 'moodle', run, sheet.path, '--grades-out', join(dir, 't.csv')]);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('none of the 2 students');
    expect(text.stderr).toMatch(
      /hint: Its student ids \(alice, bob\) are names from files, not Moodle's ids: mark the submissions as Moodle downloads them/,
    );
    expect(text.stderr).not.toContain('Download the grading worksheet');
  });

  it('says so when only some ids are names (a folder with a file named 2023.txt among them)', async () => {
    const dir = fresh();
    const run = savedRun(dir, [marked('alice', 'alice', 12), marked('2023', '2023', 11), marked('bob', 'bob', 14)]);
    const sheet = worksheet(dir, WORKSHEET.slice(0, 2));
    const text = await runKct(['grades', 'moodle', run, sheet.path, '--grades-out', join(dir, 't.csv')]);
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/hint: Some of its student ids \(alice, bob\) are names from files, not Moodle's ids/);
  });
});

describe('kct grades moodle, two students with identical answers', () => {
  it('fills both, and lists both to check, each naming the other answer (the same text or bytes)', async () => {
    const dir = fresh();
    const run = savedRun(dir, [
      { ...marked('101', 'Ada Lovelace', 13.5), duplicate_of: 'dl/Bo Chen' },
      { ...marked('102', 'Bo Chen', 13.5), duplicate_of: 'dl/Ada Lovelace' },
    ]);
    const sheet = worksheet(dir, WORKSHEET.slice(0, 2));
    const text = await runKct(['grades', 'moodle', run, sheet.path, '--grades-out', join(dir, 't.csv')]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/Filled, to check \(2\)/);
    expect(text.stdout).toMatch(/Ada Lovelace[^\n]*identical to dl\/Bo Chen/);
    expect(text.stdout).toMatch(/Bo Chen[^\n]*identical to dl\/Ada Lovelace/);
    const json = JSON.parse((await runKct(['grades', 'moodle', run, sheet.path, '--json', '--grades-out', join(dir, 'j.csv')])).stdout);
    for (const entry of json.entries)
      expect(entry).toMatchObject({ status: 'filled', warnings: ['row-note'], note: expect.stringContaining('identical to') });
  });
});

describe('kct grades moodle over a comment the teacher wrote', () => {
  it('the report lists the comment kept, with its start, and says --overwrite-feedback replaces it', async () => {
    const dir = fresh();
    const run = savedRun(dir, [marked('101', 'Ada Lovelace', 13.5)]);
    const sheet = worksheet(dir, [{ id: 101, name: 'Ada Lovelace', feedback: '<p>Good start, but cite your sources</p>' }]);
    const text = await runKct(['grades', 'moodle', run, sheet.path]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /Filled, to check[\s\S]*Ada Lovelace[^\n]*keeps the feedback comment already there, the marks' feedback not written \("<p>Good start, but cite your sources<\/p>"\)/,
    );
    expect(text.stdout).toContain("--overwrite-feedback writes the marks' feedback over them");
  });
});

describe('kct grades moodle from a run without feedback', () => {
  it('a CSV saved run (scores only): the report says the feedback written is the scores, and how to hand back comments', async () => {
    const dir = fresh();
    const scoresOnly = {
      ...marked('101', 'Ada Lovelace', 13.5),
      evaluation: [{ item: 'Argument', score: 13.5, max_score: 20, feedback: '' }],
    };
    const run = savedRun(dir, [scoresOnly, marked('102', 'Bo Chen', 18)]);
    const sheet = worksheet(dir, WORKSHEET.slice(0, 2));
    const report = JSON.parse((await runKct(['grades', 'moodle', run, sheet.path, '--json'])).stdout);
    expect(report.notes).toContainEqual(expect.stringMatching(/^1 marked row of .* holds no feedback, only scores .*--output ndjson/));
    // --feedback none writes none: nothing to say; a run with feedback: nothing either
    const none = JSON.parse(
      (await runKct(['grades', 'moodle', run, sheet.path, '--json', '--feedback', 'none', '--grades-out', join(dir, 'n.csv')])).stdout,
    );
    expect(none.notes.join('\n')).not.toContain('no feedback');
    const full = savedRun(dir, [marked('101', 'Ada Lovelace', 13.5)], 'full.ndjson');
    const withFeedback = JSON.parse(
      (await runKct(['grades', 'moodle', full, sheet.path, '--json', '--grades-out', join(dir, 'f.csv')])).stdout,
    );
    expect(withFeedback.notes.join('\n')).not.toContain('no feedback');
  });
});

describe('kct grades canvas', () => {
  const header = ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Essay 1 (1234)', 'Current Score'];
  const book = writeCsv({
    rows: [
      header,
      ['    Points Possible', '', '', '', '', '10.00', '(read only)'],
      ['Lovelace, Ada', '101', '', '', 'Y9', '', '80.00'],
      ['Chen, Bo', '102', '', '', 'Y9', '7.00', '70.00'],
      ['Kim, Eve', '104', '', '', 'Y9', '', ''],
    ],
  }).bytes;

  it("fills the assignment's column to its Points Possible; scores only (a note says feedback is not written)", async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS);
    const path = join(dir, 'export.csv');
    writeFileSync(path, book);
    const result = await runKct(['grades', 'canvas', run, path, '--assignment', 'Essay 1']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('A Canvas gradebook import carries scores only; feedback was not written.');
    const imported = readAsCanvasImports(readFileSync(join(dir, 'export.kct.csv')), 'Essay 1 (1234)');
    expect(Object.fromEntries(imported.grades)).toMatchObject({ '101': '6.75', '102': '9.00', '104': '' });
  });

  it('the marks of an anonymous download (anon_…) are said to be anonymous, with where to enter them, not to mark the download again', async () => {
    const dir = fresh();
    const run = savedRun(dir, [marked('anon_k3x9', 'anon_k3x9', 6), marked('anon_p2q8', 'anon_p2q8', 7)]);
    const path = join(dir, 'export.csv');
    writeFileSync(path, book);
    const result = await runKct(['grades', 'canvas', run, path, '--assignment', 'Essay 1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Its students are anonymous (anon_…, Canvas's anonymous grading)");
    expect(result.stderr).toContain('SpeedGrader');
    expect(result.stderr).not.toContain('mark the submissions as Canvas downloads them');
  });

  it('needs --assignment, and names the columns when it is not one of them', async () => {
    const dir = fresh();
    const run = savedRun(dir, CLASS);
    const path = join(dir, 'export.csv');
    writeFileSync(path, book);
    const none = await runKct(['grades', 'canvas', run, path]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('kct grades canvas needs --assignment: the column of the gradebook to fill');
    // the gradebook's own columns, and an example from them, not a made-up one
    expect(none.stderr).toContain(`${path} has "Essay 1 (1234)"`);
    expect(none.stderr).toContain('e.g. --assignment 1234');
    const wrong = await runKct(['grades', 'canvas', run, path, '--assignment', 'Essay 9']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Essay 1 (1234)');
    expect(existsSync(join(dir, 'export.kct.csv'))).toBe(false);
  });
});
