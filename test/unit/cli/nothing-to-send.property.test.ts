// Every input accounted for, also when nothing can be sent: a folder whose every file is skipped
// (empty, a data file, a type the service does not take) or whose only content is subfolders not
// entered still prints a row for each, in every format, before its refusal (exit 2). A district's
// `for c in classes/*; do kct one-pass "$c" --skip-unsupported --output csv >> all.csv; done` lost
// those students. Generated folders, in-process; nothing is sent (no server is given).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../property-runs.js';
import { runKct } from './run-kct.js';

/** What a folder may hold that cannot be sent, and the row it gets. */
const KINDS = {
  empty: { file: (dir: string, name: string) => writeFileSync(join(dir, `${name}.txt`), ''), row: (name: string) => `${name}.txt` },
  data: { file: (dir: string, name: string) => writeFileSync(join(dir, `${name}.csv`), 'a,b\n'), row: (name: string) => `${name}.csv` },
  odt: { file: (dir: string, name: string) => writeFileSync(join(dir, `${name}.odt`), 'PK'), row: (name: string) => `${name}.odt` },
  subfolder: {
    file: (dir: string, name: string) => {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'essay.txt'), 'An essay about school uniforms.');
    },
    row: (name: string) => `${name}/`,
  },
} as const;

const rowsOf = (format: string, stdout: string): string[] => {
  if (format === 'csv') return (parse(stdout, { columns: true }) as { file: string }[]).map((row) => row.file);
  if (format === 'json') return (JSON.parse(stdout) as { file: string }[]).map((row) => row.file);
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { file: string }).file);
};

describe('a folder with nothing to send', () => {
  it(`prints a row for everything found, in every format, then refuses (exit 2; seed ${propertySeed(5361)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.constantFrom(...(Object.keys(KINDS) as (keyof typeof KINDS)[]))), {
          minLength: 1,
          maxLength: 6,
          selector: ([name]) => name,
        }),
        fc.constantFrom('csv', 'ndjson', 'json'),
        async (entries, format) => {
          const dir = mkdtempSync(join(tmpdir(), 'kct-nothing-'));
          for (const [name, kind] of entries) KINDS[kind].file(dir, name);
          const run = await runKct(['one-pass', dir, '--model', '12', '--skip-unsupported', '--output', format], {
            env: { KCT_BASE_URL: 'http://127.0.0.1:9/v1', KCT_API_KEY: 'kct_test_nothing_sent_0000' },
          });
          expect(run.code, run.stderr).toBe(2);
          const expected = entries.map(([name, kind]) => join(dir, KINDS[kind].row(name))).sort();
          expect(rowsOf(format, run.stdout).sort(), run.stderr).toEqual(expected);
        },
      ),
      { numRuns: propertyRuns(40), seed: propertySeed(5361) },
    );
  });

  it("so does a download none of whose students handed anything in, and kct batch's folder", async () => {
    const env = { KCT_BASE_URL: 'http://127.0.0.1:9/v1', KCT_API_KEY: 'kct_test_nothing_sent_0000' };
    const download = mkdtempSync(join(tmpdir(), 'kct-nothing-dl-'));
    for (const folder of ['Ada Lovelace_101_assignsubmission_file_', 'Bo Chen_102_assignsubmission_file_'])
      mkdirSync(join(download, folder));
    const marked = await runKct(['one-pass', download, '--model', '12', '--output', 'ndjson'], { env });
    expect(marked.code, marked.stderr).toBe(2);
    expect(rowsOf('ndjson', marked.stdout)).toHaveLength(2);
    expect(marked.stdout).toContain('"status":"EMPTY"');
    const folder = mkdtempSync(join(tmpdir(), 'kct-nothing-batch-'));
    KINDS.subfolder.file(folder, 'late');
    const batch = await runKct(['batch', folder, '--model', '12', '--output', 'csv'], { env });
    expect(batch.code, batch.stderr).toBe(2);
    // named as a batch names its items: relative to the folder
    expect(rowsOf('csv', batch.stdout)).toEqual(['late/']);
  });
});
