// Failure paths found in review, in-process: hostile or hanging servers, local files that cannot
// be used, and partial progress that must not be lost. The machine's own limits (a process with
// 256 file descriptors) are test/e2e/file-descriptors.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asUser, FIXTURES, fakeApi, kctEnv, parseJson, runKct, sendJson, tempDir, useSandbox } from './harness.js';

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

const shared = useSandbox();

/** Credits less those reserved: unchanged while earlier tests' tasks are charged (the 600 answers left queued). */
const available = async () => parseJson<{ available: number }>((await shared.kct(['credits', '--json'])).stdout).available;

describe('servers that misbehave', () => {
  it('control sequences in server text never reach the terminal', async () => {
    const api = await fakeApi((_req, res) => {
      sendJson(res, 200, {
        data: {
          task_id: 'tsk_x',
          status: 'PROGRESS',
          stage: 'processing',
          cur_step_name: 'grading\u001b]0;owned\u0007',
          message: 'clear\u001b[2J\u001b[Hscreen',
          progress: 40,
        },
      });
    });
    try {
      const env = { ...kctEnv(tempDir(), { KCT_BASE_URL: api.baseUrl, KCT_API_KEY: 'kct_test_key_123456' }), CI: undefined };
      const term = await runKct(['status', 'tsk_x'], { env, tty: true, columns: 100 });
      const run = { code: term.code, output: term.stdout + term.stderr };
      expect(run.code).toBe(0);
      expect(run.output).toContain('grading');
      expect(run.output).toContain('clearscreen');
      expect(run.output).not.toContain('\u001b]0;');
      expect(run.output).not.toContain('\u001b[2J');
    } finally {
      await api.close();
    }
  });

  it('a status request that never answers does not outlast --timeout (exit 8)', async () => {
    const api = await fakeApi(() => {
      // never answer
    });
    try {
      const run = await runKct(['status', 'tsk_hang', '--watch', '--timeout', '1s'], {
        env: kctEnv(tempDir(), { KCT_BASE_URL: api.baseUrl, KCT_API_KEY: 'kct_test_key_123456' }),
        timeoutMs: 30_000,
      });
      expect(run.code).toBe(8);
      expect(run.stderr).toContain('still not final after 1 s');
    } finally {
      await api.close();
    }
  });

  it('a server that takes the request and never answers: KCT_REQUEST_TIMEOUT bounds each attempt, said in words; a read is never "maybe charged"', async () => {
    const api = await fakeApi(() => {
      // take the request, never answer
    });
    try {
      // two attempts of 300 ms: without the bound, two minutes each would outlast the run's 30 s
      const run = await runKct(['credits'], {
        env: kctEnv(tempDir(), {
          KCT_BASE_URL: api.baseUrl,
          KCT_API_KEY: 'kct_test_key_123456',
          KCT_REQUEST_TIMEOUT: '300ms',
          KCT_MAX_RETRIES: '1',
          KCT_RETRY_BASE_DELAY: '10ms',
        }),
        timeoutMs: 30_000,
      });
      expect(run.code, run.stderr).toBe(9);
      expect(run.stderr).toContain('the server took the request and sent no answer in time');
      expect(run.stderr).toContain('KCT_REQUEST_TIMEOUT sets how long each attempt waits for an answer');
      expect(run.stderr).not.toContain('UND_ERR');
      expect(run.stderr).not.toContain('may have reached the server');
      // kct doctor, the CI smoke check, asks through its own probe: bounded the same way
      const doctor = await runKct(['doctor'], {
        env: kctEnv(tempDir(), {
          KCT_BASE_URL: api.baseUrl,
          KCT_API_KEY: 'kct_test_key_123456',
          KCT_REQUEST_TIMEOUT: '300ms',
          KCT_MAX_RETRIES: '0',
        }),
        timeoutMs: 30_000,
      });
      expect(doctor.code, doctor.stderr).toBe(9);
    } finally {
      await api.close();
    }
  });

  it('a submission the server took and never answered: kct evaluate (charged at acceptance, no key) never says "try again"; one-pass says the same command again is free', async () => {
    const api = await fakeApi((req, res) => {
      // an assignment the legacy path needs, then every submission taken and never answered
      if (req.method === 'GET') return sendJson(res, 200, { data: [] });
    });
    try {
      const env = kctEnv(tempDir(), {
        KCT_BASE_URL: api.baseUrl,
        KCT_API_KEY: 'kct_test_key_123456',
        KCT_REQUEST_TIMEOUT: '300ms',
        KCT_MAX_RETRIES: '0',
      });
      const legacy = await runKct(['evaluate', '-a', '1001', '--text', essay], { env, timeoutMs: 30_000 });
      expect(legacy.code, legacy.stderr).toBe(9);
      expect(legacy.stderr).toContain('Do not resubmit blindly');
      expect(legacy.stderr).not.toContain('try again');
      const keyed = await runKct(['one-pass', '--model', '12', '--text', essay], { env, timeoutMs: 30_000 });
      expect(keyed.code, keyed.stderr).toBe(9);
      expect(keyed.stderr).toContain('the same command (it finds the accepted tasks by their idempotency keys: nothing is charged twice)');
    } finally {
      await api.close();
    }
  });

  it('a failure the service calls retryable is submitted again under a follow-up key', async () => {
    const keys: string[] = [];
    const api = await fakeApi((req, res) => {
      const url = req.url ?? '';
      if (req.method === 'POST' && url.endsWith('/evaluations/one-pass')) {
        const key = String(req.headers['idempotency-key']);
        keys.push(key);
        return sendJson(res, 202, { task_id: key.endsWith('-retry1') ? 'tsk_second' : 'tsk_first', status: 'QUEUED' });
      }
      const first = url.includes('tsk_first');
      if (url.endsWith('/status'))
        return sendJson(res, 200, { task_id: first ? 'tsk_first' : 'tsk_second', status: first ? 'FAILURE' : 'SUCCESS' });
      return sendJson(
        res,
        200,
        first
          ? { task_id: 'tsk_first', status: 'FAILURE', retryable: true, evaluation: [{ type: 'error', comment: 'grader crashed' }] }
          : {
              task_id: 'tsk_second',
              status: 'SUCCESS',
              score: 7,
              evaluation: [{ item: 'Ideas', score: 7, max_score: 10, feedback: 'ok' }],
            },
      );
    });
    try {
      const run = await runKct(['one-pass', '--model', '12', '--text', essay, '--json'], {
        env: kctEnv(tempDir(), { KCT_BASE_URL: api.baseUrl, KCT_API_KEY: 'kct_test_key_123456' }),
      });
      expect(run.code).toBe(0);
      expect(parseJson<{ task_id: string }>(run.stdout).task_id).toBe('tsk_second');
      expect(run.stderr).toContain('submitting it again');
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(`${keys[0]}-retry1`);
    } finally {
      await api.close();
    }
  });

  it('uploads already stored are printed when a later upload fails', async () => {
    let count = 0;
    const api = await fakeApi((_, res) => {
      count += 1;
      if (count === 1)
        return sendJson(res, 201, {
          data: {
            name: 'essay.txt',
            mime_type: 'text/plain',
            size: 10,
            path: '/files/a/essay.txt',
            url: 'https://files.example/a/essay.txt',
          },
        });
      return sendJson(res, 500, { error: { message: 'disk full' } });
    });
    try {
      const run = await runKct(['upload', join(FIXTURES, 'essay.txt'), join(FIXTURES, 'short.txt'), '--output', 'ndjson'], {
        env: kctEnv(tempDir(), { KCT_BASE_URL: api.baseUrl, KCT_API_KEY: 'kct_test_key_123456' }),
      });
      expect(run.code).toBe(9);
      expect(run.stdout).toContain('https://files.example/a/essay.txt');
      expect(run.stderr).toContain('disk full');
    } finally {
      await api.close();
    }
  });
});

describe('local input that cannot be used', () => {
  it('an invalid base URL is a usage error at once, not a network retry', async () => {
    const run = await runKct(['credits', '--base-url', 'foo'], { env: kctEnv(tempDir(), { KCT_API_KEY: 'kct_test_key_123456' }) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the base URL must be a URL such as https://host/v1, not "foo"');
    expect(run.stderr).not.toContain('retrying');
    const login = await runKct(['auth', 'login', '--with-key', '--base-url', 'foo'], {
      env: kctEnv(tempDir()),
      input: 'kct_test_key_123456\n',
    });
    expect(login.code).toBe(2);
  });

  it('an unwritable --resume journal stops the run before anything is sent', async () => {
    const before = await available();
    const run = await shared.kct(['one-pass', '--model', '12', '--text', `${essay} journal`, '--resume', '/nonexistent-dir/marks.journal']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot write the journal');
    expect(await available()).toBe(before);
  });

  it('missing local files named by flags are usage errors (exit 2), not bugs', async () => {
    const run = await shared.kct([
      'callbacks',
      'verify',
      '--id',
      'msg_1',
      '--timestamp',
      '1',
      '--signature',
      'v1,x',
      '--secret-file',
      '/nonexistent/secret',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('bug');
  });

  it('a configured output format that is not one is refused with where it came from', async () => {
    const run = await shared.kct(['models'], { env: { KCT_OUTPUT: 'yaml' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('KCT_OUTPUT');
  });
});

describe('partial progress is kept', () => {
  it('cancelling a legacy task says its charge stays', async () => {
    const assignment = parseJson<{ assignment_id: number }>(
      (await shared.kct(['assign', '--model', '12', '--name', 'n', '--desc', 'd', '--deadline', '2026-12-31', '--expected', '1', '--json']))
        .stdout,
    );
    const task = parseJson<{ task_id: string }>(
      (
        await shared.kct([
          'evaluate',
          '--assignment',
          String(assignment.assignment_id),
          '--text',
          `${essay} KCT-SANDBOX-SLOW`,
          '--no-wait',
          '--json',
        ])
      ).stdout,
    );
    const cancel = await shared.kct(['cancel', task.task_id]);
    expect(cancel.code).toBe(0);
    expect(cancel.stdout).toMatch(/\d+ credits? charged at acceptance stays? charged/);
  });

  it('when a later batch request is refused (402), the accepted ones are still followed and printed', async () => {
    const member = asUser(shared.sandbox, 'org_member');
    const dir = tempDir('kct-batch-402-');
    // 1 credit each: the first two batches of 100 items reserve all 200 credits, the third is refused
    const lines = Array.from({ length: 250 }, (_, i) => JSON.stringify({ student_id: `m${i}`, paper_content: `${essay} ${i}` }));
    writeFileSync(join(dir, 'm.jsonl'), `${lines.join('\n')}\n`);
    const run = await member(['batch', join(dir, 'm.jsonl'), '--model', '31', '--output', 'ndjson'], { timeoutMs: 120_000 });
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('batch 3/3 was refused');
    // every item is a row: the 200 marked, and the 50 of the refused batch, NOT_SENT, saying why
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { student_id: string; status: string; message?: string });
    expect(rows).toHaveLength(250);
    const notSent = rows.filter((row) => row.status === 'NOT_SENT');
    expect(notSent.map((row) => row.student_id)).toEqual(Array.from({ length: 50 }, (_, i) => `m${200 + i}`));
    expect(notSent[0].message).toMatch(/^not sent: the service refused its batch \(/);
  }, 150_000);

  it('when the first batch request is refused (402), every item is a NOT_SENT row and the exit code is the refusal', async () => {
    const broke = asUser(shared.sandbox, 'broke');
    const dir = tempDir('kct-batch-broke-');
    const lines = Array.from({ length: 3 }, (_, i) => JSON.stringify({ student_id: `b${i}`, paper_content: `${essay} broke ${i}` }));
    writeFileSync(join(dir, 'b.jsonl'), `${lines.join('\n')}\n`);
    const run = await broke(['batch', join(dir, 'b.jsonl'), '--model', '15', '--output', 'ndjson']);
    expect(run.code).toBe(5);
    const rows = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { student_id: string; status: string; message?: string });
    expect(rows.map((row) => [row.student_id, row.status])).toEqual([
      ['b0', 'NOT_SENT'],
      ['b1', 'NOT_SENT'],
      ['b2', 'NOT_SENT'],
    ]);
    expect(rows[0].message).toMatch(/^not sent: the service refused its batch \(.*credits/i);
  });

  it('when the server cannot be reached, --json is still one array of NOT_SENT rows, as one-pass prints (exit 9)', async () => {
    const dir = tempDir('kct-batch-unreachable-');
    const lines = Array.from({ length: 2 }, (_, i) => JSON.stringify({ student_id: `u${i}`, paper_content: `${essay} unreachable ${i}` }));
    writeFileSync(join(dir, 'u.jsonl'), `${lines.join('\n')}\n`);
    const run = await runKct(['batch', join(dir, 'u.jsonl'), '--model', '12', '--json'], {
      env: kctEnv(tempDir(), { KCT_BASE_URL: 'http://127.0.0.1:1/v1', KCT_API_KEY: shared.sandbox.keys.user, KCT_MAX_RETRIES: '0' }),
    });
    expect(run.code, run.stderr).toBe(9);
    const rows = JSON.parse(run.stdout) as { student_id: string; status: string; message: string }[];
    expect(rows.map((row) => [row.student_id, row.status])).toEqual([
      ['u0', 'NOT_SENT'],
      ['u1', 'NOT_SENT'],
    ]);
    expect(rows[0].message).toMatch(/^not sent: its batch could not be sent \(cannot reach/);
  });

  it('a timed-out class run names the time limit', async () => {
    const dir = tempDir('kct-late-');
    writeFileSync(join(dir, 'a.txt'), `${essay} late a KCT-SANDBOX-SLOW`);
    writeFileSync(join(dir, 'b.txt'), `${essay} late b KCT-SANDBOX-SLOW`);
    const run = await shared.kct(['one-pass', dir, '--model', '12', '--timeout', '300ms', '--output', 'ndjson']);
    expect(run.code).toBe(8);
    expect(run.stderr).toContain('after 300 ms');
  });
});
