// How kct treats the service on a big run (README "A whole district in one run"): one request
// budget for the whole run, a 429 that slows everything, no polls for tasks behind a queued
// head, --via batch, and a resumed run that sends nothing for finished answers. A counting proxy
// in front of a real sandbox sees every request. No timed assertions: the proxy's clock checks
// only what must never happen (too many requests in a second, requests during a pause).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CountingProxy, mostInWindow, startCountingProxy } from './counting-proxy.js';
import { kctEnv, parseJson, type RunOptions, removeDir, runKct, type Sandbox, startSandbox, tempDir } from './harness.js';

const WORDS =
  'uniforms students identity cost families equality bullying discipline freedom expression learning teachers evidence however therefore'.split(
    ' ',
  );

/** `count` distinct short essays, a1.txt ... in a new folder. */
function textClass(count: number, prefix = 'a'): string {
  const dir = tempDir('kct-polite-');
  mkdirSync(dir, { recursive: true });
  for (let i = 1; i <= count; i++) {
    const words = Array.from({ length: 40 + (i % 7) * 9 }, (_, w) => WORDS[(i * 7 + w * 3) % WORDS.length]);
    writeFileSync(
      join(dir, `${prefix}${i}.txt`),
      `Answer ${i}. School uniforms: ${words.join(' ')}. Therefore uniforms matter because evidence shows it.\n`,
    );
  }
  return dir;
}

type Row = {
  file: string;
  student_id: string | null;
  task_id: string | null;
  status: string;
  score: number | null;
  max_score: number | null;
  credits_charged: number | null;
  evaluation: unknown;
};

function rows(stdout: string): Row[] {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => parseJson<Row>(line));
}

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

async function sandboxBehindProxy(options: Parameters<typeof startSandbox>[0] = {}): Promise<{
  sandbox: Sandbox;
  proxy: CountingProxy;
  kct: (args: string[], options?: Pick<RunOptions, 'signal' | 'timeoutMs'> & { env?: Record<string, string> }) => ReturnType<typeof runKct>;
}> {
  const sandbox = await startSandbox(options);
  const proxy = await startCountingProxy(sandbox.baseUrl);
  cleanup.push(
    async () => void (await sandbox.stop()),
    () => proxy.close(),
  );
  const configDir = tempDir();
  cleanup.push(() => removeDir(configDir));
  const env = kctEnv(configDir, { KCT_BASE_URL: proxy.baseUrl, KCT_API_KEY: sandbox.keys.user });
  return { sandbox, proxy, kct: (args, options) => runKct(args, { timeoutMs: 230_000, ...options, env: { ...env, ...options?.env } }) };
}

describe('a polite run', () => {
  it('never starts more requests in a second than --max-rps, submissions, polls and result reads together', async () => {
    const { proxy, kct } = await sandboxBehindProxy();
    const dir = textClass(24);
    cleanup.push(() => removeDir(dir));
    const run = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '8', '--max-rps', '5', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    expect(rows(run.stdout).filter((row) => row.status === 'SUCCESS')).toHaveLength(24);
    const sent = proxy.requests.filter((r) => r.kind !== 'other');
    expect(sent.filter((r) => r.kind === 'submit')).toHaveLength(24);
    // Arrivals at the proxy, not starts in kct: on a loaded machine requests started a second
    // apart can arrive together, so count over 3 s (15 allowed) with one second's worth of slack.
    // Without the budget all of them (a submit and a result read per answer, and the polls)
    // would arrive within a second or two.
    expect(sent.length).toBeGreaterThanOrEqual(48);
    expect(mostInWindow(sent, 3000)).toBeLessThanOrEqual(20);
  });

  it('Ctrl-C: no submission waiting for its turn is sent after it (only one already under way gets its grace)', async () => {
    const { proxy, kct } = await sandboxBehindProxy();
    const dir = textClass(30, 'ctrlc');
    cleanup.push(() => removeDir(dir));
    const ctrlC = new AbortController();
    let seenAtCtrlC = -1;
    proxy.intercept = (request) => {
      // the third submission to arrive: sixteen more wait for their turn at 2 a second
      if (request.kind === 'submit' && seenAtCtrlC < 0 && proxy.requests.filter((r) => r.kind === 'submit').length === 3) {
        seenAtCtrlC = proxy.requests.length;
        ctrlC.abort();
      }
      return undefined;
    };
    const run = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '16', '--max-rps', '2', '--output', 'ndjson'], {
      signal: ctrlC.signal,
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(130);
    const after = proxy.requests.slice(seenAtCtrlC).filter((r) => r.kind === 'submit');
    // one request may have started in kct before the abort reached it, and arrive after
    expect(after.length).toBeLessThanOrEqual(1);
  });

  it('Ctrl-C while a refused submission waits out its Retry-After: it is not sent again (it was never taken)', async () => {
    const { proxy, kct } = await sandboxBehindProxy();
    const dir = textClass(6, 'ctrlc-refused');
    cleanup.push(() => removeDir(dir));
    const ctrlC = new AbortController();
    // where the proxy's log stood at the Ctrl-C itself: a submission sent before it (several may be in
    // flight when the first refusal comes back, on a loaded machine) is not one sent after it
    let seenAtCtrlC = -1;
    let pressed = false;
    proxy.intercept = (request) => {
      if (request.kind !== 'submit' || seenAtCtrlC >= 0) return undefined;
      // every submission is refused until Ctrl-C, which comes 50 ms after the second refusal
      if (!pressed && proxy.requests.filter((r) => r.kind === 'submit').length === 2) {
        pressed = true;
        setTimeout(() => {
          seenAtCtrlC = proxy.requests.length;
          ctrlC.abort();
        }, 50);
      }
      return { status: 429, headers: { 'retry-after': '2' }, body: { error: { code: 'rate_limited', message: 'Too many requests.' } } };
    };
    const run = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '4', '--output', 'ndjson'], {
      signal: ctrlC.signal,
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(130);
    expect(proxy.requests.slice(seenAtCtrlC).filter((r) => r.kind === 'submit')).toEqual([]);
  });

  it("a service slower than kct's slowest pace (--rate-limit 0.5): every answer is sent and marked, none NOT_SENT", async () => {
    const { proxy, kct } = await sandboxBehindProxy({ args: ['--rate-limit', '0.5'] });
    const dir = textClass(4, 'slow-service');
    cleanup.push(() => removeDir(dir));
    const run = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '16', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    expect(rows(run.stdout).map((row) => row.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    // refused, more than the 3 retries of other errors would allow one request, and said with what was really sent
    expect(proxy.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    const [, average] = /the run sent about ([\d.]+) requests a second on average/.exec(run.stderr) ?? [];
    expect(Number(average)).toBeLessThan(2);
  }, 240_000);

  it('KCT_MAX_RETRIES=0 turns retries off, a refusal for the pace included: the job fails fast (exit 9), one request an answer', async () => {
    const { proxy, kct } = await sandboxBehindProxy();
    const dir = textClass(2, 'no retries');
    cleanup.push(() => removeDir(dir));
    proxy.intercept = (request) =>
      request.kind === 'submit'
        ? { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'rate_limited', message: 'Too many requests.' } } }
        : undefined;
    const run = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '1', '--output', 'ndjson'], {
      env: { KCT_MAX_RETRIES: '0' },
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(9);
    expect(proxy.requests.filter((r) => r.kind === 'submit').length).toBeLessThanOrEqual(2);
    // what the run says of the refusals is what it did with them
    expect(run.stderr).not.toContain('each sent again');
  });

  it('a 429 with Retry-After on a status poll pauses every request of the run, submissions included, for that long', async () => {
    const { proxy, kct } = await sandboxBehindProxy();
    const dir = textClass(12);
    cleanup.push(() => removeDir(dir));
    let refusedAt: number | undefined;
    proxy.intercept = (request) => {
      if (request.kind !== 'status' || refusedAt !== undefined) return undefined;
      refusedAt = request.at;
      return {
        status: 429,
        headers: { 'retry-after': '2' },
        body: { error: { code: 'rate_limited', message: 'Too many requests; retry after 2 seconds.' } },
      };
    };
    const run = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '2', '--max-rps', '4', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(0);
    expect(rows(run.stdout).filter((row) => row.status === 'SUCCESS')).toHaveLength(12);
    expect(refusedAt).toBeDefined();
    const submissionsAfter = proxy.requests.filter((r) => r.kind === 'submit' && r.at > refusedAt!);
    expect(submissionsAfter.length).toBeGreaterThan(0); // submissions were still going when the 429 came
    // requests already on their way may arrive just after it; then nothing until Retry-After has passed
    const during = proxy.requests.filter((r) => r.at > refusedAt! + 300 && r.at < refusedAt! + 1800);
    expect(during).toEqual([]);
  });

  it('tasks queued behind the head of the run are not polled while the head has not moved', async () => {
    const { sandbox, proxy, kct } = await sandboxBehindProxy({ latencyMs: 200, args: ['--workers', '1'] });
    // someone else's slow task holds the only worker for several seconds
    const blocker = await runKct(['one-pass', '--text', 'A slow answer. KCT-SANDBOX-SLOW', '--model', '12', '--no-wait', '--json'], {
      env: kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user }),
    });
    expect(blocker.code, blocker.stderr).toBe(0);
    const dir = textClass(6);
    cleanup.push(() => removeDir(dir));
    const run = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '1', '--timeout', '3s', '--output', 'ndjson']);
    expect(run.code, run.stderr).toBe(8);
    const timedOut = rows(run.stdout);
    expect(timedOut.map((row) => row.status)).toEqual(Array(6).fill('TIMEOUT'));
    // submitted one at a time in the order found: a1's task is the head, the others wait behind it
    const [head, ...behind] = timedOut.sort((a, b) => a.file.localeCompare(b.file, 'en', { numeric: true })).map((row) => row.task_id);
    const statusOf = (id: string | null) => proxy.requests.filter((r) => r.kind === 'status' && r.taskId === id);
    expect(statusOf(head).length).toBeGreaterThan(0);
    // on a loaded machine the blocker may finish within the run: from kct's first sight of the
    // head leaving the queue, polling the tasks behind it is right; before, never
    const moved = statusOf(head).find((r) => r.snapshot !== undefined && r.snapshot.status !== 'QUEUED');
    const headMovedAt = moved?.answeredAt ?? Infinity;
    for (const id of behind) expect(statusOf(id).filter((r) => r.at < headMovedAt)).toEqual([]);
  });

  it('--via batch marks a folder of text answers through batches: the same rows as one request per answer', async () => {
    const { proxy, kct } = await sandboxBehindProxy();
    const dir = textClass(12);
    cleanup.push(() => removeDir(dir));
    const batched = await kct(['one-pass', dir, '--model', '12', '--via', 'batch', '--output', 'ndjson']);
    expect(batched.code, batched.stderr).toBe(0);
    const viaBatch = proxy.requests.slice();
    expect(viaBatch.filter((r) => r.kind === 'batch')).toHaveLength(1);
    expect(viaBatch.filter((r) => r.kind === 'submit')).toHaveLength(0);
    const batchId = rows(batched.stdout).length > 0 ? viaBatch.find((r) => r.kind === 'status')?.taskId : undefined;
    // one task followed: the batch, never its items one by one
    expect(new Set(viaBatch.filter((r) => r.kind === 'status').map((r) => r.taskId))).toEqual(new Set([batchId]));
    const onePass = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--output', 'ndjson']);
    expect(onePass.code, onePass.stderr).toBe(0);
    // the answers went in a batch: the one-pass run follows that batch (this machine's ledger), it sends nothing again
    expect(proxy.requests.slice(viaBatch.length).filter((r) => r.kind === 'submit' || r.kind === 'batch')).toEqual([]);
    expect(rows(onePass.stdout).every((row) => (row as Row & { replayed?: boolean }).replayed === true)).toBe(true);
    const comparable = (list: Row[]) =>
      list.map(({ task_id: _id, replayed: _r, ...row }: Row & { replayed?: boolean }) => row).sort((a, b) => a.file.localeCompare(b.file));
    expect(comparable(rows(batched.stdout))).toEqual(comparable(rows(onePass.stdout)));
    expect(rows(batched.stdout).every((row) => row.status === 'SUCCESS' && typeof row.score === 'number')).toBe(true);
  });

  it('a resumed run sends nothing at all for finished answers, prints their rows, and sends only what is new', async () => {
    const { proxy, kct } = await sandboxBehindProxy();
    const dir = textClass(8);
    const journalDir = tempDir();
    cleanup.push(
      () => removeDir(dir),
      () => removeDir(journalDir),
    );
    const journal = join(journalDir, 'marks.journal');
    const first = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--resume', journal, '--output', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    const before = proxy.requests.length;
    const again = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--resume', journal, '--output', 'ndjson']);
    expect(again.code, again.stderr).toBe(0);
    expect(proxy.requests.slice(before).filter((r) => r.path.includes('/evaluations'))).toEqual([]);
    const sorted = (list: Row[]) => [...list].sort((a, b) => a.file.localeCompare(b.file));
    // the same rows, each marked before this run (not charged by it)
    const resumed = rows(again.stdout);
    expect(resumed.every((row) => (row as Row & { replayed?: boolean }).replayed === true)).toBe(true);
    expect(sorted(resumed.map(({ replayed: _, ...row }: Row & { replayed?: boolean }) => row))).toEqual(sorted(rows(first.stdout)));

    writeFileSync(join(dir, 'a9.txt'), 'Answer 9. A new answer about uniforms, evidence and identity, added after the first run.\n');
    const third = proxy.requests.length;
    const grown = await kct(['one-pass', dir, '--model', '12', '--via', 'one-pass', '--resume', journal, '--output', 'ndjson']);
    expect(grown.code, grown.stderr).toBe(0);
    expect(rows(grown.stdout)).toHaveLength(9);
    const sent = proxy.requests.slice(third);
    expect(sent.filter((r) => r.kind === 'submit')).toHaveLength(1);
    const newTask = rows(grown.stdout).find((row) => row.file.endsWith('a9.txt'))!.task_id;
    expect(sent.filter((r) => r.kind === 'status' || r.kind === 'result').every((r) => r.taskId === newTask)).toBe(true);
  }, 150_000);

  it('a big run without --resume is told what a journal would save', async () => {
    const { kct } = await sandboxBehindProxy();
    const dir = textClass(300, 's');
    cleanup.push(() => removeDir(dir));
    const run = await kct([
      'one-pass',
      dir,
      '--model',
      '12',
      '--no-wait',
      '--via',
      'one-pass',
      '--max-rps',
      '200',
      '--jobs',
      '16',
      '--output',
      'ndjson',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/note: 300 answers to send and no --resume: .*replays every submission.*add --resume/);
    // the same class again: nothing to send, nothing to suggest
    const again = await kct(['one-pass', dir, '--model', '12', '--no-wait', '--via', 'one-pass', '--max-rps', '200', '--output', 'ndjson']);
    expect(again.stderr).not.toContain('no --resume');
  });

  it('a waiting run keeps at most KCT_MAX_PENDING tasks unfinished at once: sending waits for tasks to end', async () => {
    const { sandbox, proxy } = await sandboxBehindProxy({ latencyMs: 40 });
    const dir = textClass(12, 'p');
    cleanup.push(() => removeDir(dir));
    const configDir = tempDir();
    cleanup.push(() => removeDir(configDir));
    const env = kctEnv(configDir, { KCT_BASE_URL: proxy.baseUrl, KCT_API_KEY: sandbox.keys.user, KCT_MAX_PENDING: '3' });
    // --jobs 1: one submission at a time, so the cap alone decides how many tasks are unfinished
    const run = await runKct(
      ['one-pass', dir, '--model', '12', '--via', 'one-pass', '--jobs', '1', '--max-rps', '100', '--output', 'ndjson'],
      { env, timeoutMs: 120_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(rows(run.stdout).filter((row) => row.status === 'SUCCESS')).toHaveLength(12);
    // as the service saw it: a submission adds an unfinished task; a status answer that says it
    // is final (on its way back to kct) removes one. Without the cap all 12 are sent at once.
    const events: [number, number][] = [];
    for (const request of proxy.requests) {
      if (request.kind === 'submit') events.push([request.at, 1]);
      if (request.kind === 'status' && ['SUCCESS', 'FAILURE', 'CANCEL'].includes(request.snapshot?.status ?? ''))
        events.push([request.answeredAt!, -1]);
    }
    let unfinished = 0;
    let most = 0;
    for (const [, change] of events.sort((x, y) => x[0] - y[0])) most = Math.max(most, (unfinished += change));
    expect(events.filter(([, change]) => change > 0)).toHaveLength(12);
    expect(most).toBe(3);
  });

  it('a KCT_MAX_PENDING that is not a positive whole number exits 2 naming it, before anything is sent', async () => {
    const { sandbox, proxy } = await sandboxBehindProxy();
    const dir = textClass(2, 'q');
    cleanup.push(() => removeDir(dir));
    const configDir = tempDir();
    cleanup.push(() => removeDir(configDir));
    const env = kctEnv(configDir, { KCT_BASE_URL: proxy.baseUrl, KCT_API_KEY: sandbox.keys.user, KCT_MAX_PENDING: 'lots' });
    const run = await runKct(['one-pass', dir, '--model', '12', '--output', 'ndjson'], { env, timeoutMs: 60_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/KCT_MAX_PENDING must be a whole number, 1 or more, not "lots"/);
    expect(proxy.requests.filter((r) => r.kind === 'submit')).toHaveLength(0);
  });
});
