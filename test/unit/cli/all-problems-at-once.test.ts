// Every problem that stops a run is said at once, so one run of fixes is enough: a student folder
// of more than 10 files was refused on its own, and the .odt and the mislabelled file of other
// students only on the next run; the last folder's count was not checked before the refusal at all.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKct } from './run-kct.js';

const env = { KCT_BASE_URL: 'http://127.0.0.1:9/v1', KCT_API_KEY: 'kct_test_all_at_once_0000' };

function classOf(students: Record<string, Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), 'kct-at-once-'));
  for (const [student, files] of Object.entries(students)) {
    mkdirSync(join(root, student));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, student, name), text);
  }
  return root;
}

const pages = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i + 1}.txt`, `Page ${i + 1} about uniforms.`]));

describe('problems that stop a run', () => {
  it('are said together: too many files in one answer, a type the service does not take, a file that holds something else', async () => {
    for (const [first, last] of [
      ['alice', 'zed'],
      ['zed', 'alice'],
    ]) {
      const dir = classOf({
        [first]: pages(11),
        bob: { 'essay.odt': 'an OpenDocument essay' },
        carol: { 'essay.docx': 'plain text' },
        [last]: { 'e.txt': 'An essay.' },
      });
      const run = await runKct(['one-pass', dir, '--group-by', 'folder', '--model', '12'], { env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('3 answers and files cannot be sent');
      expect(run.stderr).toMatch(/11 files in one answer \(.*(alice|zed)\/\); the limit is 10 files per answer/);
      expect(run.stderr).toContain('essay.odt');
      expect(run.stderr).toContain('essay.docx is named as a Word (.docx) document but holds plain text');
    }
  });
});
