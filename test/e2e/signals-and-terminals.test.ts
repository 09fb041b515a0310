// What only a real process shows: the batch spinner in a pseudo-terminal, SIGTERM and SIGINT while
// watching (exit 143 and 130), CI=1 in a real terminal, and the sandbox honouring SIGTERM while it
// starts. The messages around them run in-process: test/integration/batch-progress-and-messages.test.ts.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { essay, textFolder } from './class-fixture.js';
import { inTerminal, kctEnv, type RunResult, runKct, tempDir, useSandbox } from './harness.js';

// --time-scale 3: KCT-SANDBOX-SLOW's stages last 500 ms, which every poll still sees
const shared = useSandbox({ args: ['--time-scale', '3'] });

/** Runs kct and sends `signal` once stderr says the task was accepted (or says `seen`: a class run's cost line follows its first). */
function interruptAfterAccept(args: string[], signal: NodeJS.Signals, seen = 'accepted'): Promise<RunResult> {
  let sent = false;
  return shared.kct(args, {
    onSpawn(child) {
      child.stderr!.on('data', (chunk: Buffer) => {
        if (!sent && chunk.toString().includes(seen)) {
          sent = true;
          child.kill(signal);
        }
      });
    },
  });
}

describe('kct batch on a terminal', () => {
  it('shows a spinner with marked, not marked and to come on a terminal', async () => {
    const dir = textFolder(['cat', 'dan'], 'KCT-SANDBOX-SLOW');
    const env = { ...kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user }), CI: undefined };
    const run = await inTerminal(['batch', dir, '--model', '12'], env);
    expect(run.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    const plain = run.output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
    expect(plain).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] marking 2 items: 0 marked, 0 not marked, 2 queued or running/);
  });
});

describe('kct one-pass on a terminal', () => {
  it('shows a class spinner with the pace kct has found: the requests it sends a second', async () => {
    const dir = textFolder(['eve', 'fay', 'gus'], 'KCT-SANDBOX-SLOW');
    const env = { ...kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user }), CI: undefined };
    const run = await inTerminal(['one-pass', dir, '--model', '12'], env);
    expect(run.code).toBe(0);
    // eslint-disable-next-line no-control-regex
    const plain = run.output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
    expect(plain).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] marking 3 answers: \d marked, \d not marked, \d queued or running · \d+ requests\/s/);
  });
});

describe('colour on a terminal', () => {
  it('the spinner is coloured, and NO_COLOR (as --no-color) takes the colour away, the spinner stays', async () => {
    const dir = textFolder(['hal', 'ida'], 'KCT-SANDBOX-SLOW');
    const env = { ...kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user }), CI: undefined };
    const cyan = '\u001b[36m';
    const coloured = await inTerminal(['one-pass', dir, '--model', '12'], { ...env, NO_COLOR: undefined });
    expect(coloured.output).toContain(cyan);
    for (const run of [
      await inTerminal(['one-pass', dir, '--model', '12'], { ...env, NO_COLOR: '1' }),
      await inTerminal(['--no-color', 'one-pass', dir, '--model', '12'], { ...env, NO_COLOR: undefined }),
    ]) {
      expect(run.code).toBe(0);
      expect(run.output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] marking 2 answers/);
      expect(run.output).not.toContain(cyan);
    }
  });
});

describe('signals and terminals', () => {
  it('SIGTERM while watching exits 143; SIGINT 130', async () => {
    const term = await interruptAfterAccept(['one-pass', '--model', '12', '--text', `${essay} (sigterm) KCT-SANDBOX-SLOW`], 'SIGTERM');
    expect(term.code).toBe(143);
    expect(term.stderr).toMatch(/kct status tsk_\w+ --watch/);
    const int = await interruptAfterAccept(['one-pass', '--model', '12', '--text', `${essay} (sigint) KCT-SANDBOX-SLOW`], 'SIGINT');
    expect(int.code).toBe(130);
  });

  it('one SIGINT delivered twice at once (`timeout -s INT` signals kct and its group) is one Ctrl-C: --json closed, not "exiting now"', async () => {
    let sent = false;
    const run = await shared.kct(['one-pass', '--model', '12', '--text', `${essay} (twice) KCT-SANDBOX-SLOW`, '--json'], {
      onSpawn(child) {
        child.stderr!.on('data', (chunk: Buffer) => {
          if (!sent && chunk.toString().includes('accepted')) {
            sent = true;
            // two deliveries a moment apart (at once, the kernel would merge them into one)
            child.kill('SIGINT');
            setTimeout(() => child.kill('SIGINT'), 40);
          }
        });
      },
    });
    // 130, or SIGINT itself when the second delivery lands while Node closes its signal handlers on
    // the way out (libuv restores the default then): a shell reports both as 130
    expect(run.code === 130 || (run.code === null && run.signal === 'SIGINT')).toBe(true);
    expect(run.stderr).not.toContain('interrupted again');
    expect(run.stderr).toMatch(/"code":"interrupted"/);
  });

  it('Ctrl-C before a slow run reaches every answer: kct report of its journal still counts each one (those never reached as not sent)', async () => {
    const names = ['ada', 'ben', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal'];
    const dir = textFolder(names);
    const journal = join(tempDir(), 'class.journal');
    const run = await interruptAfterAccept(
      ['one-pass', dir, '--model', '12', '--resume', journal, '--max-rps', '1', '--output', 'ndjson'],
      'SIGINT',
      'cost:',
    );
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(/answers? not sent/);
    const report = await shared.kct(['report', journal, '--out', join(tempDir(), 'class.html'), '--json']);
    expect(report.code, report.stderr).toBe(0);
    const counts = JSON.parse(report.stdout) as { answers: number; marked: number; not_marked: number };
    expect(counts.answers).toBe(names.length);
    expect(counts.marked + counts.not_marked).toBe(names.length);
  });

  it("Ctrl-C in a --no-wait class run: the rows accepted are on stdout, and --json's error counts and names them, the rest counted not sent", async () => {
    const names = ['ada', 'ben', 'cat', 'dan', 'eve', 'fay', 'gus', 'hal'];
    const run = await interruptAfterAccept(
      ['one-pass', textFolder(names, '(no-wait sigint)'), '--model', '12', '--no-wait', '--json', '--max-rps', '1'],
      'SIGINT',
      'quoted',
    );
    expect(run.code, run.stderr).toBe(130);
    const rows = JSON.parse(run.stdout) as { task_id: string; status: string }[];
    const { error } = JSON.parse(run.stderr.trim().split('\n').at(-1)!) as {
      error: { code: string; accepted: number; unfinished: number; task_ids: string[]; not_sent: number };
    };
    expect(error.code).toBe('interrupted');
    expect(rows.length).toBeGreaterThan(0);
    expect(error.accepted).toBe(rows.length);
    expect(error.unfinished).toBe(rows.length);
    expect(rows.length + error.not_sent).toBe(names.length);
    expect([...error.task_ids].sort()).toEqual(rows.map((row) => row.task_id).sort());
  });

  it('Ctrl-C in --no-wait --output csv, --via batch and kct batch: the rows (or batches) accepted are CSV on stdout, the error names their task', async () => {
    const names = Array.from({ length: 150 }, (_, i) => `pupil-${i + 1}`);
    for (const [args, seen] of [
      [['one-pass', textFolder(names, '(via batch sigint)'), '--via', 'batch'], 'quoted'],
      [['batch', textFolder(names, '(kct batch sigint)')], 'batch 1/2 accepted'],
    ] as const) {
      const run = await interruptAfterAccept([...args, '--model', '12', '--no-wait', '--output', 'csv', '--max-rps', '1'], 'SIGINT', seen);
      expect(run.code, run.stderr).toBe(130);
      const [header, ...lines] = run.stdout.trim().split('\n');
      expect(header).toMatch(/^(file,student_id,)?task_id,status,/);
      const [task] = new Set(lines.map((line) => /tsk_\w+/.exec(line)?.[0]));
      expect(lines).toHaveLength(args[0] === 'batch' ? 1 : 100);
      expect(run.stderr).toContain(
        `: ${args[0] === 'batch' ? 'batch' : 'task'} ${task}; 50 ${args[0] === 'batch' ? 'items' : 'answers'} not sent`,
      );
    }
  });

  it('CI=1 in a real terminal never claims there is no terminal', async () => {
    const env = { ...kctEnv(tempDir()), CI: '1' };
    const run = await inTerminal(['auth', 'login', '--base-url', shared.sandbox.baseUrl], env);
    expect(run.code).toBe(2); // usage: it says how to pipe the key in
    expect(run.output).toContain('CI is set (CI=1), and kct never prompts in CI');
    expect(run.output).not.toContain('no terminal');
  });
});

describe('kct sandbox start-up', () => {
  it('honours SIGTERM while starting', async () => {
    const data = join(tempDir(), 'fresh');
    mkdirSync(data);
    const run = await runKct(['sandbox', '--port', '0', '--data', data, '--json'], {
      env: kctEnv(tempDir()),
      timeoutMs: 20_000,
      // about when it opens its database (not an assertion: any moment must work)
      onSpawn: (child) => setTimeout(() => child.kill('SIGTERM'), 200),
    });
    expect(run.code === 143 || run.signal === 'SIGTERM').toBe(true);
  });
});
