// A class run accounts for every file, as a new user found from a fresh clone: every row of a
// run reaches the report, a quoted glob follows a folder's rules, a dangling link is a row, Ctrl-C
// counts what was accepted, and CSV keeps the reason of rows not marked.
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { creditsOf, FIXTURES, kctEnv, runKct, tempDir, useSandbox } from './harness.js';

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const shared = useSandbox();

function classFolder(pupils: number): string {
  const dir = tempDir('kct-new-user-');
  for (let i = 1; i <= pupils; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(${dir} ${i})`);
  return dir;
}

describe('--report holds every row of the run', () => {
  it('lists files skipped with --skip-unsupported as not sent, with the counts of the run, as `kct report` of the same run does', async () => {
    const dir = classFolder(3);
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'huge.txt'), '');
    truncateSync(join(dir, 'huge.txt'), 21 * 1024 * 1024);
    writeFileSync(join(dir, 'pupil-5.odt'), 'PK odt');
    const out = tempDir('kct-new-user-out-');
    const report = join(out, 'class.html');
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--skip-unsupported', '--output', 'ndjson', '--report', report], {
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    // one count everywhere: the summary's, the report's cards and its line on stderr
    expect(run.stderr).toContain('Summary: 3 of 3 answers marked');
    expect(run.stderr).toContain('3 answers, 3 marked, 0 not marked, 3 not sent');
    // the list of rows without a mark is headed as the report's is, never "Not marked (3)"
    expect(run.stderr).toContain('Not sent (3):');
    expect(run.stderr).not.toContain('Not marked (');
    const html = readFileSync(report, 'utf8');
    for (const name of ['empty.txt', 'huge.txt', 'pupil-5.odt']) expect(html).toContain(name);
    expect(html).toContain('Not sent (3)');
    expect(html).toContain('3 <small>of 3 answers</small>');
    writeFileSync(join(out, 'run.ndjson'), run.stdout);
    const again = await shared.kct(['report', join(out, 'run.ndjson'), '-o', join(out, 'again.html')]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('3 answers, 3 marked, 0 not marked, 3 not sent');
  });
});

describe('a quoted glob follows the folder rules', () => {
  it('ignores Markdown and hidden files and names them, says a subfolder was not entered, and keeps paths as written', async () => {
    const dir = classFolder(2);
    writeFileSync(join(dir, 'README.md'), '# notes');
    writeFileSync(join(dir, '.hidden.txt'), essay);
    mkdirSync(join(dir, 'late'));
    writeFileSync(join(dir, 'late', 'pupil-3.txt'), `${essay}\n(late ${dir})`);
    const run = await shared.kct(['one-pass', `${dir}/*`, '--model', '12', '--output', 'csv'], {
      timeoutMs: 120_000,
      cwd: tempDir('kct-new-user-cwd-'),
    });
    expect(run.code).toBe(0);
    const rows = parse(run.stdout, { columns: true }) as Record<string, string>[];
    // csv rows come in the order answers finish (docs/guides/marking-a-class.md)
    expect(rows.map((row) => [row.file, row.status]).sort()).toEqual([
      [`${dir}/late/`, 'NOT_ENTERED'],
      [`${dir}/pupil-1.txt`, 'SUCCESS'],
      [`${dir}/pupil-2.txt`, 'SUCCESS'],
    ]);
    expect(run.stderr).toContain(`ignored: 2 files (${dir}/.hidden.txt, ${dir}/README.md)`);
    expect(run.stderr).toContain(`not entered: 1 subfolder (${dir}/late/)`);
    // progress counts answers as they finish, in whichever order
    expect(run.stderr.split('\n').filter((line) => line.includes(`${dir}/pupil-1.txt SUCCESS`))).toEqual([
      expect.stringMatching(/^kct: \[[12]\/2\] /),
    ]);
    expect(run.stderr).not.toContain('../');
  });

  it('enters the subfolders a glob matches with --recursive, and a pattern that walks in itself is not doubled', async () => {
    const dir = classFolder(1);
    mkdirSync(join(dir, 'late'));
    writeFileSync(join(dir, 'late', 'pupil-3.txt'), `${essay}\n(late ${dir})`);
    const recursive = await shared.kct(['one-pass', `${dir}/*`, '--recursive', '--model', '12', '--output', 'csv'], { timeoutMs: 120_000 });
    expect(recursive.code).toBe(0);
    // csv rows come in the order answers finish (docs/guides/marking-a-class.md)
    expect((parse(recursive.stdout, { columns: true }) as Record<string, string>[]).map((row) => row.file).sort()).toEqual(
      [`${dir}/late/pupil-3.txt`, `${dir}/pupil-1.txt`].sort(),
    );
    const deep = await shared.kct(['one-pass', `${dir}/**/*.txt`, '--model', '12', '--output', 'csv'], { timeoutMs: 120_000 });
    expect(deep.code).toBe(0);
    expect((parse(deep.stdout, { columns: true }) as Record<string, string>[]).map((row) => row.file).sort()).toEqual([
      `${dir}/late/pupil-3.txt`,
      `${dir}/pupil-1.txt`,
    ]);
    expect(deep.stderr).not.toContain('same file');
  });
});

describe('a dangling link inside a folder', () => {
  it('is a SKIPPED row with --skip-unsupported, naming the dangling link', async () => {
    const dir = classFolder(2);
    symlinkSync(join(dir, 'gone.txt'), join(dir, 'broken.txt'));
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--skip-unsupported', '--output', 'ndjson'], { timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
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

/** A proxy to the sandbox that holds the service's answers to submissions until released. */
async function holdingProxy(target: string) {
  const held: (() => void)[] = [];
  let arrived: () => void = () => {};
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forward = request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const reply = () => res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(chunks));
          if (req.method !== 'POST') return reply();
          held.push(reply);
          arrived();
        });
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    /** Resolves once `count` submissions were accepted by the sandbox (their answers held here). */
    accepted: (count: number) =>
      new Promise<void>((resolve) => {
        arrived = () => held.length >= count && resolve();
        arrived();
      }),
    release: () => held.splice(0).forEach((reply) => reply()),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('Ctrl-C while submissions are under way', () => {
  it('counts and journals a task whose 202 arrives after the interrupt; the re-run charges nothing twice', async () => {
    const dir = classFolder(3);
    const journal = join(tempDir('kct-new-user-journal-'), 'c2.journal');
    const proxy = await holdingProxy(shared.sandbox.baseUrl);
    const before = await creditsOf(shared.kct);
    try {
      const env = kctEnv(tempDir(), { KCT_BASE_URL: proxy.baseUrl, KCT_API_KEY: shared.sandbox.keys.user });
      const ctrlC = new AbortController();
      const run = runKct(['one-pass', dir, '--model', '12', '--jobs', '2', '--resume', journal, '--output', 'ndjson'], {
        env,
        timeoutMs: 60_000,
        // a Ctrl-C in-process (main's signal); the real SIGINT is test/e2e/signals-and-terminals.test.ts
        signal: ctrlC.signal,
      });
      // the sandbox accepted both submissions; kct has not seen the 202s when Ctrl-C lands
      void proxy.accepted(2).then(() => {
        ctrlC.abort();
        setTimeout(() => proxy.release(), 500);
      });
      const result = await run;
      expect(result.code).toBe(130);
      // only what kct saw: two tasks accepted, neither seen finished
      expect(result.stderr).toContain('interrupted; 2 answers not yet seen finished may still be running on the service');
      const lines = readFileSync(journal, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.filter((line) => typeof line.task_id === 'string')).toHaveLength(2);
    } finally {
      proxy.release();
      await proxy.close();
    }
    // the re-run follows the two journaled tasks and submits the third: three charges in all
    const again = await shared.kct(['one-pass', dir, '--model', '12', '--resume', journal, '--output', 'ndjson'], { timeoutMs: 120_000 });
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(
      /2 answers of 3 were sent before \([^;]*pupil-1\.txt, [^;]*pupil-2\.txt; the same content, model and options; task tsk_\w+, task tsk_\w+\)/,
    );
    expect(before - (await creditsOf(shared.kct))).toBe(3);
    // what this run's own submissions cost: the third answer; the two the first run sent are not this run's charge
    expect(again.stderr).toContain('Credits: 1 charged by this run; 2 answers sent before, not charged again');
  });
});

describe('CSV cells', () => {
  it('SKIPPED and NOT_SENT rows carry their reason in a message column, after the criteria, with max_score', async () => {
    const dir = classFolder(1);
    writeFileSync(join(dir, 'pupil-2.odt'), 'PK odt');
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--skip-unsupported', '--output', 'csv'], { timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    const header = run.stdout.split('\n')[0].split(',');
    expect(header.slice(0, 5)).toEqual(['file', 'student_id', 'task_id', 'status', 'score']);
    expect(header.slice(-3)).toEqual(['max_score', 'message', 'duplicate_of']);
    const rows = parse(run.stdout, { columns: true }) as Record<string, string>[];
    expect(rows.find((row) => row.status === 'SKIPPED')?.message).toContain('unsupported file type');
    const marked = rows.find((row) => row.status === 'SUCCESS')!;
    expect(marked.message).toBe('');
    expect(Number(marked.max_score)).toBeGreaterThan(0);
  });

  it('a lone "-" (stdin) is no formula, while a cell that starts one is still guarded; kct result leaves file empty', async () => {
    const stdin = await shared.kct(['one-pass', '-', '--model', '12', '--student-id', '=1+1', '--output', 'csv'], {
      input: essay,
      timeoutMs: 120_000,
    });
    expect(stdin.code).toBe(0);
    const [row] = parse(stdin.stdout, { columns: true }) as Record<string, string>[];
    expect(row.file).toBe('-');
    expect(row.student_id).toBe("'=1+1");
    const result = await shared.kct(['result', row.task_id, '--output', 'csv']);
    expect(result.code).toBe(0);
    const [again] = parse(result.stdout, { columns: true }) as Record<string, string>[];
    expect(again.file).toBe('');
    expect(again.task_id).toBe(row.task_id);
    const ndjson = await shared.kct(['result', row.task_id, '--output', 'ndjson']);
    expect((JSON.parse(ndjson.stdout) as { file: unknown }).file).toBeNull();
  });
});

describe('--json: the end of a class run is one notice a script reads', () => {
  it('its figures, the answers not marked and the identical pairs, waiting or not; every stderr line is JSON', async () => {
    const dir = classFolder(2);
    writeFileSync(join(dir, 'pupil-copy.txt'), readFileSync(join(dir, 'pupil-1.txt')));
    writeFileSync(join(dir, 'pupil-9.txt'), `${essay}\n(${dir} failing) KCT-SANDBOX-FAIL`);
    for (const wait of [true, false]) {
      const run = await shared.kct(['one-pass', dir, '--model', '12', '--json', ...(wait ? [] : ['--no-wait'])]);
      expect(run.code, run.stderr).toBe(wait ? 3 : 0);
      const lines = run.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { notice?: Record<string, unknown> });
      const end = lines.filter((line) => line.notice?.code === 'info').at(-1)!.notice!;
      expect(end.identical).toEqual([{ file: join(dir, 'pupil-1.txt'), duplicate_of: join(dir, 'pupil-copy.txt') }]);
      if (!wait) {
        // the wait run before marked three: they were sent before; the failure is sent again, as a new task
        expect(end.message).toMatch(/^Submitted: 1 of 4 answers accepted, and 3 not charged again \(marked before, or identical/);
        continue;
      }
      expect(end.message).toBe('Summary: 3 of 4 answers marked, 1 failed');
      expect(end.summary).toMatchObject({ answers: 4, marked: 3, failed: 1, copies: 1, max_score: 20 });
      expect(end).toMatchObject({ not_marked_count: 1, not_marked: [{ file: join(dir, 'pupil-9.txt'), status: 'FAILURE' }] });
      // what the summary's "Found twice" and "Not sent" lines say of what has no row, as fields
      expect(end).toMatchObject({ left_out: { ignored: 0, excluded: 0, empty_folders: 0 }, found_twice: { files: 0, folders: 0 } });
      // the drawing made for people is not sent as notices
      expect(run.stderr).not.toContain(' | ');
    }
  });
});

describe('--json says what has no row', () => {
  it('a file named twice: found_twice.files 1 in the end notice, marked once', async () => {
    const dir = tempDir('kct-found-twice-');
    writeFileSync(join(dir, 'a.txt'), `${essay}\n(found twice)`);
    const run = await shared.kct(['one-pass', join(dir, 'a.txt'), join(dir, 'a.txt'), '--model', '12', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const end = run.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { notice?: Record<string, unknown> })
      .filter((line) => line.notice?.code === 'info')
      .at(-1)!.notice!;
    expect(end).toMatchObject({ found_twice: { files: 1, folders: 0 }, summary: { answers: 1, marked: 1 } });
  });
});
