// What a new user found from a fresh clone (the "problems a new user found" list): every row of a
// run reaches the report, a quoted glob follows a folder's rules, a dangling link is a row, Ctrl-C
// counts what was accepted, and CSV keeps the reason of rows not marked.
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { FIXTURES, tempDir, useSandbox } from './harness.js';

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const shared = useSandbox();

function classFolder(pupils: number): string {
  const dir = tempDir('kct-new-user-');
  for (let i = 1; i <= pupils; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(${dir} ${i})`);
  return dir;
}

describe('--report holds every row of the run', () => {
  it('lists files skipped with --skip-unsupported as not marked, as `kct report` of the same run does', async () => {
    const dir = classFolder(3);
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'huge.txt'), '');
    truncateSync(join(dir, 'huge.txt'), 21 * 1024 * 1024);
    writeFileSync(join(dir, 'pupil-5.odt'), 'PK odt');
    const out = tempDir('kct-new-user-out-');
    const report = join(out, 'class.html');
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--skip-unsupported', '--output', 'ndjson', '--report', report], { timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('6 answers, 3 marked, 3 not marked');
    const html = readFileSync(report, 'utf8');
    for (const name of ['empty.txt', 'huge.txt', 'pupil-5.odt']) expect(html).toContain(name);
    expect(html).toContain('Not marked (3)');
    writeFileSync(join(out, 'run.ndjson'), run.stdout);
    const again = await shared.kct(['report', join(out, 'run.ndjson'), '-o', join(out, 'again.html')]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('6 answers, 3 marked, 3 not marked');
  });
});

describe('a quoted glob follows the folder rules', () => {
  it('ignores Markdown and hidden files and names them, says a subfolder was not entered, and keeps paths as written', async () => {
    const dir = classFolder(2);
    writeFileSync(join(dir, 'README.md'), '# notes');
    writeFileSync(join(dir, '.hidden.txt'), essay);
    mkdirSync(join(dir, 'late'));
    writeFileSync(join(dir, 'late', 'pupil-3.txt'), `${essay}\n(late ${dir})`);
    const run = await shared.kct(['one-pass', `${dir}/*`, '--model', '12', '--output', 'csv'], { timeoutMs: 120_000, cwd: tempDir('kct-new-user-cwd-') });
    expect(run.code).toBe(0);
    const rows = parse(run.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.map((row) => row.file)).toEqual([`${dir}/pupil-1.txt`, `${dir}/pupil-2.txt`]);
    expect(run.stderr).toContain(`ignored: 2 files (${dir}/.hidden.txt, ${dir}/README.md)`);
    expect(run.stderr).toContain(`not entered: 1 subfolder (${dir}/late/)`);
    expect(run.stderr).toContain(`[1/2] ${dir}/pupil-1.txt SUCCESS`);
    expect(run.stderr).not.toContain('../');
  });

  it('enters the subfolders a glob matches with --recursive, and a pattern that walks in itself is not doubled', async () => {
    const dir = classFolder(1);
    mkdirSync(join(dir, 'late'));
    writeFileSync(join(dir, 'late', 'pupil-3.txt'), `${essay}\n(late ${dir})`);
    const recursive = await shared.kct(['one-pass', `${dir}/*`, '--recursive', '--model', '12', '--output', 'csv'], { timeoutMs: 120_000 });
    expect(recursive.code).toBe(0);
    expect((parse(recursive.stdout, { columns: true }) as Record<string, string>[]).map((row) => row.file)).toEqual([`${dir}/late/pupil-3.txt`, `${dir}/pupil-1.txt`].sort());
    const deep = await shared.kct(['one-pass', `${dir}/**/*.txt`, '--model', '12', '--output', 'csv'], { timeoutMs: 120_000 });
    expect(deep.code).toBe(0);
    expect((parse(deep.stdout, { columns: true }) as Record<string, string>[]).map((row) => row.file).sort()).toEqual([`${dir}/late/pupil-3.txt`, `${dir}/pupil-1.txt`]);
    expect(deep.stderr).not.toContain('same file');
  });
});

describe('a dangling link inside a folder', () => {
  it('is a SKIPPED row with --skip-unsupported, naming the dangling link', async () => {
    const dir = classFolder(2);
    symlinkSync(join(dir, 'gone.txt'), join(dir, 'broken.txt'));
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--skip-unsupported', '--output', 'ndjson'], { timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    const rows = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, string>);
    const broken = rows.find((row) => row.file === join(dir, 'broken.txt'));
    expect(broken?.status).toBe('SKIPPED');
    expect(broken?.message).toContain('a link to a file that does not exist');
    expect(rows.filter((row) => row.status === 'SUCCESS')).toHaveLength(2);
  });

  it('without --skip-unsupported stops the run as any unsendable file does, naming the link, not "file not found"', async () => {
    const dir = classFolder(1);
    symlinkSync(join(dir, 'gone.txt'), join(dir, 'broken.txt'));
    const run = await shared.kct(['one-pass', dir, '--model', '12']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(dir, 'broken.txt')}: a link to a file that does not exist`);
    expect(run.stderr).not.toContain('file not found');
    expect(run.stderr).toContain('--skip-unsupported');
  });
});

