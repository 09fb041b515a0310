// A Moodle download and its worksheet through the built kct, as a teacher runs it: one real process
// reads the zip, marks it against a sandbox and writes the filled worksheet Moodle's importer
// reads. Every case of the round trip (Canvas, folders off, mismatches, refused zips, the
// property over generated downloads) runs in-process: test/integration/learning-platforms*.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { readAsMoodleImports } from '../../src/platforms/moodle-import-rules.js';
import { moodleWorksheet } from '../unit/platforms/fixtures.js';
import { zip } from '../unit/zip-writer.js';
import { FIXTURES, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();
const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

it('kct one-pass <download.zip> --moodle-worksheet marks every student and writes a worksheet Moodle imports', async () => {
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

  const run = await shared.kct(['one-pass', download, '--model', '12', '--moodle-worksheet', worksheet, '--output', 'csv']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim().split('\n')).toHaveLength(3); // the header and one row a student
  const filled = join(dir, 'Grades-Essay 1-12345.kct.csv');
  expect(run.stderr).toContain(`wrote ${filled}: 2 grades filled; import it in Moodle`);
  const imports = readAsMoodleImports(readFileSync(filled), { maxGrade: 100 }).imports;
  expect([...imports.keys()].sort()).toEqual(['101', '102']);
  for (const entry of imports.values()) expect(entry.grade).toBeGreaterThan(0);
});
