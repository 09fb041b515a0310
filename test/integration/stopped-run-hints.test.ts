// What a run that stops early says was left running, and what to do next. "Run the same command
// again: nothing is charged twice" was untrue of a --mark-again run: the same command marks, and
// charges, every answer anew; the command without --mark-again collects its tasks (this machine's
// ledger knows them). A batch's answers share one task: counted as answers, named by task.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { creditsOf, FIXTURES, tempDir, useSandbox } from './harness.js';

// --time-scale 3: a KCT-SANDBOX-SLOW answer's stages last 500 ms each, still longer in all than --timeout 1s below
const shared = useSandbox({ latencyMs: 20, args: ['--time-scale', '3'] });

function slowClass(count: number, tag: string): string {
  const dir = join(tempDir('kct-mark-again-'), 'class');
  mkdirSync(dir);
  const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
  for (let i = 1; i <= count; i++) writeFileSync(join(dir, `pupil-${i}.txt`), `${essay}\n(${tag} ${i}) KCT-SANDBOX-SLOW`);
  return dir;
}

describe('a --mark-again run stopped early', () => {
  it('Ctrl-C: names the command without --mark-again, which collects the tasks it sent with no second charge', async () => {
    const dir = slowClass(3, 'mark again, interrupted');
    expect((await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson'])).code).toBe(0);
    const ctrlC = new AbortController();
    const before = await creditsOf(shared.kct);
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson', '--mark-again'], {
      signal: ctrlC.signal,
      onStderr: (_, all) => {
        if (all.includes('the service quoted')) ctrlC.abort();
      },
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain('without --mark-again');
    expect(run.stderr).not.toContain('Run the same command again');
    const collected = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson']);
    expect(collected.code, collected.stderr).toBe(0);
    // what --mark-again sent is charged once, when marked; collecting it charges nothing more
    const sent = collected.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { status: string });
    expect(sent.map((row) => row.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect(before - (await creditsOf(shared.kct))).toBeLessThanOrEqual(3);
  });

  it('--timeout: the hint names the command without --mark-again, never "the same command again"', async () => {
    const dir = slowClass(2, 'mark again, timed out');
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson', '--mark-again', '--timeout', '1s']);
    expect(run.code).toBe(8);
    expect(run.stderr).toContain('without --mark-again');
    expect(run.stderr).not.toMatch(/same command again later to collect them \(no second charge\)/);
  });
});

describe('a --via batch run stopped early', () => {
  it('counts the answers left running and names their one task, not "3 tasks … and 2 more"', async () => {
    const dir = slowClass(3, 'batch, interrupted');
    const ctrlC = new AbortController();
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson', '--via', 'batch'], {
      signal: ctrlC.signal,
      onStderr: (_, all) => {
        if (all.includes('the service quoted')) ctrlC.abort();
      },
    });
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toMatch(/interrupted; 3 answers not yet seen finished may still be running on the service: task tsk_\w+(?! and)/);
  });
});

describe('kct batch stopped early', () => {
  it('Ctrl-C while waiting: --json still one array, the batch named by id, and the same command again charges nothing more', async () => {
    const dir = slowClass(3, 'kct batch, interrupted');
    const ctrlC = new AbortController();
    const run = await shared.kct(['batch', dir, '--model', '12', '--json'], {
      signal: ctrlC.signal,
      onStderr: (_, all) => {
        if (all.includes('accepted as')) ctrlC.abort();
      },
    });
    expect(run.code, run.stderr).toBe(130);
    expect(JSON.parse(run.stdout)).toEqual([]);
    const error = JSON.parse(run.stderr.trim().split('\n').at(-1)!).error as { message: string; suggestion: string };
    expect(error.message).toMatch(
      /^interrupted; 3 items in a batch not seen finished, some perhaps marked already, the others still running on the service: batch tsk_\w+$/,
    );
    expect(error.suggestion).toContain('Run the same command again to collect them');
    const again = await shared.kct(['batch', dir, '--model', '12', '--output', 'ndjson']);
    expect(again.code, again.stderr).toBe(0);
    // the batch the service accepted before, replayed (its credits are those of the first send)
    const rows = again.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { status: string; replayed?: boolean });
    expect(rows.map((row) => [row.status, row.replayed])).toEqual(Array(3).fill(['SUCCESS', true]));
  });
});

describe('kct batch stopped while sending', () => {
  it('Ctrl-C between requests: the accepted batch named, the items never sent counted, --json one array', async () => {
    const dir = join(tempDir('kct-batch-stopped-'), 'class');
    mkdirSync(dir);
    for (let i = 1; i <= 150; i++)
      writeFileSync(join(dir, `pupil-${i}.txt`), `Uniforms help, says pupil ${i} of the stopped batch. KCT-SANDBOX-SLOW`);
    const ctrlC = new AbortController();
    const run = await shared.kct(['batch', dir, '--model', '12', '--json'], {
      signal: ctrlC.signal,
      onStderr: (_, all) => {
        if (all.includes('batch 1/2 accepted')) ctrlC.abort();
      },
    });
    expect(run.code, run.stderr).toBe(130);
    expect(JSON.parse(run.stdout)).toEqual([]);
    const error = JSON.parse(run.stderr.trim().split('\n').at(-1)!).error as { message: string; suggestion: string };
    expect(error.message).toMatch(
      /^interrupted; 100 items in a batch not seen finished, some perhaps marked already, the others still running on the service: batch tsk_\w+; 50 items not sent$/,
    );
    expect(error.suggestion).toContain('Run the same command again to collect them and send the 50 items not sent');
  });
});

describe('--via batch with --mark-again', () => {
  it('says each answer goes on its own, rather than dropping --via batch without a word', async () => {
    const dir = slowClass(2, 'batch, marked again');
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--output', 'ndjson', '--via', 'batch', '--mark-again', '--no-wait']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('--mark-again sends each answer on its own (one-pass)');
  });
});
