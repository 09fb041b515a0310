import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser, kctEnv, parseJson, runKct, type Sandbox, startSandbox, tempDir } from './harness.js';

// The exit-code table, in-process; a reader closing kct's stdout early is test/e2e/closed-pipe.test.ts.

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ latencyMs: 20 });
});
afterAll(async () => {
  await sandbox?.stop();
});

const answer = 'Schools should not require uniforms, because students learn responsibility by choosing. For example, surveys show it.';

describe('exit codes, against the sandbox', () => {
  it('0 on success', async () => {
    expect((await asUser(sandbox)(['models'])).code).toBe(0);
  });

  it('2 for bad usage, with commander and local checks', async () => {
    const kct = asUser(sandbox);
    expect((await kct(['one-pass', '--model', '12', '--style', 'Fancy', '--text', answer])).code).toBe(2);
    expect((await kct(['one-pass', '--model', 'abc', '--text', answer])).code).toBe(2);
    expect((await kct(['status'])).code).toBe(2);
    const timeout = await kct(['status', 'tsk_x', '--watch', '--timeout', 'soon']);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('not a duration');
  });

  it('2 for an HTTP 400 or 413 from the server, with its message and request id', async () => {
    for (const status of [400, 413]) {
      await withServer(
        status,
        { error: { code: 'invalid_request', message: `server says ${status}`, status }, request_id: 'req_abc' },
        async (baseUrl) => {
          const run = await runKct(['models'], { env: kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: 'kct_test_key_123456' }) });
          expect(run.code).toBe(2);
          expect(run.stderr).toContain(`server says ${status}`);
          expect(run.stderr).toContain('req_abc');
        },
      );
    }
  });

  it('3 when the task ends FAILURE or CANCEL', async () => {
    const kct = asUser(sandbox);
    expect((await kct(['one-pass', '--model', '12', '--text', 'KCT-SANDBOX-FAIL'])).code).toBe(3);
    const accepted = parseJson<{ task_id: string }>(
      (await kct(['one-pass', '--model', '12', '--text', `${answer} KCT-SANDBOX-SLOW`, '--no-wait', '--json'])).stdout,
    );
    const cancel = await kct(['cancel', accepted.task_id, '--json']);
    expect(cancel.code).toBe(0);
    expect(parseJson<{ status: string }>(cancel.stdout).status).toBe('CANCEL');
    const watch = await kct(['status', accepted.task_id, '--watch']);
    expect(watch.code).toBe(3);
    const result = parseJson<{ status: string; credits_charged: number }>((await kct(['result', accepted.task_id, '--json'])).stdout);
    expect(result.status).toBe('CANCEL');
    expect(result.credits_charged).toBe(0);
    // 7: a final task can no longer be cancelled
    const again = await kct(['cancel', accepted.task_id]);
    expect(again.code).toBe(7);
    expect(again.stderr).toContain('HTTP 409');
    // the hint names the task, not a placeholder
    expect(again.stderr).toContain(`\`kct result ${accepted.task_id}\` shows how`);
  });

  it('3 from kct status and kct result of a batch that ended SUCCESS with an item that failed', async () => {
    const kct = asUser(sandbox);
    const manifest = join(tempDir('kct-exit-batch-'), 'answers.jsonl');
    writeFileSync(manifest, [`{"paper_content": "${answer} (batch)"}`, '{"paper_content": "KCT-SANDBOX-FAIL (batch)"}', ''].join('\n'));
    expect((await kct(['batch', manifest, '--model', '12'])).code).toBe(3);
    // the same batch again with --no-wait from another machine (no ledger to reuse from): a replay, printed with its
    // state now, not the stored QUEUED
    const replay = await asUser(sandbox)(['batch', manifest, '--model', '12', '--no-wait']);
    expect(replay.stderr).toContain('It is finished: see the marks with kct result');
    const [batch] = parseJson<{ task_id: string; status: string; replayed: boolean; credits_charged: number }[]>(
      (await asUser(sandbox)(['batch', manifest, '--model', '12', '--no-wait', '--json'])).stdout,
    );
    expect(batch).toMatchObject({ status: 'SUCCESS', replayed: true, credits_charged: 1 });
    for (const args of [
      ['status', batch.task_id],
      ['status', batch.task_id, '--watch'],
      ['result', batch.task_id],
    ]) {
      const run = await kct(args);
      expect(run.code, args.join(' ')).toBe(3);
      expect(run.stderr).toContain('1 of 2 items did not succeed');
    }
  });

  it('4 for 401 (bad key) and 403 (former admin organization key)', async () => {
    const bad = await runKct(['credits'], {
      env: kctEnv(tempDir(), { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: 'kct_wrong_key_1234567890' }),
    });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('HTTP 401');
    const former = await asUser(sandbox, 'former_admin')(['models']);
    expect(former.code).toBe(4);
    expect(former.stderr).toContain('HTTP 403');
    expect(former.stderr).toContain('admin');
  });

  it('4 for a bad key on one answer this machine marked before: the error once, no HTTP dump on stdout', async () => {
    const configDir = tempDir();
    const text = `${answer} (marked, then read with a bad key)`;
    expect((await asUser(sandbox, 'user', configDir)(['one-pass', '--model', '12', '--text', text])).code).toBe(0);
    const bad = (args: string[]) =>
      runKct(args, { env: kctEnv(configDir, { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: 'kct_wrong_key_1234567890' }) });
    for (const format of [['--json'], ['--output', 'ndjson'], ['--output', 'table']]) {
      const run = await bad(['one-pass', '--model', '12', '--text', text, ...format]);
      expect(run.code).toBe(4);
      expect(run.stderr).toContain('not valid');
      // the task's row says it could not be read; the HTTP exchange behind it (headers, body, URL) stays out of it
      expect(run.stdout).not.toMatch(/"headers"|"body"|"url"|content-type/);
      // nothing promised of the answer sent before: the service could not be asked (reuse-check.ts)
      expect(run.stderr).not.toContain('sent before');
      // nor is its earlier task claimed: the service would not show it to this key (NOT_SENT, as a new answer refused)
      if (format[0] === '--json')
        expect(parseJson<{ status: string; task_id: string }>(run.stdout)).toMatchObject({ status: 'NOT_SENT', task_id: null });
    }
  });
  it('5 for insufficient credits (402), nothing queued', async () => {
    const run = await asUser(sandbox, 'broke')(['one-pass', '--model', '15', '--text', answer]);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('HTTP 402');
  });

  it('6 for an unknown task or model (404)', async () => {
    const kct = asUser(sandbox);
    const task = await kct(['status', 'tsk_000000000000000000000000']);
    expect(task.code).toBe(6);
    expect(task.stderr).toMatch(/request req_/);
    expect((await kct(['one-pass', '--model', '999', '--text', answer])).code).toBe(6);
  });

  it('7 for a model that is not ready (409)', async () => {
    const run = await asUser(sandbox)(['one-pass', '--model', '14', '--text', answer]);
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('HTTP 409');
  });

  it('8 when --timeout runs out, leaving the task running and printing its id', async () => {
    const kct = asUser(sandbox);
    // every test sends different text: the same text would be the same task (derived idempotency key)
    const run = await kct(['one-pass', '--model', '12', '--text', `${answer} (timeout) KCT-SANDBOX-SLOW`, '--timeout', '300ms']);
    expect(run.code).toBe(8);
    const id = /tsk_[0-9a-f]+/.exec(run.stderr)?.[0];
    expect(id).toBeTruthy();
    expect(run.stderr).toContain(`kct status ${id} --watch`);
    const status = parseJson<{ status: string }>((await kct(['status', id!, '--json'])).stdout);
    expect(['QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS', 'SUCCESS']).toContain(status.status);
    await kct(['cancel', id!]);
  });

  it('9 when the service is unreachable, and for 5xx/429 after retries', async () => {
    // short pauses: how many times each request is sent, and a run's patience, are counted in
    // test/unit/client/refusal-patience.test.ts (waited for here, they took a minute)
    const quick = { KCT_RETRY_BASE_DELAY: '10ms' };
    const down = await runKct(['credits'], {
      env: kctEnv(tempDir(), { KCT_BASE_URL: 'http://127.0.0.1:9/v1', KCT_API_KEY: sandbox.keys.user, ...quick }),
    });
    expect(down.code).toBe(9);
    expect(down.stderr).toContain('cannot reach');
    let hits = 0;
    await withServer(
      429,
      { error: { code: 'rate_limited', message: 'slow down' } },
      async (baseUrl) => {
        const busy = await runKct(['credits'], {
          env: kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: 'kct_test_key_123456', ...quick }),
        });
        expect(busy.code).toBe(9);
        expect(busy.stderr).toContain('HTTP 429');
      },
      () => hits++,
    );
    expect(hits).toBe(4); // the request and its three retries
    // the sandbox's own refusal of a run's submission; KCT_MAX_RETRIES=0 gives up at the first
    const limited = await asUser(sandbox)(
      ['one-pass', '--model', '12', '--text', answer, '--student-id', 'kct-429', '--idempotency-key', `k-${Date.now()}`],
      { env: { KCT_MAX_RETRIES: '0' } },
    );
    expect(limited.code).toBe(9);
    expect(limited.stderr).toContain('HTTP 429');
  });

  it('9 for a server that answers 500 (500 is not a retried status: one request)', async () => {
    let hits = 0;
    await withServer(
      500,
      { message: 'boom' },
      async (baseUrl) => {
        const run = await runKct(['models'], { env: kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: 'kct_test_key_123456' }) });
        expect(run.code).toBe(9);
        expect(run.stderr).toContain('boom');
      },
      () => hits++,
    );
    expect(hits).toBe(1);
  });

  it('1 for a web server that is not the API: a page refusing the method (HTTP 501, as python -m http.server answers a POST) is no busy service', async () => {
    const server: Server = createServer((_, res) => {
      res.writeHead(501, { 'content-type': 'text/html' });
      res.end("<html><body><h1>Error response</h1><p>Error code: 501</p><p>Unsupported method ('POST')</p></body></html>");
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const run = await runKct(['one-pass', '--model', '12', '--text', answer], {
        env: kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: 'kct_test_key_123456' }),
      });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('did not answer like the Public Evaluation API');
      expect(run.stderr).not.toContain('busy');
    } finally {
      server.close();
    }
  });

  it('130 on Ctrl-C while watching, saying how to resume; the task keeps running', async () => {
    // a Ctrl-C in-process (main's signal); the real SIGINT to the process is test/e2e/signals-and-terminals.test.ts
    const kct = asUser(sandbox);
    const ctrlC = new AbortController();
    const run = await kct(['one-pass', '--model', '12', '--text', `${answer} (interrupt) KCT-SANDBOX-SLOW`], {
      signal: ctrlC.signal,
      onStderr: (_, all) => {
        if (all.includes('accepted')) ctrlC.abort();
      },
    });
    expect(ctrlC.signal.aborted).toBe(true);
    expect(run.code).toBe(130);
    const id = /tsk_[0-9a-f]+/.exec(run.stderr)?.[0];
    expect(run.stderr).toContain(`kct status ${id} --watch`);
    const status = parseJson<{ status: string }>((await kct(['status', id!, '--json'])).stdout);
    expect(status.status).not.toBe('CANCEL');
    await kct(['cancel', id!]);
  });

  it('130 on Ctrl-C while following an answer sent before: the same hint, naming its task (not a class run’s --resume)', async () => {
    const kct = asUser(sandbox, 'user', tempDir());
    const text = `${answer} (interrupt, sent before) KCT-SANDBOX-SLOW`;
    const sent = await kct(['one-pass', '--model', '12', '--text', text, '--no-wait', '--json']);
    const id = parseJson<{ task_id: string }>(sent.stdout).task_id;
    const ctrlC = new AbortController();
    const run = await kct(['one-pass', '--model', '12', '--text', text], {
      signal: ctrlC.signal,
      onStderr: (_, all) => {
        // once its task is followed (a status line of it)
        if (all.includes(`kct: ${id}`)) ctrlC.abort();
      },
    });
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain(`Resume with: kct status ${id} --watch`);
    expect(run.stderr).not.toContain('--resume');
    await kct(['cancel', id]);
  });

  it('help exit-codes lists every code', async () => {
    const run = await runKct(['help', 'exit-codes']);
    expect(run.code).toBe(0);
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 130]) expect(run.stdout).toMatch(new RegExp(`^\\s+${code}\\s`, 'm'));
  });
});

async function withServer(status: number, body: unknown, use: (baseUrl: string) => Promise<void>, onRequest?: () => void): Promise<void> {
  const server: Server = createServer((_, res) => {
    onRequest?.();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
  } finally {
    server.close();
  }
}
