// No student silently lost (issue 11, items 1, 6, 7): what a real class folder yields, in every
// output format, and the shapes scripts rely on.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { creditsOf, FIXTURES, GENERATED, parseJson, tempDir, useSandbox } from './harness.js';

interface Row {
  file: string;
  student_id: string | null;
  task_id: string | null;
  status: string;
  score: number | null;
  message?: string;
}

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const shared = useSandbox();

/** 10 .txt answers, an .odt, an .exe, an empty file, a README, a .DS_Store, and a subfolder with one more answer. */
function realClass(): string {
  const dir = tempDir('kct-real-class-');
  for (let i = 1; i <= 10; i++) writeFileSync(join(dir, `pupil-${String(i).padStart(2, '0')}.txt`), `${essay}\n(${dir} ${i})`);
  writeFileSync(join(dir, 'answer.odt'), 'PK odt');
  writeFileSync(join(dir, 'answer.exe'), 'MZ');
  writeFileSync(join(dir, 'blank.txt'), '');
  writeFileSync(join(dir, 'README.md'), '# marking notes');
  writeFileSync(join(dir, '.DS_Store'), 'x');
  mkdirSync(join(dir, 'late'));
  writeFileSync(join(dir, 'late', 'pupil-11.txt'), `${essay}\n(late ${dir})`);
  return dir;
}

const lines = (text: string) => text.trim().split('\n').filter(Boolean);

describe('a class folder with files that cannot be sent', () => {
  it('stops before anything is sent (exit 2), naming each file with a hint per type and the way out', async () => {
    const dir = realClass();
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'csv', '--debug']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('3 answer files cannot be sent');
    expect(run.stderr).toContain(`unsupported file type for ${join(dir, 'answer.odt')}`);
    expect(run.stderr).toContain(`unsupported file type for ${join(dir, 'answer.exe')}`);
    expect(run.stderr).toContain(`${join(dir, 'blank.txt')} is empty`);
    expect(run.stderr).toMatch(/\.odt: Export it to DOCX or PDF/);
    expect(run.stderr).toContain('--skip-unsupported');
    expect(run.stderr).toContain('Nothing was sent.');
    expect(run.stderr).not.toContain('> POST');
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('a named .odt gets the same rule and the export hint', async () => {
    const dir = realClass();
    const run = await shared.kct(['one-pass', join(dir, 'answer.odt'), '--model', '12']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('hint: Export it to DOCX or PDF');
  });

  it('--skip-unsupported marks the rest; the skipped ones are SKIPPED rows in csv, ndjson, json and the table, and in the summary', async () => {
    const dir = realClass();
    const before = await creditsOf(shared.kct);
    const skipped = ['answer.exe', 'answer.odt', 'blank.txt'].map((name) => join(dir, name));

    const csv = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'csv', '--skip-unsupported'], { timeoutMs: 120_000 });
    expect(csv.code).toBe(0);
    const records = parse(csv.stdout, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(14);
    expect(records.filter((r) => r.status === 'SUCCESS')).toHaveLength(10);
    expect(records.filter((r) => r.status === 'NOT_ENTERED')).toHaveLength(1);
    expect(
      records
        .filter((r) => r.status === 'SKIPPED')
        .map((r) => r.file)
        .sort(),
    ).toEqual(skipped);
    // every file is sent or named on stderr with its reason
    expect(csv.stderr).toContain('ignored: 2 files (.DS_Store, README.md)');
    expect(csv.stderr).toContain('not entered: 1 subfolder (late/); pass --recursive');
    expect(csv.stderr).toContain('Summary: 10 of 10 answers marked');
    expect(csv.stderr).toContain('Not sent: 3 rows skipped (cannot be sent)');
    expect(csv.stderr).toMatch(/answer\.odt: SKIPPED — unsupported file type .*Export it to DOCX or PDF/);
    expect(before - (await creditsOf(shared.kct))).toBe(10);

    const ndjson = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson', '--skip-unsupported']);
    expect(ndjson.code).toBe(0);
    const rows = lines(ndjson.stdout).map((line) => parseJson<Row>(line));
    expect(
      rows
        .filter((r) => r.status === 'SKIPPED')
        .map((r) => r.file)
        .sort(),
    ).toEqual(skipped);
    expect(rows.find((r) => r.file.endsWith('answer.odt'))?.message).toContain('unsupported file type');

    const json = await shared.kct(['one-pass', dir, '--model', '12', '--json', '--skip-unsupported']);
    expect(json.code).toBe(0);
    const array = parseJson<Row[]>(json.stdout);
    expect(array).toHaveLength(14);
    expect(array.filter((r) => r.status === 'SKIPPED')).toHaveLength(3);
    // the subfolder not entered is a row too, with the flag that would enter it
    expect(array.filter((r) => r.status === 'NOT_ENTERED').map((r) => [r.file, r.message])).toEqual([
      [`${join(dir, 'late')}/`, 'subfolder not entered: pass --recursive to mark the answers in it (or --exclude "late" to leave it out)'],
    ]);

    const table = await shared.kct(['one-pass', dir, '--model', '12', '--skip-unsupported']);
    expect(table.code).toBe(0);
    expect(table.stdout.match(/│[^\n]*SKIPPED/g)).toHaveLength(3);
    // the end of the run is with the table, whole in a file: the list of rows not sent too
    expect(table.stdout).toMatch(/answer\.odt: SKIPPED — unsupported file type/);
    expect(table.stderr).not.toContain('answer.odt: SKIPPED');
    expect(table.stdout).toContain('Summary: 10 of 10 answers marked');
    expect(table.stdout).toContain(
      'Not sent: 3 rows skipped (cannot be sent), 1 subfolder not entered (pass --recursive), 2 hidden, system or Markdown files ignored',
    );
    // the same answers again: nothing charged twice
    expect(before - (await creditsOf(shared.kct))).toBe(10);
  }, 180_000);

  it('--recursive marks the subfolder too; --exclude leaves paths out and says so', async () => {
    const dir = realClass();
    const run = await shared.kct([
      'one-pass',
      dir,
      '--model',
      '12',
      '--output',
      'ndjson',
      '--recursive',
      '--exclude',
      '*.odt',
      '--exclude',
      'answer.exe',
      '--exclude',
      'blank.txt',
    ]);
    expect(run.code).toBe(0);
    const rows = lines(run.stdout).map((line) => parseJson<Row>(line));
    expect(rows).toHaveLength(11);
    expect(rows.map((r) => r.student_id)).toContain('pupil-11');
    expect(run.stderr).toContain('excluded by --exclude: 3 paths (answer.exe, answer.odt, blank.txt)');
  }, 120_000);
});

describe('a folder per student', () => {
  /** Each student's files in a folder of their own; named as Moodle names them, it is a Moodle download unzipped. */
  function studentFolders(names: [string, string]): string {
    const dir = tempDir('kct-students-');
    const [jane, omar] = names.map((name) => join(dir, name));
    mkdirSync(jane);
    mkdirSync(omar);
    copyFileSync(join(GENERATED, 'essay.pdf'), join(jane, 'essay.pdf'));
    const sentences = essay.split(/(?<=\.)\s+/);
    writeFileSync(join(omar, 'page 1.txt'), `${sentences.slice(0, 8).join(' ')} (${dir})`);
    writeFileSync(join(omar, 'page 2.txt'), sentences.slice(8).join(' '));
    return dir;
  }

  it("--group-by folder: a student's files are the pages of one answer (one task each), the student id the folder's name", async () => {
    const dir = studentFolders(['Jane Doe', 'Omar Ali']);
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--group-by', 'folder', '--student-id-from', 'folder', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const rows = parseJson<Row[]>(run.stdout);
    expect(rows.map((r) => [r.student_id, r.status])).toEqual([
      ['Jane Doe', 'SUCCESS'],
      ['Omar Ali', 'SUCCESS'],
    ]);
    expect(rows[1].file).toBe(join(dir, 'Omar Ali/'));
    // one task a student, each charged once (a two-page answer costs what the service quotes for it)
    expect(new Set(rows.map((r) => r.task_id)).size).toBe(2);
    const charged = rows.reduce((sum, r) => sum + ((r as Row & { credits_charged?: number }).credits_charged ?? 0), 0);
    expect(charged).toBeGreaterThan(0);
    expect(before - (await creditsOf(shared.kct))).toBe(charged);
  }, 120_000);

  it("--student-id-from folder enters the student folders (it implies --recursive): each file is marked under its folder's name, none left NOT_ENTERED", async () => {
    const dir = tempDir('kct-by-folder-');
    for (const student of ['Jane Doe', 'Tom Li']) {
      mkdirSync(join(dir, student));
      writeFileSync(join(dir, student, 'essay.txt'), `${essay} (${student}, ${dir})`);
    }
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--student-id-from', 'folder', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const rows = lines(run.stdout).map((line) => parseJson<Row>(line));
    expect(rows.map((r) => [r.student_id, r.status]).sort()).toEqual([
      ['Jane Doe', 'SUCCESS'],
      ['Tom Li', 'SUCCESS'],
    ]);
    // a tree of schools and classes: only the first level is entered, so nothing is charged under a school's name
    const tree = tempDir('kct-by-folder-tree-');
    mkdirSync(join(tree, 'West', '10C', 'ana'), { recursive: true });
    writeFileSync(join(tree, 'West', '10C', 'ana', 'essay.txt'), `${essay} (ana, ${tree})`);
    const before = await creditsOf(shared.kct);
    const nested = await shared.kct(['one-pass', tree, '--model', '12', '--student-id-from', 'folder', '--output', 'ndjson']);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toContain('pass --recursive');
    expect(await creditsOf(shared.kct)).toBe(before);
  });

  it('named as Moodle names them, the folder is a Moodle download unzipped: marked as its zip is, and folder flags are refused', async () => {
    const dir = studentFolders(['Jane Doe_1234_assignsubmission_file_', 'Omar Ali_1240_assignsubmission_file_']);
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--recursive', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    const rows = lines(run.stdout).map((line) => parseJson<Row & { student_name: string }>(line));
    expect(rows.map((r) => [r.student_id, r.student_name, r.status]).sort()).toEqual([
      ['1234', 'Jane Doe', 'SUCCESS'],
      ['1240', 'Omar Ali', 'SUCCESS'],
    ]);
    expect(run.stderr).toContain(`${dir}: a Moodle download of 2 students: 2 answers to mark`);
    const refused = await shared.kct(['one-pass', dir, '--model', '12', '--student-id-from', 'folder']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--student-id-from folder does not apply to ${dir}, a Moodle download (its names say so)`);
  }, 120_000);
});

describe('duplicates and output shapes', () => {
  it('the same file named twice (and reached through its folder) is marked once, and kct says so', async () => {
    const dir = tempDir('kct-dup-');
    writeFileSync(join(dir, 'ann.txt'), `${essay} (dup ${dir})`);
    const run = await shared.kct(['one-pass', join(dir, 'ann.txt'), dir, join(dir, '.', 'ann.txt'), '--model', '12', '--output', 'ndjson']);
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toHaveLength(1);
    expect(run.stderr).toContain(`is the same file as ${join(dir, 'ann.txt')}: it is marked once`);
  });

  it('--json on a folder is an array even for one answer; one named file is the record', async () => {
    const dir = tempDir('kct-shape-');
    writeFileSync(join(dir, 'solo.txt'), `${essay} (shape ${dir})`);
    const folder = await shared.kct(['one-pass', dir, '--model', '12', '--json']);
    expect(folder.code).toBe(0);
    const array = parseJson<Row[]>(folder.stdout);
    expect(Array.isArray(array)).toBe(true);
    expect(array[0]).toMatchObject({ file: join(dir, 'solo.txt'), student_id: 'solo', status: 'SUCCESS' });
    const single = await shared.kct(['one-pass', join(dir, 'solo.txt'), '--model', '12', '--json']);
    const record = parseJson<{ task_id: string; status: string; evaluation: unknown[] }>(single.stdout);
    expect(Array.isArray(record)).toBe(false);
    expect(record.task_id).toBe(array[0].task_id);
    // several named files are rows too
    writeFileSync(join(dir, 'duo.txt'), `${essay} (duo ${dir})`);
    const two = await shared.kct(['one-pass', join(dir, 'solo.txt'), join(dir, 'duo.txt'), '--model', '12', '--json']);
    expect(parseJson<Row[]>(two.stdout)).toHaveLength(2);
  });

  it('the piped table never cuts the part of a path that names the student', async () => {
    const root = tempDir('kct-long-');
    const dir = join(root, 'Year 9 English - Persuasive writing - Autumn term', 'submissions');
    const students = ['Jane Doe, student 1234, Year 9', 'Omar Ali, student 1240, Year 9'];
    for (const student of students) {
      mkdirSync(join(dir, student), { recursive: true });
      writeFileSync(join(dir, student, 'persuasive essay final version.txt'), `${essay} (${student})`);
    }
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--recursive']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Files in ${dir}/`);
    for (const student of students) expect(run.stdout).toContain(`${student}/persuasive essay final version.txt`);
  });
});
