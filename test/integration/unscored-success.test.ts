// A service that answers SUCCESS with no score (liberal in what kct accepts, truthful in what it
// says): no mark, no failure, so exit 1, and the summary, the list of answers not marked and the
// exit message agree. The service is outside the project: a small server stands in for it.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kctEnv, parseJson, runKct, tempDir } from './harness.js';

let server: Server;
let baseUrl: string;
let submitted = 0;
/** The next batches are answered as `tsk_short`, whose record leaves an item out. */
let shortBatch = false;

/** Each answer its own task; every task ends SUCCESS, its result without a score; `tsk_batch` is a batch of two, one item unscored. */
function answer(url: string): [number, unknown] {
  if (url.endsWith('/evaluations/one-pass')) {
    submitted += 1;
    return [202, { task_id: `tsk_${submitted}`, status: 'QUEUED', stage: 'queued', credits_charged: 0, credit_cost: 1, retryable: false }];
  }
  if (url.endsWith('/evaluations')) return [202, { task_id: 'tsk_legacy', status: 'PENDING', credits_charged: 1 }];
  if (url.endsWith('/evaluations/batch'))
    return [
      202,
      {
        task_id: shortBatch ? 'tsk_short' : 'tsk_batch',
        status: 'QUEUED',
        stage: 'queued',
        count: 2,
        credits_charged: 0,
        credit_cost: 2,
        retryable: false,
      },
    ];
  const status = /\/evaluations\/([^/]+)\/status$/.exec(url);
  if (status) return [200, { task_id: status[1], status: 'SUCCESS', stage: 'completed' }];
  if (url.endsWith('/evaluations/tsk_batch'))
    return [
      200,
      {
        task_id: 'tsk_batch',
        status: 'SUCCESS',
        stage: 'completed',
        count: 2,
        items: [
          { task_id: 'tsk_batch_0', status: 'SUCCESS', score: 6 },
          { task_id: 'tsk_batch_1', status: 'SUCCESS', evaluation: [] },
        ],
      },
    ];
  // a batch whose record lists one of its two items: the other has no result at all
  if (url.endsWith('/evaluations/tsk_short'))
    return [
      200,
      {
        task_id: 'tsk_short',
        status: 'SUCCESS',
        stage: 'completed',
        count: 2,
        items: [{ index: 0, task_id: 'tsk_batch_0', status: 'SUCCESS' }],
      },
    ];
  if (url.endsWith('/evaluations/tsk_batch_0'))
    return [200, { task_id: 'tsk_batch_0', status: 'SUCCESS', stage: 'completed', score: 6, evaluation: [], credits_charged: 1 }];
  const result = /\/evaluations\/([^/]+)$/.exec(url);
  if (result) return [200, { task_id: result[1], status: 'SUCCESS', stage: 'completed', score: null, evaluation: [], credits_charged: 1 }];
  return [404, { message: 'not found' }];
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const [status, body] = answer(req.url ?? '');
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server?.close();
});

const kct = (args: string[]) => runKct(args, { env: kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: 'kct_test_key_123456' }) });

function essays(count: number): string[] {
  const dir = tempDir();
  return Array.from({ length: count }, (_, i) => {
    const path = join(dir, `essay${i}.txt`);
    writeFileSync(path, `Essay ${i}: uniforms should be optional, because choice teaches responsibility.`);
    return path;
  });
}

describe('a task that ends SUCCESS with no score', () => {
  it('one answer: the record says there is no total, and kct exits 1 naming the task', async () => {
    const run = await kct(['one-pass', ...essays(1), '--model', '12']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('Total: none in the result');
    expect(run.stderr).toMatch(/error: task tsk_\d+ ended SUCCESS with no score in its result/);
    expect(run.stderr).toMatch(/kct result tsk_\d+ --json/);
  });

  it('a class: the summary, the list of answers not marked and the exit message count the same answers', async () => {
    const run = await kct(['one-pass', ...essays(3), '--model', '12', '--output', 'csv']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('Summary: 0 of 3 answers marked, 3 ended SUCCESS with no score');
    expect(run.stderr).toContain('Not marked (3):');
    expect(run.stderr).toContain('no score in the result');
    expect(run.stderr).toMatch(/error: 3 of 3 answers ended SUCCESS with no score in the result \(tasks tsk_\d+, tsk_\d+, tsk_\d+\)/);
    expect(run.stdout.trim().split('\n')).toHaveLength(4);
  });

  it('--json: the summary counts them as no_score, and the error is exit_code 1', async () => {
    const run = await kct(['one-pass', ...essays(2), '--model', '12', '--json']);
    expect(run.code, run.stderr).toBe(1);
    const lines = run.stderr
      .trim()
      .split('\n')
      .map((line) => parseJson(line) as Record<string, Record<string, unknown>>);
    const summary = lines.find((line) => line.notice?.summary)?.notice.summary as Record<string, unknown>;
    expect(summary).toMatchObject({ answers: 2, marked: 0, no_score: 2 });
    expect(lines.at(-1)?.error).toMatchObject({ code: 'unknown_answer', exit_code: 1 });
  });

  it('kct evaluate (the legacy path) of such a task: exit 1 too, after printing it', async () => {
    const run = await kct(['evaluate', '--assignment', '3', '--text', 'Uniforms should be optional, because choice teaches.']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('Total: none in the result');
    expect(run.stderr).toContain('task tsk_legacy ended SUCCESS with no score in its result');
  });

  it('kct result and kct status of such a task exit 1 after printing it', async () => {
    const result = await kct(['result', 'tsk_9']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('Total: none in the result');
    const status = await kct(['status', 'tsk_9']);
    expect(status.code, status.stderr).toBe(1);
    expect(status.stdout).toContain('SUCCESS');
  });

  it('kct batch whose item has no score: its row is not marked, and kct exits 1 naming the item', async () => {
    const manifest = join(tempDir(), 'answers.jsonl');
    writeFileSync(
      manifest,
      `${JSON.stringify({ student_id: 's1', paper_content: 'Uniforms: optional, because choice teaches.' })}\n${JSON.stringify({ student_id: 's2', paper_content: 'Uniforms: required, because they are fair.' })}\n`,
    );
    const run = await kct(['batch', manifest, '--model', '12', '--output', 'csv']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('1 of 2 answers ended SUCCESS with no score in the result (task tsk_batch_1)');
    expect(run.stderr).toContain('Summary: 1 of 2 answers marked, 1 ended SUCCESS with no score');
    expect(run.stderr).toContain('finished: marking 2 items: 1 marked, 1 not marked');
  });

  it('kct result of a batch with an item that has no score: exit 1, naming the item', async () => {
    const run = await kct(['result', 'tsk_batch']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('1 of 2 answers ended SUCCESS with no score in the result (task tsk_batch_1)');
  });

  it('a batch whose record leaves an item out: the row says so, and kct exits 1 naming it (kct batch and one-pass --via batch)', async () => {
    shortBatch = true;
    try {
      const via = await kct(['one-pass', ...essays(2), '--model', '12', '--via', 'batch', '--output', 'csv']);
      expect(via.code, via.stderr).toBe(1);
      expect(via.stdout).toContain('returned no item 2');
      expect(via.stderr).toContain('Summary: 1 of 2 answers marked');
      expect(via.stderr).toMatch(/error: 1 of 2 answers have no result: the batch tsk_short returned no item 2/);
      const manifest = join(tempDir(), 'answers.jsonl');
      writeFileSync(
        manifest,
        `${JSON.stringify({ student_id: 's1', paper_content: 'Uniforms: optional, because choice teaches.' })}\n${JSON.stringify({ student_id: 's2', paper_content: 'Uniforms: required, because they are fair.' })}\n`,
      );
      const batch = await kct(['batch', manifest, '--model', '12', '--output', 'csv']);
      expect(batch.code, batch.stderr).toBe(1);
      expect(batch.stderr).toMatch(/error: 1 of 2 answers have no result: the batch tsk_short returned no item 2/);
    } finally {
      shortBatch = false;
    }
  });

  it('kct result and kct status of a finished batch whose record leaves an item out: exit 1, saying how many it lists', async () => {
    for (const args of [
      ['result', 'tsk_short'],
      ['status', 'tsk_short'],
    ]) {
      const run = await kct(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(1);
      expect(run.stderr).toContain('the batch tsk_short lists 1 of its 2 items');
    }
  });
});
