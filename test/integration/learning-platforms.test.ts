// From Moodle or Canvas and back, as a teacher runs it: kct (main() in-process) against a real sandbox marks
// a generated Moodle download (zip, folders on: a file, online text, an empty submission, a comma
// in a file name) and a Canvas one (late_, a text entry, a URL), saving the run (--output ndjson);
// `kct grades` then fills the worksheet and the gradebook the tests wrote in the platforms'
// formats from the saved run, and the importers' rules (the oracles in src/platforms) confirm
// every marked participant's grade and that no other cell changed. The same download zipped again,
// or unzipped, is the same class and charges nothing; students on one side only give exit code 10
// and the report under --json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readAsCanvasImports } from '../../src/platforms/canvas-import-rules.js';
import { readAsMoodleImports } from '../../src/platforms/moodle-import-rules.js';
import { MOODLE_HEADER, moodleWorksheet, rawCells, recordTexts, unzipTo, writeCsv } from '../unit/platforms/fixtures.js';
import { type ZipPart, zip } from '../unit/zip-writer.js';
import { creditsOf, FIXTURES, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const answer = (tag: string) => Buffer.from(`${essay}\n(${tag})`);
const folder = (name: string): ZipPart => ({ name, content: Buffer.alloc(0), stored: true });

interface Row {
  file: string;
  student_id: string | null;
  student_name?: string;
  status: string;
  score: number | null;
  max_score: number | null;
  message?: string;
  replayed?: boolean;
}
interface ImportEntry {
  participantId: string;
  displayName?: string;
  status: string;
  grade?: string;
  download?: { status: string; reason?: string };
}
interface ImportReport {
  file: string;
  output: string | null;
  studentsMatch: boolean;
  counts: Record<string, number>;
  entries: ImportEntry[];
  notes: string[];
}

const ndjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => parseJson<Row>(line));
/** Marks a download and saves the run as a teacher would (`--output ndjson > marks.ndjson`): its rows, the file, and the run. */
async function markAndSave(download: string, saveAs: string, flags: string[] = []) {
  const run = await shared.kct(['one-pass', download, '--model', '12', '--output', 'ndjson', ...flags]);
  writeFileSync(saveAs, run.stdout);
  return { run, rows: ndjson(run.stdout), saved: saveAs };
}

/** The grade a row's mark becomes on the file's scale, two decimals, half up, as the fill promises. */
const scaled = (row: Row, maximum: number) => Math.round(((row.score as number) * maximum * 100) / (row.max_score as number)) / 100;

describe('a Moodle download and its grading worksheet', () => {
  const parts = (tag: string): ZipPart[] => [
    { name: 'Ada Lovelace_101_assignsubmission_file_/essay.txt', content: answer(`${tag} ada`) },
    {
      name: 'Bo Chen_102_assignsubmission_onlinetext_/onlinetext.html',
      content: Buffer.from(
        `<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body>${essay
          .split('\n\n')
          .map((p) => `<p>${p}</p>`)
          .join('')}<p>(${tag} bo)</p></body></html>`,
      ),
    },
    { name: 'Sean Jack OBrien, Jr_103_assignsubmission_file_/essay, "final".txt', content: answer(`${tag} sean`) },
    folder('Eve Kim_104_assignsubmission_file_/'),
  ];
  const rows = [
    { id: 101, name: 'Ada Lovelace' },
    { id: 102, name: 'Bo Chen' },
    { id: 103, name: 'Seán "Jack" O\'Brien, Jr' },
    { id: 104, name: 'Eve Kim', grade: '40.00' },
  ];

  it("marks every student, then fills Grade and Feedback comments (BOM, CRLF) as Moodle's importer reads them, leaves every other byte; the download re-zipped or unzipped charges nothing", async () => {
    const dir = tempDir('kct-moodle-');
    const download = join(dir, 'Essay 1-12345.zip');
    writeFileSync(download, zip(parts('m1')));
    const worksheet = join(dir, 'Grades-Essay 1-12345.csv');
    const sheet = moodleWorksheet(rows, { bom: true, eol: '\r\n' });
    writeFileSync(worksheet, sheet.bytes);
    const before = await creditsOf(shared.kct);

    const { run, rows: marked, saved } = await markAndSave(download, join(dir, 'marks.ndjson'));
    expect(run.code, run.stderr).toBe(0);
    // every student of the zip is a row, with the participant id and the name
    expect(marked.map((r) => [r.student_id, r.student_name, r.status]).sort()).toEqual([
      ['101', 'Ada Lovelace', 'SUCCESS'],
      ['102', 'Bo Chen', 'SUCCESS'],
      ['103', 'Sean Jack OBrien, Jr', 'SUCCESS'],
      ['104', 'Eve Kim', 'EMPTY'],
    ]);
    expect(marked.find((r) => r.student_id === '104')?.message).toBe('empty submission: nothing submitted');
    expect(before - (await creditsOf(shared.kct))).toBe(3);
    expect(run.stderr).toContain('a Moodle download of 4 students: 3 answers to mark, 1 with nothing submitted (EMPTY)');

    // the teacher reviews marks.ndjson, then fills the worksheet from it: the report on stdout
    const grades = await shared.kct(['grades', 'moodle', saved, worksheet]);
    expect(grades.code, grades.stderr).toBe(0);
    expect(grades.stdout).toMatch(
      /Import \(Moodle grading worksheet .*column "Grade", out of 100, rounding two-decimals\):\n {2}3 filled, 0 refused, 0 with no row in the file, 1 row not marked/,
    );
    expect(grades.stdout).toMatch(/Eve Kim \(Participant 104, line 5\): EMPTY: empty submission: nothing submitted/);
    expect(grades.stdout).toContain('Students match');

    // a new file beside the download; the teacher's own file as it was
    const filledPath = join(dir, 'Grades-Essay 1-12345.kct.csv');
    expect(grades.stderr).toContain(`wrote ${filledPath}: 3 grades filled; import it in Moodle`);
    expect(readFileSync(worksheet).equals(sheet.bytes)).toBe(true);
    const filled = readFileSync(filledPath);
    expect(filled.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);

    // Moodle's importer takes every marked participant's grade, scaled from 20 to 100, and the feedback
    const imports = readAsMoodleImports(filled, { maxGrade: 100 });
    for (const row of marked.filter((r) => r.status === 'SUCCESS')) {
      expect(row.max_score).toBe(20);
      const imported = imports.imports.get(row.student_id!);
      expect(imported?.grade, row.student_id!).toBe(scaled(row, 100));
      expect(imported?.feedback).toMatch(/^<p>.+: [\d.]+ \/ \d+/);
    }
    // ... and the row not marked as before (Moodle skips an unchanged grade)
    expect(imports.imports.get('104')).toEqual(readAsMoodleImports(sheet.bytes, { maxGrade: 100 }).imports.get('104'));
    // no other cell changed: the header and the row not marked byte for byte (CRLF kept), and in marked rows only Grade and Feedback comments
    const [was, now] = [recordTexts(sheet.bytes), recordTexts(filled)];
    expect(now).toHaveLength(was.length);
    expect(now[0]).toBe(was[0]);
    expect(now[4]).toBe(was[4]);
    const editable = new Set([MOODLE_HEADER.indexOf('Grade'), MOODLE_HEADER.indexOf('Feedback comments')]);
    for (const line of [1, 2, 3]) {
      const [b, a] = [rawCells(was[line]), rawCells(now[line])];
      b.forEach(
        (cell, column) => editable.has(column) || expect(a[column], `line ${line + 1}, column ${MOODLE_HEADER[column]}`).toBe(cell),
      );
    }
    expect(filled.toString('utf8').split('\r\n')).toHaveLength(sheet.bytes.toString('utf8').split('\r\n').length);

    // the same class downloaded again and zipped again (another order, a wrapper folder), and unzipped: nothing charged, the same rows
    const again = join(dir, 'again.zip');
    writeFileSync(
      again,
      zip([
        folder('Essay 1/'),
        ...parts('m1')
          .reverse()
          .map((part) => ({ ...part, name: `Essay 1/${part.name}` })),
      ]),
    );
    const unzipped = unzipTo(join(dir, 'unzipped'), parts('m1'));
    const view = (list: Row[], input: string) =>
      list.map((r) => [r.file.replace(input, '<download>'), r.student_id, r.student_name, r.status, r.score, r.message]).sort();
    for (const input of [again, unzipped]) {
      const rerun = await markAndSave(input, join(dir, 'again.ndjson'));
      expect(rerun.run.code, rerun.run.stderr).toBe(0);
      expect(view(rerun.rows, input)).toEqual(view(marked, download));
      expect(rerun.rows.filter((r) => r.status === 'SUCCESS').every((r) => r.replayed)).toBe(true);
    }
    expect(before - (await creditsOf(shared.kct))).toBe(3);

    // kct never replaces its earlier file; --json gives scripts the import report
    const refused = await shared.kct(['grades', 'moodle', join(dir, 'again.ndjson'), worksheet]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${filledPath} exists (from an earlier run?)`);
    const json = await shared.kct([
      'grades',
      'moodle',
      join(dir, 'again.ndjson'),
      worksheet,
      '--grades-out',
      join(dir, 'again.csv'),
      '--json',
    ]);
    expect(json.code, json.stderr).toBe(0);
    expect(parseJson<ImportReport>(json.stdout)).toMatchObject({
      file: worksheet,
      output: join(dir, 'again.csv'),
      studentsMatch: true,
      counts: { filled: 3, refused: 0, 'not-in-file': 0, 'not-marked': 1 },
    });
    expect(readFileSync(join(dir, 'again.csv')).equals(filled)).toBe(true);
  }, 120_000);

  it('students on one side only: the file is still written, the report names them (also under --json), and kct exits 10', async () => {
    const dir = tempDir('kct-moodle-mismatch-');
    const download = join(dir, 'submissions.zip');
    writeFileSync(download, zip(parts('m2')));
    // blind marking: Full name is "Participant N"; 103 has no row; 106 handed nothing in; 107 was graded before
    const blind = [101, 102, 104, 106, 107].map((id) => ({
      id,
      name: `Participant ${id}`,
      ...(id === 107 ? { grade: '55.00' } : {}),
      ...(id === 106 ? { status: 'No submission' } : {}),
    }));
    const header = MOODLE_HEADER.filter((column) => column !== 'Feedback comments');
    const sheet = moodleWorksheet(blind, { header, bom: false, eol: '\n' });
    const worksheet = join(dir, 'worksheet.csv');
    writeFileSync(worksheet, sheet.bytes);

    const { run, rows: marked, saved } = await markAndSave(download, join(dir, 'marks.ndjson'));
    expect(run.code, run.stderr).toBe(0);
    expect(marked.map((row) => row.student_name).sort()).toEqual(['Ada Lovelace', 'Bo Chen', 'Eve Kim', 'Sean Jack OBrien, Jr']);

    const grades = await shared.kct(['grades', 'moodle', saved, worksheet, '--rounding', 'integer', '--json']);
    expect(grades.code, grades.stderr).toBe(10);
    const report = parseJson<ImportReport>(grades.stdout);
    expect(report.studentsMatch).toBe(false);
    const byId = new Map(report.entries.map((entry) => [entry.participantId, entry]));
    expect(byId.get('103')).toMatchObject({ status: 'not-in-file', download: { status: 'SUCCESS' } });
    expect(byId.get('103')?.grade).toMatch(/^\d+$/); // the grade to enter by hand, rounded as asked
    expect(byId.get('106')).toMatchObject({ status: 'not-marked', displayName: 'Participant 106' });
    expect(byId.get('106')?.download).toBeUndefined();
    expect(byId.get('104')).toMatchObject({ status: 'not-marked', download: { status: 'EMPTY' } });
    expect(byId.get('101')?.grade).toMatch(/^\d+$/);
    expect(grades.stderr).toMatch(/"code":"students_mismatch".*"exit_code":10/);

    const filled = readFileSync(join(dir, 'worksheet.kct.csv'));
    const imports = readAsMoodleImports(filled, { maxGrade: 100 });
    expect([...imports.imports.keys()].sort()).toEqual(['101', '102', '107']);
    expect(imports.imports.get('107')?.grade).toBe(55);
    const [was, now] = [recordTexts(sheet.bytes), recordTexts(filled)];
    for (const line of [0, 3, 4, 5]) expect(now[line]).toBe(was[line]);
    // and the words for people
    const words = await shared.kct(['grades', 'moodle', saved, worksheet, '--grades-out', join(dir, 'two.csv')]);
    expect(words.code).toBe(10);
    expect(words.stdout).toMatch(
      /In the download, with no row in the file[^\n]*\n {4}Sean Jack OBrien, Jr \(Participant 103\): marked: \d+\.\d\d out of 100, to enter by hand/,
    );
    expect(words.stdout).toMatch(
      /Rows not marked: no submission in the download \(2\):\n {4}Participant 106 \(line 5\): not in the download/,
    );
    expect(words.stderr).toContain(`error: students do not match: 1 student of ${saved} has no row in ${worksheet}`);
  }, 120_000);

  it('the --resume journal of a download names its students as its rows do, in kct report too (one run, one set of names)', async () => {
    const dir = tempDir('kct-moodle-journal-');
    const download = join(dir, 'Essay 1-12345.zip');
    writeFileSync(download, zip(parts('journal')));
    const journal = join(dir, 'marks.journal');
    const { run, rows: marked, saved } = await markAndSave(download, join(dir, 'marks.ndjson'), ['--resume', journal]);
    expect(run.code, run.stderr).toBe(0);
    const fromJournal = await shared.kct(['report', journal, '--out', join(dir, 'from-journal.html')]);
    const fromRows = await shared.kct(['report', saved, '--out', join(dir, 'from-rows.html')]);
    expect([fromJournal.code, fromRows.code]).toEqual([0, 0]);
    const names = (html: string) => marked.map((row) => (html.match(new RegExp(`>${row.student_name}( \\(\\d+\\))?<`)) ?? [''])[0]);
    const [journalHtml, rowsHtml] = [
      readFileSync(join(dir, 'from-journal.html'), 'utf8'),
      readFileSync(join(dir, 'from-rows.html'), 'utf8'),
    ];
    expect(names(journalHtml)).toEqual(names(rowsHtml));
    // the empty submission too: its name, not its label with the participant number
    expect(journalHtml).toContain('Eve Kim</strong>');
    expect(journalHtml).not.toContain('Eve Kim (104)</strong>');
  });

  it('an unzipped download with the worksheet beside it: the refusal says --group-by student, not the folder rules, and nothing is charged', async () => {
    const dir = tempDir('kct-moodle-mixed-');
    const mixed = unzipTo(join(dir, 'mixed'), parts('mixed'));
    writeFileSync(join(mixed, 'worksheet.csv'), moodleWorksheet(rows).bytes);
    const before = await creditsOf(shared.kct);
    for (const flags of [[], ['--skip-unsupported']]) {
      const run = await shared.kct(['one-pass', mixed, '--model', '12', '--output', 'ndjson', ...flags]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('looks like a Moodle download (but not its file worksheet.csv): read by the folder rules');
      expect(run.stderr).toContain('Nothing was sent.');
      expect(run.stderr).toContain('hint: Add --group-by student');
      expect(run.stderr).not.toContain('--recursive');
    }
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('a download unzipped one level down, beside the worksheet: every hint names the download to mark alone, --recursive is refused, and nothing is charged', async () => {
    const dir = tempDir('kct-moodle-within-');
    const essay1 = join(dir, 'essay1');
    unzipTo(join(essay1, 'submissions'), parts('within'));
    writeFileSync(join(essay1, 'worksheet.csv'), moodleWorksheet(rows).bytes);
    const before = await creditsOf(shared.kct);
    const alone = `kct one-pass ${join(essay1, 'submissions')} --model <id>`;
    for (const flags of [[], ['--exclude', '*.csv'], ['--exclude', '*.csv', '--recursive', '--skip-unsupported']]) {
      const run = await shared.kct(['one-pass', essay1, '--model', '12', '--output', 'ndjson', ...flags]);
      expect(run.code, `${flags.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(`${join(essay1, 'submissions')} is a Moodle download (its names say so)`);
      expect(run.stderr).toContain(`hint: Mark it on its own, one answer per student with the platform's ids: ${alone}`);
    }
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('a flat Canvas folder with a stray file: refused before anything is sent (it marked each page alone), with --group-by student or the files named as the ways on', async () => {
    const dir = tempDir('kct-canvas-stray-');
    const folder = join(dir, 'cv');
    unzipTo(folder, [
      { name: 'adamsamy_5001_96001_essay.txt', content: answer('canvas stray ada') },
      { name: 'brownben_5002_96002_part1.txt', content: answer('canvas stray ben 1') },
      { name: 'brownben_5002_96003_part2.txt', content: answer('canvas stray ben 2') },
    ]);
    writeFileSync(join(folder, 'export.csv'), 'Student,ID\n');
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['one-pass', folder, '--model', '12', '--skip-unsupported', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('looks like a Canvas download (but not its file export.csv)');
    expect(run.stderr).toMatch(/hint: Add --group-by student, .* name the files: kct one-pass .*cv\/\* --model <id>\./);
    expect(await creditsOf(shared.kct)).toBe(before);
    const grouped = await shared.kct(['one-pass', folder, '--model', '12', '--group-by', 'student', '--output', 'ndjson']);
    expect(grouped.code, grouped.stderr).toBe(0);
    // rows come in the order kct sees answers finish
    expect(
      ndjson(grouped.stdout)
        .map((row) => String(row.student_id))
        .sort(),
    ).toEqual(['5001', '5002']);
  });

  it('the same command again, with its journal and report inside the unzipped download: read as the download, nothing charged again', async () => {
    const dir = tempDir('kct-moodle-own-');
    const folder = unzipTo(join(dir, 'submissions'), parts('own'));
    const command = [
      'one-pass',
      folder,
      '--model',
      '12',
      '--output',
      'ndjson',
      '--resume',
      join(folder, 'run.journal'),
      '--report',
      join(folder, 'class.html'),
    ];
    const first = await shared.kct(command);
    expect(first.code, first.stderr).toBe(0);
    const before = await creditsOf(shared.kct);
    const again = await shared.kct(command);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/a Moodle download of \d+ students/);
    expect(again.stderr).toContain('(the --resume journal)');
    expect(again.stderr).toContain('Credits: 0 charged by this run');
    // rows come in the order kct sees answers finish: compared by student
    const tasks = (text: string) =>
      ndjson(text)
        .map((row) => [String(row.student_id), (row as { task_id?: string }).task_id])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(tasks(again.stdout)).toEqual(tasks(first.stdout));
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it("folders off (flat names, online text as <prefix>_onlinetext.html), --in-place, --rounding half; a --max-grade other than the worksheet's is refused, nothing written", async () => {
    const dir = tempDir('kct-moodle-flat-');
    const download = join(dir, 'submissions.zip');
    writeFileSync(
      download,
      zip([
        { name: 'Ada Lovelace_101_assignsubmission_file_essay.txt', content: answer('flat ada') },
        { name: 'Ada Lovelace_101_assignsubmission_file_notes_v2.txt', content: answer('flat ada notes') },
        {
          name: 'Bo Chen_102_assignsubmission_onlinetext_onlinetext.html',
          content: Buffer.from(`<html><body><p>${essay.replaceAll('\n\n', '</p><p>')}</p><p>(flat bo)</p></body></html>`),
        },
      ]),
    );
    const sheet = moodleWorksheet(rows.slice(0, 2), { bom: true, eol: '\n' });
    const worksheet = join(dir, 'worksheet.csv');
    writeFileSync(worksheet, sheet.bytes);
    const { run, rows: marked, saved } = await markAndSave(download, join(dir, 'marks.ndjson'));
    expect(run.code, run.stderr).toBe(0);
    expect(marked.map((r) => [r.student_id, r.student_name, r.status]).sort()).toEqual([
      ['101', 'Ada Lovelace', 'SUCCESS'],
      ['102', 'Bo Chen', 'SUCCESS'],
    ]);

    const tooHigh = await shared.kct(['grades', 'moodle', saved, worksheet, '--max-grade', '200', '--json']);
    expect(tooHigh.code, tooHigh.stderr).toBe(2);
    expect(tooHigh.stderr).toContain("--max-grade 200 is not the worksheet's Maximum Grade 100");
    expect(existsSync(join(dir, 'worksheet.kct.csv'))).toBe(false);

    const grades = await shared.kct(['grades', 'moodle', saved, worksheet, '--in-place', '--rounding', 'half']);
    expect(grades.code, grades.stderr).toBe(0);
    expect(grades.stderr).toContain(`wrote ${worksheet}: 2 grades filled`);
    const imports = readAsMoodleImports(readFileSync(worksheet), { maxGrade: 100 });
    for (const row of marked) {
      const grade = imports.imports.get(row.student_id!)?.grade as number;
      expect(grade * 2).toBe(Math.round(((row.score as number) * 100 * 2) / (row.max_score as number)));
      expect(grade).toBeLessThanOrEqual(100);
    }
    expect(recordTexts(readFileSync(worksheet))[0]).toBe(recordTexts(sheet.bytes)[0]);
  }, 120_000);

  // each dangerous zip is refused before any request: no task, no credit spent, no grade file written, nothing extracted left behind
  const dangerous: [string, () => ZipPart[], RegExp][] = [
    [
      'an entry that escapes its folder',
      () => [...parts('m3'), { name: 'Ada Lovelace_101_assignsubmission_file_/../../evil.txt', content: Buffer.from('x') }],
      /the entry ".*evil\.txt" has a "\.\." in its path.*kct refuses the zip/,
    ],
    [
      'a zip bomb by ratio',
      () => [...parts('m3'), { name: 'Eve Kim_104_assignsubmission_file_/big.txt', content: Buffer.alloc(8 * 1024 * 1024) }],
      /"Eve Kim_104_assignsubmission_file_\/big\.txt" would inflate \d+ bytes to 8388608 \(more than 100 to 1\): a zip bomb; kct refuses the zip/,
    ],
    [
      'an entry larger than it declares',
      () => [...parts('m3'), { name: 'Eve Kim_104_assignsubmission_file_/small.txt', content: Buffer.alloc(200_000, 0x61), declare: 1000 }],
      /"Eve Kim_104_assignsubmission_file_\/small\.txt" holds more than the 1000 bytes it declares: a zip bomb/,
    ],
    [
      'an encrypted entry',
      () => [...parts('m3'), { name: 'Eve Kim_104_assignsubmission_file_/secret.txt', content: answer('secret'), flags: 1 }],
      /"Eve Kim_104_assignsubmission_file_\/secret\.txt" is encrypted; kct refuses the zip/,
    ],
    [
      'too many entries',
      () => [
        ...parts('m3'),
        ...Array.from({ length: 10_000 }, (_, i) => ({
          name: `Eve Kim_104_assignsubmission_file_/f${i}.txt`,
          content: Buffer.from('x'),
          stored: true,
        })),
      ],
      /holds 10004 entries; kct reads at most 10000/,
    ],
  ];
  it.each(dangerous)(
    '%s: refused before anything is sent (no task, credits unchanged, nothing extracted left behind)',
    async (_what, build, message) => {
      const dir = tempDir('kct-moodle-evil-');
      const download = join(dir, 'submissions.zip');
      writeFileSync(download, zip(build()));
      const before = await creditsOf(shared.kct);
      const run = await shared.kct(['one-pass', download, '--model', '12']);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
      expect(before - (await creditsOf(shared.kct))).toBe(0);
      expect(existsSync(join(dir, '..', 'evil.txt'))).toBe(false);
    },
    60_000,
  );
});

describe('a Canvas download and its gradebook export', () => {
  it("groups files by user id (late_ read), marks a text entry, lists a URL as SKIPPED, a student's file kct cannot send in their one row; fills the assignment's column to its Points Possible", async () => {
    const dir = tempDir('kct-canvas-');
    const download = join(dir, 'submissions.zip');
    writeFileSync(
      download,
      zip([
        { name: 'doejane_301_9001_essay.txt', content: answer('c1 jane') },
        { name: 'doejane_301_9002_draft.odt', content: Buffer.from('PK an OpenDocument text') },
        { name: 'ngbo_late_302_9003_essay.txt', content: answer('c1 bo late') },
        {
          name: 'okafor_304_text.html',
          content: Buffer.from(
            `<html><head><title>Essay 1</title></head><body><p>${essay.replaceAll('\n\n', '</p><p>')}</p><p>(c1 okafor)</p></body></html>`,
          ),
        },
        { name: 'li_305_link.html', content: Buffer.from('<html><body><a href="https://example.org/essay">essay</a></body></html>') },
      ]),
    );
    const header = [
      'Student',
      'ID',
      'SIS User ID',
      'SIS Login ID',
      'Section',
      'Quiz 1 (88)',
      'Essay 1 (1234)',
      'Current Score',
      'Final Score',
    ];
    const book = writeCsv({
      rows: [
        header,
        ['    Points Possible', '', '', '', '', '5.00', '10.00', '(read only)', '(read only)'],
        ['Doe, Jane', '301', 'S1', 'jdoe', 'Year 9', '4.00', '', '80.00', '80.00'],
        ['Ng, Bo', '302', 'S2', 'bng', 'Year 9', '3.50', '', '70.00', '70.00'],
        ['Okafor, Chi', '304', 'S4', 'cokafor', 'Year 9', '', '', '', ''],
        ['Li, Wen', '305', 'S5', 'wli', 'Year 9', '5.00', '7.00', '100.00', '100.00'],
      ],
      eol: '\n',
    }).bytes;
    const gradebook = join(dir, 'export.csv');
    writeFileSync(gradebook, book);
    const before = await creditsOf(shared.kct);

    const csv = await shared.kct(['one-pass', download, '--model', '12', '--skip-unsupported', '--output', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const rows = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]).at(-1)).toBe('student_name');
    // one row per student: Jane's essay is marked without the file kct cannot send
    expect(rows.map((r) => [r.student_id, r.student_name, r.status]).sort()).toEqual([
      ['301', 'doejane', 'SUCCESS'],
      ['302', 'ngbo', 'SUCCESS'],
      ['304', 'okafor', 'SUCCESS'],
      ['305', 'li', 'SKIPPED'],
    ]);
    expect(before - (await creditsOf(shared.kct))).toBe(3);
    expect(csv.stderr).toContain('late (as Canvas names them): 1 student (ngbo)');
    expect(csv.stderr).toContain('3 answers to mark (1 without a file that cannot be sent, named in its row), 1 SKIPPED');

    // the table a teacher reads (replayed, nothing charged) names the mark made without a file, under it
    const table = await shared.kct(['one-pass', download, '--model', '12', '--skip-unsupported']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      /Marked, with a note to read first \(1; the note is the row's message\):\n {2}\S*doejane \(301\): marked without a file that cannot be sent: /,
    );

    // the same run saved as ndjson (replayed, nothing charged), then the gradebook filled from it
    const { run, saved } = await markAndSave(download, join(dir, 'marks.ndjson'), ['--skip-unsupported']);
    expect(run.code, run.stderr).toBe(0);
    expect(before - (await creditsOf(shared.kct))).toBe(3);
    // and the class report shows that note in the student's cell, not only behind "Feedback"
    const report = await shared.kct(['report', saved, '--out', join(dir, 'class.html')]);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(dir, 'class.html'), 'utf8')).toMatch(
      /<td role="cell" class="who">[^<]*<span class="row-note">marked without a file that cannot be sent: /,
    );
    const grades = await shared.kct(['grades', 'canvas', saved, gradebook, '--assignment', 'Essay 1']);
    expect(grades.code, grades.stderr).toBe(0);
    expect(grades.stdout).toMatch(/Rows not marked: in the download \(1\):\n {4}Li, Wen \(ID 305, line 6\): SKIPPED: a URL submission/);
    expect(grades.stdout).toContain('A Canvas gradebook import carries scores only; feedback was not written.');

    const filled = readFileSync(join(dir, 'export.kct.csv'));
    const imported = readAsCanvasImports(filled, 'Essay 1 (1234)');
    expect(imported.pointsPossible).toBe('10.00');
    for (const row of rows.filter((r) => r.status === 'SUCCESS')) {
      expect(Number(imported.grades.get(row.student_id))).toBe(
        scaled({ score: Number(row.score), max_score: Number(row.max_score) } as Row, 10),
      );
    }
    expect(imported.grades.get('305')).toBe('7.00');
    const [was, now] = [recordTexts(book), recordTexts(filled)];
    for (const line of [0, 1, 5]) expect(now[line]).toBe(was[line]);
    for (const line of [2, 3, 4]) {
      const [b, a] = [rawCells(was[line]), rawCells(now[line])];
      b.forEach((cell, column) => column === header.indexOf('Essay 1 (1234)') || expect(a[column]).toBe(cell));
    }
  }, 120_000);
});
