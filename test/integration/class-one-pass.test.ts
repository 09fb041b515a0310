// A whole class at once, in-process: folders, pipelines, partial failure, and --resume. A run
// killed halfway (SIGKILL) and run again is test/e2e/killed-run.test.ts.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { essay, makeClass, type Row } from '../e2e/class-fixture.js';
import { creditsOf, parseJson, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

const credits = (run = shared.kct) => creditsOf(run);

describe('a class folder through one-pass', () => {
  it('ndjson: one line per answer, 30 answers, --jobs 16; stdout holds only results, stderr no runtime warning', async () => {
    const dir = makeClass();
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--jobs', '16', '--output', 'ndjson'], { timeoutMs: 120_000 });
    expect(run.stderr).not.toContain('error:');
    expect(run.stderr).not.toMatch(/Warning|\(node:\d+\)/);
    expect(run.code).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<Row>(line));
    expect(rows).toHaveLength(30);
    // the five copies of one PDF (and of one DOCX) are one mark each: one task, every copy flagged duplicate_of
    const byTask = new Map<string | null, Row[]>();
    for (const row of rows) byTask.set(row.task_id, [...(byTask.get(row.task_id) ?? []), row]);
    expect(byTask.get(rows.find((row) => row.file.endsWith('student-21.pdf'))!.task_id)).toHaveLength(5);
    for (const group of byTask.values()) if (group.length > 1) expect(group.every((row) => row.duplicate_of)).toBe(true);
    expect(run.stderr).toMatch(/answers are identical to another of this run/);
    expect(rows.every((row) => row.status === 'SUCCESS' && typeof row.score === 'number')).toBe(true);
    expect(rows.map((row) => row.student_id).sort()).toContain('student-25');
    // the summary goes to stderr with a machine format
    expect(run.stderr).toContain('Summary: 30 of 30 answers marked');
    expect(run.stderr).toMatch(/Totals: mean [\d.]+ \/ 20/);
  }, 180_000);

  it('csv: header once with one column per criterion, rows quoted by the CSV library', async () => {
    const dir = makeClass();
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--jobs', '8', '--output', 'csv'], { timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    const records = parse(run.stdout, { columns: true }) as Record<string, string>[];
    expect(records).toHaveLength(30);
    const header = run.stdout.split('\n')[0];
    expect(header).toBe(
      'file,student_id,task_id,status,score,Thesis & position,Evidence & reasoning,Organisation,Language & conventions,max_score,message,duplicate_of',
    );
    expect(run.stdout.match(/^file,/gm)).toHaveLength(1);
    for (const record of records) {
      const parts = ['Thesis & position', 'Evidence & reasoning', 'Organisation', 'Language & conventions'].map((c) => Number(record[c]));
      expect(parts.reduce((a, b) => a + b, 0)).toBeCloseTo(Number(record.score), 5);
    }
  }, 180_000);

  it('json: one array at the end; table: a summary table with histogram and criteria', async () => {
    const dir = makeClass();
    const json = await shared.kct(['one-pass', dir, '--model', '12', '--jobs', '8', '--json'], { timeoutMs: 120_000 });
    expect(json.code).toBe(0);
    const rows = parseJson<Row[]>(json.stdout);
    expect(rows).toHaveLength(30);
    expect(rows[0].file.endsWith('student-01.txt')).toBe(true); // sorted like the folder
    const table = await shared.kct(['one-pass', dir, '--model', '12', '--jobs', '8'], { timeoutMs: 120_000 });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('Student');
    expect(table.stdout).toContain('Summary: 30 of 30 answers marked');
    expect(table.stdout).toMatch(/Criteria \(mean \/ max\):/);
    expect(table.stdout).toContain('<- weakest');
    expect(table.stdout).toMatch(/\| #+ \d+/);
  }, 240_000);

  it('--files-from - reads paths from stdin', async () => {
    const dir = makeClass();
    const list = ['student-01.txt', 'student-22.pdf', 'student-27.docx'].map((name) => join(dir, name)).join('\n');
    const run = await shared.kct(['one-pass', '--files-from', '-', '--model', '12', '--output', 'ndjson'], { input: `${list}\n` });
    expect(run.code).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => parseJson<Row>(line));
    expect(rows.map((row) => row.student_id).sort()).toEqual(['student-01', 'student-22', 'student-27']);
  }, 120_000);

  it('one failing answer: every answer reported, exit 3, the summary says which', async () => {
    const dir = tempDir('kct-partial-');
    writeFileSync(join(dir, 'ann.txt'), essay);
    writeFileSync(join(dir, 'ben.txt'), `${essay}\nKCT-SANDBOX-FAIL`);
    writeFileSync(join(dir, 'cat.txt'), essay.slice(0, 800));
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'csv']);
    expect(run.code).toBe(3);
    const records = parse(run.stdout, { columns: true }) as Record<string, string>[];
    // rows come as answers finish, so compare by file
    expect(Object.fromEntries(records.map((r) => [r.student_id, r.status]))).toEqual({ ann: 'SUCCESS', ben: 'FAILURE', cat: 'SUCCESS' });
    expect(run.stderr).toContain('Summary: 2 of 3 answers marked, 1 failed');
    expect(run.stderr).toMatch(/ben\.txt: FAILURE/);
  });

  it('--pages sends several files as the pages of one answer (one task); more than 10 is refused locally', async () => {
    const dir = tempDir('kct-pages-');
    const sentences = essay.split(/(?<=\.)\s+/);
    const pages = [0, 1, 2].map((n) => {
      const path = join(dir, `page-${n + 1}.txt`);
      writeFileSync(path, sentences.slice(n * 4, n * 4 + 4).join(' '));
      return path;
    });
    const run = await shared.kct(['one-pass', ...pages, '--pages', '--model', '12', '--json']);
    expect(run.code).toBe(0);
    const result = parseJson<{ task_id: string; status: string; student_id: string }>(run.stdout);
    expect(result.status).toBe('SUCCESS');
    expect(result.student_id).toBe('page-1');
    const many = Array.from({ length: 11 }, (_, n) => {
      const path = join(dir, `p${n}.txt`);
      writeFileSync(path, `page ${n}`);
      return path;
    });
    const refused = await shared.kct(['one-pass', ...many, '--pages', '--model', '12']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('11 files in one answer');
    expect(refused.stderr).toContain('the limit is 10 files per answer');
  });

  it('bad local input stops the run before anything is sent', async () => {
    const dir = tempDir('kct-bad-');
    writeFileSync(join(dir, 'ok.txt'), essay);
    writeFileSync(join(dir, 'empty.txt'), '');
    const before = await credits();
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--debug']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('empty.txt is empty');
    expect(run.stderr).not.toContain('> POST');
    expect(await credits()).toBe(before);
  });
});

describe('safe to run again', () => {
  it('--resume skips finished answers and uploads nothing again; a changed file is a new submission', async () => {
    const dir = tempDir('kct-resume-');
    for (const name of ['a', 'b', 'c']) writeFileSync(join(dir, `${name}.txt`), `${essay}\n${name}`);
    const journal = join(tempDir(), 'marks.journal');
    const first = await shared.kct(['one-pass', dir, '--model', '12', '--resume', journal, '--output', 'ndjson']);
    expect(first.code).toBe(0);
    expect(existsSync(journal)).toBe(true);
    const again = await shared.kct(['one-pass', dir, '--model', '12', '--resume', journal, '--output', 'ndjson', '--debug']);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toMatch(/> POST .*one-pass/);
    expect(again.stdout.trim().split('\n')).toHaveLength(3);
    writeFileSync(join(dir, 'b.txt'), `${essay}\nb, revised`);
    const changed = await shared.kct(['one-pass', dir, '--model', '12', '--resume', journal, '--output', 'ndjson', '--debug']);
    expect(changed.code).toBe(0);
    expect(changed.stderr).toContain('b.txt changed since the last run: submitting it as a new answer');
    expect(changed.stderr.match(/> POST .*one-pass/g)).toHaveLength(1);
    const ids = (text: string) =>
      Object.fromEntries(
        text
          .trim()
          .split('\n')
          .map((l) => parseJson<Row>(l))
          .map((r) => [r.file, r.task_id]),
      );
    const before = ids(first.stdout);
    const after = ids(changed.stdout);
    expect(after[join(dir, 'a.txt')]).toBe(before[join(dir, 'a.txt')]);
    expect(after[join(dir, 'b.txt')]).not.toBe(before[join(dir, 'b.txt')]);
  }, 120_000);
});
