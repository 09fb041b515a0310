// One student's folder taken out of an unzipped Moodle download and named alone
// (`kct one-pass "dl/Bo Chen_102_assignsubmission_file_"`) is read as that student's submission,
// as the whole download reads it: a property over generated downloads (folders on), through kct
// (main() in-process) against a real sandbox. Whichever of a student's folders is named (files, or
// online text), the run has one row, the whole download's row of that student (file, student id,
// name, status, score, task), and charges nothing more: the answer's identity is the same.
//
// Few runs by default (each is two kct runs); KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in
// test/unit/property-runs.ts. Answers come from a small pool, so most of them replay for free.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { unzipTo } from '../unit/platforms/fixtures.js';
import { generatedDownload, partsOf } from '../unit/platforms/generated-downloads.js';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { creditsOf, FIXTURES, ndjsonRows, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const CONTENTS = {
  answer: (pick: number) => Buffer.from(`${essay}\n(student folder ${pick})`),
  onlineText: (pick: number) =>
    Buffer.from(`<html><body><p>${essay.split('\n\n').join('</p><p>')}</p><p>(online ${pick})</p></body></html>`),
};

interface Row {
  file: string;
  student_id: string;
  student_name?: string;
  status: string;
  score?: number | null;
  task_id: string | null;
  message?: string;
  replayed?: boolean;
  duplicate_of?: string;
  earlier_student_id?: string;
}

const moodleFolders = generatedDownload.filter((d) => d.platform === 'moodle' && d.folders);

it("a Moodle student's own folder named alone is that student's row of the whole download, charged nothing more (property)", async () => {
  await fc.assert(
    fc.asyncProperty(moodleFolders, fc.nat(), fc.nat(), async (d, studentPick, folderPick) => {
      const dir = tempDir('kct-student-folder-');
      const parts = partsOf(d, CONTENTS);
      const folder = unzipTo(join(dir, 'submissions'), parts);
      const mark = ['--model', '12', '--skip-unsupported', '--output', 'ndjson'];
      const whole = await shared.kct(['one-pass', folder, ...mark]);
      expect(whole.code, whole.stderr).toBe(0);
      const credits = await creditsOf(shared.kct);

      const student = d.students[studentPick % d.students.length];
      const prefix = `${student.name}_${student.id}_assignsubmission_`;
      const folders = [...new Set(parts.filter((p) => p.name.startsWith(prefix)).map((p) => p.name.split('/')[0]))].sort();
      const named = folders[folderPick % folders.length];
      const expected = ndjsonRows<Row>(whole.stdout).find((row) => row.student_id === String(student.id))!;

      const alone = await shared.kct(['one-pass', join(folder, named), ...mark]);
      // a student with nothing to mark is still their one row (EMPTY, SKIPPED), printed with the refusal
      expect(alone.code, alone.stderr).toBe(expected.status === 'SUCCESS' ? 0 : 2);
      const rows = ndjsonRows<Row>(alone.stdout);
      expect(rows, alone.stderr).toHaveLength(1);
      const view = (row: Row) => [row.file, row.student_id, row.student_name, row.status, row.score, row.task_id, row.message];
      expect(view(rows[0])).toEqual(view(expected));
      if (expected.status === 'SUCCESS') expect(rows[0].replayed).toBe(true);
      // marked before under the student's own id: no "if that is another student" (unless another student's answer is the same)
      if (expected.duplicate_of === undefined && expected.earlier_student_id === undefined)
        expect(rows[0].earlier_student_id).toBeUndefined();
      expect(await creditsOf(shared.kct)).toBe(credits);
    }),
    { numRuns: propertyRuns(6), seed: propertySeed(6106), endOnFailure: true },
  );
}, 300_000);

it("--group-by student reads a student's own folder the same way; two students' folders named together are refused, nothing sent", async () => {
  const dir = tempDir('kct-student-folder-');
  const folder = unzipTo(join(dir, 'dl'), [
    { name: 'Bo Chen_102_assignsubmission_file_/draft.txt', content: Buffer.from(`${essay}\n(group-by bo draft ${dir})`) },
    { name: 'Bo Chen_102_assignsubmission_file_/final essay.txt', content: Buffer.from(`${essay}\n(group-by bo final ${dir})`) },
    { name: 'Ivy Lee_109_assignsubmission_file_/essay.txt', content: Buffer.from(`${essay}\n(group-by ivy ${dir})`) },
  ]);
  const bo = join(folder, 'Bo Chen_102_assignsubmission_file_');
  const asked = await shared.kct(['one-pass', bo, '--group-by', 'student', '--model', '12', '--output', 'ndjson']);
  expect(asked.code, asked.stderr).toBe(0);
  expect(ndjsonRows<Row>(asked.stdout).map((row) => [row.file, row.student_id, row.student_name])).toEqual([
    [join(folder, 'Bo Chen (102)'), '102', 'Bo Chen'],
  ]);
  const credits = await creditsOf(shared.kct);
  const both = await shared.kct(['one-pass', bo, join(folder, 'Ivy Lee_109_assignsubmission_file_'), '--model', '12']);
  expect(both.code).toBe(2);
  expect(both.stderr).toContain(`${bo} is a Moodle student's submission folder (its name says so), marked as a whole: name it alone`);
  expect(both.stderr).toContain(
    "hint: Mark each student's folder, and any other answers, in a run of its own, or name the download that holds them.",
  );
  expect(await creditsOf(shared.kct)).toBe(credits);
});

it('a student with files and online text: either folder named alone is read with the other beside it, as the download reads them (one answer)', async () => {
  const dir = tempDir('kct-student-folder-');
  const folder = unzipTo(join(dir, 'dl'), [
    { name: 'Ada Lovelace_101_assignsubmission_file_/essay.txt', content: Buffer.from(`${essay}\n(two folders ada ${dir})`) },
    { name: 'Bo Chen_102_assignsubmission_file_/essay.txt', content: Buffer.from(`${essay}\n(two folders bo ${dir})`) },
    { name: 'Bo Chen_102_assignsubmission_onlinetext_/onlinetext.html', content: Buffer.from(`<p>(two folders bo text ${dir})</p>`) },
  ]);
  const whole = await shared.kct(['one-pass', folder, '--model', '12', '--output', 'ndjson']);
  expect(whole.code, whole.stderr).toBe(0);
  const bo = ndjsonRows<Row>(whole.stdout).find((row) => row.student_id === '102')!;
  const credits = await creditsOf(shared.kct);
  for (const [named, other] of [
    ['Bo Chen_102_assignsubmission_file_', 'Bo Chen_102_assignsubmission_onlinetext_'],
    ['Bo Chen_102_assignsubmission_onlinetext_', 'Bo Chen_102_assignsubmission_file_'],
  ]) {
    const alone = await shared.kct(['one-pass', join(folder, named), '--model', '12', '--output', 'ndjson']);
    expect(alone.code, alone.stderr).toBe(0);
    expect(ndjsonRows<Row>(alone.stdout).map((row) => [row.file, row.student_id, row.task_id, row.replayed])).toEqual([
      [bo.file, '102', bo.task_id, true],
    ]);
    expect(alone.stderr).toContain(`with the student's other folder beside it (${join(folder, other)}/), as the download reads it`);
  }
  expect(await creditsOf(shared.kct)).toBe(credits);
});
