// A Moodle download and its worksheet through the built kct, as a teacher runs it: one real process
// reads the zip and marks it against a sandbox, its rows saved as ndjson; another fills the
// worksheet from them (read from a pipe), which Moodle's importer reads; and one student's folder
// taken out of the unzipped download, marked alone as that student. Every case of the round
// trip (Canvas, folders off, the folder unzipped, mismatches, refused zips, the property over
// generated downloads) runs in-process: test/integration/learning-platforms*.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readAsMoodleImports } from '../../src/platforms/moodle-import-rules.js';
import { moodleWorksheet, unzipTo } from '../unit/platforms/fixtures.js';
import { zip } from '../unit/zip-writer.js';
import { creditsOf, FIXTURES, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

it('kct one-pass <download.zip> --output ndjson, then kct grades moodle - <worksheet>: every student marked, a worksheet Moodle imports', async () => {
  const dir = tempDir('kct-moodle-');
  const download = join(dir, 'Essay 1-12345.zip');
  writeFileSync(
    download,
    zip([
      { name: 'Ada Lovelace_101_assignsubmission_file_/essay.txt', content: Buffer.from(`${essay}\n(e2e ada ${dir})`) },
      { name: 'Bo Chen_102_assignsubmission_file_/essay.txt', content: Buffer.from(`${essay}\n(e2e bo ${dir})`) },
    ]),
  );
  const worksheet = join(dir, 'Grades-Essay 1-12345.csv');
  writeFileSync(
    worksheet,
    moodleWorksheet([
      { id: 101, name: 'Ada Lovelace' },
      { id: 102, name: 'Bo Chen' },
    ]).bytes,
  );

  const run = await shared.kct(['one-pass', download, '--model', '12', '--output', 'ndjson']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim().split('\n')).toHaveLength(2); // one row a student
  const grades = await shared.kct(['grades', 'moodle', '-', worksheet], { input: run.stdout });
  expect(grades.code, grades.stderr).toBe(0);
  expect(grades.stdout).toContain('2 filled, 0 refused, 0 with no row in the file, 0 rows not marked');
  const filled = join(dir, 'Grades-Essay 1-12345.kct.csv');
  expect(grades.stderr).toContain(`wrote ${filled}: 2 grades filled; import it in Moodle`);
  const imports = readAsMoodleImports(readFileSync(filled), { maxGrade: 100 }).imports;
  expect([...imports.keys()].sort()).toEqual(['101', '102']);
  for (const entry of imports.values()) expect(entry.grade).toBeGreaterThan(0);
});

it("kct one-pass <a Moodle student's own folder>: that student's one answer (id, name, charged once), as the whole download reads it", async () => {
  const dir = tempDir('kct-moodle-student-');
  const download = unzipTo(join(dir, 'dl'), [
    { name: 'Ada Lovelace_101_assignsubmission_file_/essay.txt', content: Buffer.from(`${essay}\n(e2e lone ada ${dir})`) },
    { name: 'Bo Chen_102_assignsubmission_file_/draft.txt', content: Buffer.from(`${essay}\n(e2e lone bo draft ${dir})`) },
    { name: 'Bo Chen_102_assignsubmission_file_/final essay.txt', content: Buffer.from(`${essay}\n(e2e lone bo final ${dir})`) },
    { name: 'Ivy Lee_109_assignsubmission_file_/essay.txt', content: Buffer.from(`${essay}\n(e2e lone ivy ${dir})`) },
  ]);
  type Row = {
    file: string;
    student_id: string;
    student_name?: string;
    status: string;
    task_id: string;
    replayed?: boolean;
    earlier_student_id?: string;
  };
  const rows = (stdout: string) =>
    stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<Row>(line));

  // one file: one answer under the platform's id, 1 credit (a credit a file on the sandbox)
  const before = await creditsOf(shared.kct);
  const ivy = await shared.kct(['one-pass', join(download, 'Ivy Lee_109_assignsubmission_file_'), '--model', '12', '--output', 'ndjson']);
  expect(ivy.code, ivy.stderr).toBe(0);
  expect(rows(ivy.stdout)).toEqual([
    expect.objectContaining({ file: join(download, 'Ivy Lee (109)'), student_id: '109', student_name: 'Ivy Lee', status: 'SUCCESS' }),
  ]);
  expect(await creditsOf(shared.kct)).toBe(before - 1);

  // two files: the pages of one answer, never a draft charged on its own
  const bo = await shared.kct([
    'one-pass',
    `${join(download, 'Bo Chen_102_assignsubmission_file_')}/`,
    '--model',
    '12',
    '--output',
    'ndjson',
  ]);
  expect(bo.code, bo.stderr).toBe(0);
  expect(rows(bo.stdout).map((row) => [row.student_id, row.student_name, row.status])).toEqual([['102', 'Bo Chen', 'SUCCESS']]);
  expect(bo.stderr).toContain(
    "a Moodle student's submission folder (its name says so), read as that student's submission: 1 answer to mark",
  );
  expect(await creditsOf(shared.kct)).toBe(before - 3);

  // the whole download: those two are the same answers, not charged again, and no other student's
  const all = await shared.kct(['one-pass', download, '--model', '12', '--output', 'ndjson']);
  expect(all.code, all.stderr).toBe(0);
  const byId = new Map(rows(all.stdout).map((row) => [row.student_id, row]));
  expect([...byId.keys()].sort()).toEqual(['101', '102', '109']);
  for (const [id, alone] of [
    ['109', rows(ivy.stdout)[0]],
    ['102', rows(bo.stdout)[0]],
  ] as const) {
    expect(byId.get(id)).toMatchObject({ task_id: alone.task_id, replayed: true, file: alone.file });
    expect(byId.get(id)?.earlier_student_id).toBeUndefined();
  }
  expect(await creditsOf(shared.kct)).toBe(before - 4);
});
