// A pasted answer (`--text "..."`) was named `--text` in its row, and CSV's formula guard, which
// prefixes ' to a cell that starts with -, printed its file cell as `'--text`. It is named `(text)`
// now, alike in every view (table, json, ndjson, csv, the class report), and what an earlier kct
// saved under `--text` (a journal, a saved run) is read back as the same answer.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { essay } from '../e2e/class-fixture.js';
import { ndjsonRows, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

/** A folder with one answer file beside the pasted one: the run prints rows (a single answer prints its record). */
function withFile(tag: string): { dir: string; file: string; text: string } {
  const dir = tempDir('kct-pasted-');
  const file = join(dir, 'ada.txt');
  writeFileSync(file, `${essay}\n(${tag} file ${dir})`);
  return { dir, file, text: `${essay}\n(${tag} pasted ${dir})` };
}

describe('a pasted answer (--text) is named (text) in every view', () => {
  it('csv (no quote mark: nothing for the formula guard), ndjson, json and the table agree, waiting or not, and kct report says the same', async () => {
    const { dir, file, text } = withFile('views');
    for (const wait of [[], ['--no-wait']]) {
      const args = ['one-pass', file, '--text', text, '--model', '12', ...wait];
      const csv = await shared.kct([...args, '--output', 'csv']);
      expect(csv.code, csv.stderr).toBe(0);
      const rows = parse(csv.stdout, { columns: true }) as { file: string }[];
      expect(rows.map((row) => row.file).sort()).toEqual(['(text)', file].sort());
      expect(csv.stdout).not.toContain('--text');
      const ndjson = await shared.kct([...args, '--output', 'ndjson']);
      expect(ndjsonRows(ndjson.stdout).map((row) => row.file)).toContain('(text)');
      const json = await shared.kct([...args, '--json']);
      expect((JSON.parse(json.stdout) as { file: string }[]).map((row) => row.file)).toContain('(text)');
      const table = await shared.kct(args);
      expect(table.stdout).toMatch(/│ \(text\) +│/);
      expect(`${ndjson.stdout}${json.stdout}${table.stdout}`).not.toContain('--text');
    }
    // the saved run, as ndjson and as csv, reported: the same name
    for (const format of ['ndjson', 'csv']) {
      const saved = join(dir, `marks.${format}`);
      writeFileSync(saved, (await shared.kct(['one-pass', file, '--text', text, '--model', '12', '--output', format])).stdout);
      const report = await shared.kct(['report', saved, '--out', join(dir, `${format}.html`)]);
      expect(report.code, report.stderr).toBe(0);
      const page = readFileSync(join(dir, `${format}.html`), 'utf8');
      expect(page).toContain('(text)');
      expect(page).not.toContain('--text');
    }
  });
});

describe('what an earlier kct saved under --text is the same answer', () => {
  it('kct report of a saved ndjson, csv (guarded) or journal that says --text names it (text)', async () => {
    const { dir, file, text } = withFile('old saved');
    const journal = join(dir, 'class.journal');
    const ndjson = (await shared.kct(['one-pass', file, '--text', text, '--model', '12', '--output', 'ndjson', '--resume', journal]))
      .stdout;
    const csv = (await shared.kct(['one-pass', file, '--text', text, '--model', '12', '--output', 'csv'])).stdout;
    // as the kct before (text) wrote them
    const old = {
      ndjson: ndjson.replaceAll('"file":"(text)"', '"file":"--text"'),
      csv: csv.replace(/^\(text\),/m, "'--text,"),
      journal: readFileSync(journal, 'utf8').replaceAll('"(text)"', '"--text"'),
    };
    expect(old.ndjson).toContain('"--text"');
    expect(old.csv).toContain("'--text");
    expect(old.journal).toContain('"--text"');
    for (const [shape, content] of Object.entries(old)) {
      const saved = join(dir, `old.${shape}`);
      writeFileSync(saved, content);
      const out = join(dir, `old-${shape}.html`);
      const report = await shared.kct(['report', saved, '--out', out]);
      expect(report.code, `${shape}: ${report.stderr}`).toBe(0);
      const page = readFileSync(out, 'utf8');
      expect(page, shape).toContain('(text)');
      expect(page, shape).not.toContain('--text');
    }
  });

  it('--resume of a journal that says --text: a new text is that answer changed, the same text is reused, free, under (text)', async () => {
    const { dir, text } = withFile('old journal');
    const journal = join(dir, 'old.journal');
    const first = await shared.kct(['one-pass', '--text', text, '--model', '12', '--output', 'ndjson', '--resume', journal]);
    expect(first.code, first.stderr).toBe(0);
    // as the kct before (text) wrote it (each run below adds its own lines: the journal is made old again before it)
    const old = () => writeFileSync(journal, readFileSync(journal, 'utf8').replaceAll('"(text)"', '"--text"'));
    old();
    const changed = await shared.kct([
      'one-pass',
      '--text',
      `${text} (edited)`,
      '--model',
      '12',
      '--output',
      'ndjson',
      '--resume',
      journal,
    ]);
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stderr).toContain('(text) changed since the last run');
    expect(changed.stderr).not.toContain('holds the record of other answers');
    old();
    const same = await shared.kct(['one-pass', '--text', text, '--model', '12', '--output', 'ndjson', '--resume', journal]);
    expect(same.code, same.stderr).toBe(0);
    const [row] = ndjsonRows<{ file: string; task_id: string; replayed?: boolean }>(same.stdout);
    expect(row.file).toBe('(text)');
    expect(row.replayed).toBe(true);
    expect(row.task_id).toBe(ndjsonRows(first.stdout)[0].task_id);
  });
});
