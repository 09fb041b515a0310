// `kct report` writes its file with --out; -o/--output name a format everywhere else in kct, so
// `-o FILE` still works with a note, and `--output json` is refused rather than written as "json".
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runKct } from '../cli/run-kct.js';

const dir = mkdtempSync(join(tmpdir(), 'kct-report-out-'));
const run = join(dir, 'run.ndjson');
writeFileSync(
  run,
  `${JSON.stringify({ file: 'a.txt', student_id: 'a', task_id: 'tsk_1', status: 'SUCCESS', score: 12, max_score: 20, evaluation: [] })}\n`,
);

describe('kct report writes its file with --out', () => {
  it('--out FILE writes the page, with no note', async () => {
    const out = join(dir, 'class.html');
    const result = await runKct(['report', run, '--out', out]);
    expect(result.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^<!doctype html>/);
    expect(result.stderr).not.toContain('deprecated');
    expect(result.stderr).toContain('wrote the class report');
  });

  it('-o FILE still works, and says it is now --out', async () => {
    const out = join(dir, 'old.html');
    const result = await runKct(['report', run, '-o', out]);
    expect(result.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(result.stderr).toContain('note: -o/--output FILE is now --out FILE');
  });

  it('--output json is a format, not a file: refused, nothing written', async () => {
    const result = await runKct(['report', run, '--output', 'json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('this command writes a file: give it with --out');
    expect(existsSync(join(process.cwd(), 'json'))).toBe(false);
  });

  it('--json without --out is refused (stdout holds the page, not JSON); with --out it prints the record', async () => {
    const refused = await runKct(['report', run, '--json']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('--json prints the record of the report file written');
    const out = join(dir, 'json.html');
    const written = await runKct(['report', run, '--json', '--out', out]);
    expect(written.code).toBe(0);
    expect(JSON.parse(written.stdout)).toMatchObject({ answers: 1, marked: 1 });
  });

  it('--help lists --out and not the old flag', async () => {
    const result = await runKct(['report', '--help']);
    expect(result.stdout).toContain('--out <file>');
    expect(result.stdout).not.toContain('--output <file>');
  });
});
