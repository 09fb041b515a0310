// A Moodle download and its worksheet through the built kct, as a teacher runs it: one real process
// reads the zip and marks it against a sandbox, its rows saved as ndjson; another fills the
// worksheet from them (read from a pipe), which Moodle's importer reads. Every case of the round
// trip (Canvas, folders off, the folder unzipped, mismatches, refused zips, the property over
// generated downloads) runs in-process: test/integration/learning-platforms*.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readAsMoodleImports } from '../../src/platforms/moodle-import-rules.js';
import { moodleWorksheet } from '../unit/platforms/fixtures.js';
import { zip } from '../unit/zip-writer.js';
import { FIXTURES, tempDir, useSandbox } from './harness.js';

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
