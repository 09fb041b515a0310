// A run refused before anything is sent (no API key: exit 4; no base URL: exit 2) still prints a
// NOT_SENT row for every answer it found, as a key the service refuses (401) does: a CI job's file
// accounts for every student either way (walk-h4, defect 5). Generated folders, in-process, against
// a real sandbox for the refused key.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns, propertySeed } from '../unit/property-runs.js';
import { kctEnv, runKct, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

/** What a folder may hold: an answer, an empty file (EMPTY under --skip-unsupported) or a subfolder not entered. */
const KINDS = {
  answer: (dir: string, name: string) => writeFileSync(join(dir, `${name}.txt`), `An essay by ${name} about school uniforms.`),
  empty: (dir: string, name: string) => writeFileSync(join(dir, `${name}.txt`), ''),
  subfolder: (dir: string, name: string) => {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'essay.txt'), 'An essay about school uniforms.');
  },
} as const;

type Row = { file: string; student_id: string | null; status: string; message?: string | null };

const rowsOf = (format: string, stdout: string): Row[] => {
  if (format === 'csv') return (parse(stdout, { columns: true }) as Row[]).map((row) => ({ ...row, student_id: row.student_id || null }));
  if (format === 'json') return JSON.parse(stdout) as Row[];
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Row);
};
const byFile = (rows: Row[]) =>
  rows.map(({ file, student_id, status }) => ({ file, student_id, status })).sort((a, b) => a.file.localeCompare(b.file));

/** kct with no key, no base URL, or a key the sandbox refuses. */
const WAYS = {
  'no key': () => ({ KCT_BASE_URL: shared.sandbox.baseUrl }),
  'no base URL': () => ({ KCT_API_KEY: shared.sandbox.keys.user }),
  'a refused key': () => ({ KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: 'kct_sbx_0000000000000000000000000000dead' }),
};
const run = (way: keyof typeof WAYS, args: string[]) => runKct(args, { env: kctEnv(tempDir(), WAYS[way]()) });

describe('refused before anything is sent', () => {
  it(`no key or no base URL: a NOT_SENT row for every answer, the rows a refused key gives (seed ${propertySeed(7405)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z]{1,6}$/), fc.constantFrom(...(Object.keys(KINDS) as (keyof typeof KINDS)[]))), {
          minLength: 1,
          maxLength: 5,
          selector: ([name]) => name,
        }),
        fc.constantFrom('csv', 'ndjson', 'json'),
        async (entries, format) => {
          fc.pre(entries.some(([, kind]) => kind === 'answer'));
          const dir = mkdtempSync(join(tmpdir(), 'kct-refused-'));
          for (const [name, kind] of entries) KINDS[kind](dir, name);
          const args = ['one-pass', dir, '--model', '12', '--skip-unsupported', '--output', format];
          const [noKey, noUrl, refused] = await Promise.all([run('no key', args), run('no base URL', args), run('a refused key', args)]);
          expect([noKey.code, noUrl.code, refused.code], noKey.stderr + noUrl.stderr + refused.stderr).toEqual([4, 2, 4]);
          const expected = byFile(rowsOf(format, refused.stdout));
          expect(expected).toHaveLength(entries.length);
          expect(byFile(rowsOf(format, noKey.stdout))).toEqual(expected);
          expect(byFile(rowsOf(format, noUrl.stdout))).toEqual(expected);
          // each answer's row says why
          for (const row of rowsOf(format, noKey.stdout).filter((r) => r.status === 'NOT_SENT'))
            expect(row.message).toBe('not sent: no API key');
          for (const row of rowsOf(format, noUrl.stdout).filter((r) => r.status === 'NOT_SENT'))
            expect(row.message).toBe('not sent: no API base URL is set');
        },
      ),
      { numRuns: propertyRuns(15), seed: propertySeed(7405) },
    );
  });

  it("kct batch of a folder: each item a NOT_SENT row, the subfolder not entered its own, as a refused key's batch gives", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kct-refused-batch-'));
    KINDS.answer(dir, 'ada');
    KINDS.answer(dir, 'bo');
    KINDS.subfolder(dir, 'late');
    const args = ['batch', dir, '--model', '12', '--output', 'ndjson'];
    const [noKey, noUrl, refused] = await Promise.all([run('no key', args), run('no base URL', args), run('a refused key', args)]);
    expect([noKey.code, noUrl.code, refused.code], noKey.stderr + noUrl.stderr + refused.stderr).toEqual([4, 2, 4]);
    const expected = byFile(rowsOf('ndjson', refused.stdout));
    expect(expected.map((row) => [row.file, row.status])).toEqual([
      ['ada.txt', 'NOT_SENT'],
      ['bo.txt', 'NOT_SENT'],
      ['late/', 'NOT_ENTERED'],
    ]);
    expect(byFile(rowsOf('ndjson', noKey.stdout))).toEqual(expected);
    expect(byFile(rowsOf('ndjson', noUrl.stdout))).toEqual(expected);
  });

  it('one answer: --json prints its NOT_SENT record, as for a refused key; the table prints none, the error says why', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kct-refused-one-'));
    KINDS.answer(dir, 'essay');
    const file = join(dir, 'essay.txt');
    const [noKey, refused] = await Promise.all([
      run('no key', ['one-pass', file, '--model', '12', '--json']),
      run('a refused key', ['one-pass', file, '--model', '12', '--json']),
    ]);
    expect(noKey.code, noKey.stderr).toBe(4);
    const record = JSON.parse(noKey.stdout);
    expect(record).toMatchObject({ file, student_id: 'essay', task_id: null, status: 'NOT_SENT', message: 'not sent: no API key' });
    expect(Object.keys(record)).toEqual(Object.keys(JSON.parse(refused.stdout)));
    expect(JSON.parse(noKey.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ code: 'credentials', exit_code: 4 });
    const table = await run('no key', ['one-pass', file, '--model', '12']);
    expect([table.code, table.stdout]).toEqual([4, '']);
    expect(table.stderr).toContain('error: no API key');
  });
});
