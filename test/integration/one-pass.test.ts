import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, GENERATED, parseJson, tempDir, useSandbox } from './harness.js';

interface Result {
  task_id: string;
  status: string;
  score: number;
  credits_charged: number;
  evaluation: { item: string; score: number; max_score: number; feedback: string; type?: string; comment?: string }[];
}

const shared = useSandbox();

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');

describe('kct one-pass', () => {
  it('marks text from --text and prints the score table', async () => {
    const run = await shared.kct(['one-pass', '--model', '12', '--text', essay]);
    expect(run.stderr).toContain('kct: accepted tsk_');
    expect(run.code).toBe(0);
    // under --json the notice carries the task's id as a field, as batch's does
    const json = await shared.kct(['one-pass', '--model', '12', '--text', `${essay} (json notice)`, '--json']);
    const accepted = json.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { notice?: { message: string; task_id?: string; credit_cost?: number } })
      .find((line) => line.notice?.message.startsWith('accepted '));
    expect(accepted?.notice?.task_id).toMatch(/^tsk_/);
    expect(accepted?.notice?.message).toContain(accepted?.notice?.task_id);
    expect(run.stdout).toMatch(/Task tsk_[0-9a-f]+ +SUCCESS/);
    expect(run.stdout).toMatch(/Total: \d+(\.5)? \/ 20/);
    expect(run.stdout).toContain('Criterion');
    expect(run.stdout).toContain('Thesis');
    // progress goes to stderr, one plain line per change off a TTY
    expect(run.stderr).toMatch(/SUCCESS/);
  });

  it('marks text from stdin with --json, printing the record as received', async () => {
    const run = await shared.kct(['one-pass', '-', '--model', '12', '--json', '--student-id', 's-42'], { input: essay });
    expect(run.code).toBe(0);
    const result = parseJson<Result & { student_id: string }>(run.stdout);
    expect(result.status).toBe('SUCCESS');
    expect(result.student_id).toBe('s-42');
    expect(result.evaluation.length).toBe(4);
    for (const entry of result.evaluation) {
      expect(entry.score).toBeGreaterThanOrEqual(0);
      expect(entry.score).toBeLessThanOrEqual(entry.max_score);
      expect(entry.feedback.length).toBeGreaterThan(0);
    }
    expect(result.credits_charged).toBeGreaterThan(0);
  });

  for (const file of ['essay.txt', 'generated/essay.pdf', 'generated/essay.docx', 'generated/essay.rtf', 'generated/essay-opening.png']) {
    it(`marks an answer file: ${file}`, async () => {
      const run = await shared.kct(['one-pass', join(FIXTURES, file), '--model', '12', '--json'], { timeoutMs: 180_000 });
      expect(run.stderr).not.toContain('error');
      expect(run.code).toBe(0);
      const result = parseJson<Result>(run.stdout);
      expect(result.status).toBe('SUCCESS');
      expect(result.score).toBeGreaterThan(0);
    }, 240_000);
  }

  it('gives the same result for the same text (deterministic grader), and the same command twice is the same task', async () => {
    const a = parseJson<Result>(
      (await shared.kct(['one-pass', '--model', '13', '--text', essay, '--json', '--idempotency-key', `det-a-${Date.now()}`])).stdout,
    );
    // the same content marked before is reused (no new charge): --mark-again pays to mark it anew
    const b = parseJson<Result>(
      (
        await shared.kct([
          'one-pass',
          '--model',
          '13',
          '--text',
          essay,
          '--json',
          '--idempotency-key',
          `det-b-${Date.now()}`,
          '--mark-again',
        ])
      ).stdout,
    );
    expect(a.task_id).not.toBe(b.task_id);
    expect(a.score).toBe(b.score);
    expect(a.evaluation).toEqual(b.evaluation);
    // without a key, the key is derived from what is sent: running the command again is free
    const first = parseJson<Result>((await shared.kct(['one-pass', '--model', '13', '--text', `${essay} once`, '--json'])).stdout);
    const again = parseJson<Result>((await shared.kct(['one-pass', '--model', '13', '--text', `${essay} once`, '--json'])).stdout);
    expect(again.task_id).toBe(first.task_id);
  });

  it('reports a FAILURE with the error comment, exit 3, and no charge', async () => {
    const before = parseJson<{ credits: number }>((await shared.kct(['credits', '--json'])).stdout).credits;
    const run = await shared.kct(['one-pass', '--model', '12', '--text', 'My answer. KCT-SANDBOX-FAIL']);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('FAILURE');
    expect(run.stdout).toMatch(/Reason: .*KCT-SANDBOX-FAIL/);
    expect(run.stderr).toContain('ended FAILURE');
    const json = await shared.kct(['one-pass', '--model', '12', '--text', 'Another. KCT-SANDBOX-FAIL', '--json']);
    expect(json.code).toBe(3);
    const result = parseJson<Result>(json.stdout);
    expect(result.status).toBe('FAILURE');
    expect(result.credits_charged).toBe(0);
    expect(result.evaluation.find((entry) => entry.type === 'error')?.comment).toBeTruthy();
    const after = parseJson<{ credits: number }>((await shared.kct(['credits', '--json'])).stdout).credits;
    expect(after).toBe(before);
  });

  it('an answer not in English ends FAILURE with the reason, uncharged, never a 0 to hand back (the offline grader reads English only)', async () => {
    const before = parseJson<{ credits: number }>((await shared.kct(['credits', '--json'])).stdout).credits;
    const spanish =
      'En mi opinión, los uniformes escolares deberían ser obligatorios, porque hacen que todos los estudiantes sean iguales y reducen las distracciones en clase. Además, las familias ahorran dinero.';
    const run = await shared.kct(['one-pass', '--model', '12', '--text', spanish, '--json']);
    expect(run.code).toBe(3);
    const result = parseJson<Result>(run.stdout);
    expect(result.status).toBe('FAILURE');
    expect(result.credits_charged).toBe(0);
    expect(result.evaluation.find((entry) => entry.type === 'error')?.comment).toMatch(/does not read as English[\s\S]*mark it/);
    expect(parseJson<{ credits: number }>((await shared.kct(['credits', '--json'])).stdout).credits).toBe(before);
  });

  it('an answer file with no readable text ends FAILURE (exit 3)', async () => {
    const run = await shared.kct(['one-pass', join(GENERATED, 'blank.pdf'), '--model', '12', '--json'], { timeoutMs: 90_000 });
    expect(run.code).toBe(3);
    const result = parseJson<Result>(run.stdout);
    expect(result.status).toBe('FAILURE');
    expect(result.evaluation[0].type).toBe('error');
  }, 120_000);

  it('--no-wait prints the accepted task; status and result read it back', async () => {
    // a new answer: the same text sent by an earlier test would be a replay, reported with its state now
    const run = await shared.kct(['one-pass', '--model', '12', '--text', `${essay}\n(sent with --no-wait)`, '--no-wait', '--json']);
    expect(run.code).toBe(0);
    const task = parseJson<{
      task_id: string;
      status: string;
      stage: string;
      credits_charged: number;
      credit_cost: number;
      billing_mode: string;
      scope: string;
    }>(run.stdout);
    expect(task.status).toBe('QUEUED');
    expect(task.stage).toBe('queued');
    expect(task.credits_charged).toBe(0);
    expect(task.credit_cost).toBeGreaterThan(0);
    expect(task.billing_mode).toBe('owner_user');
    expect(task.scope).toBe('user');
    const watch = await shared.kct(['status', task.task_id, '--watch', '--json']);
    expect(watch.code).toBe(0);
    expect(parseJson<{ status: string }>(watch.stdout).status).toBe('SUCCESS');
    const result = await shared.kct(['result', task.task_id]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Total: /);
  });

  it('idempotency: the same key and request return the same task; a changed answer is 409 (exit 7)', async () => {
    const key = `e2e-${Date.now()}`;
    // content never sent before: an answer marked before would be reused, with nothing sent under the key
    const text = `${essay} (${key})`;
    const first = parseJson<{ task_id: string }>(
      (await shared.kct(['one-pass', '--model', '12', '--text', text, '--idempotency-key', key, '--no-wait', '--json'])).stdout,
    );
    const again = parseJson<{ task_id: string }>(
      (await shared.kct(['one-pass', '--model', '12', '--text', text, '--idempotency-key', key, '--no-wait', '--json', '--mark-again']))
        .stdout,
    );
    expect(again.task_id).toBe(first.task_id);
    const changed = await shared.kct(['one-pass', '--model', '12', '--text', `${text} (edited)`, '--idempotency-key', key, '--no-wait']);
    expect(changed.code).toBe(7);
    expect(changed.stderr).toContain('HTTP 409');
  });

  it('idempotency with files: the same file is the same task, a changed file is 409', async () => {
    const dir = tempDir();
    const file = join(dir, 'answer.txt');
    writeFileSync(file, essay);
    const key = `e2e-file-${Date.now()}`;
    writeFileSync(file, `${essay} (${key})`);
    const first = parseJson<{ task_id: string }>(
      (await shared.kct(['one-pass', file, '--model', '12', '--idempotency-key', key, '--no-wait', '--json'])).stdout,
    );
    const again = parseJson<{ task_id: string }>(
      (await shared.kct(['one-pass', file, '--model', '12', '--idempotency-key', key, '--no-wait', '--json', '--mark-again'])).stdout,
    );
    expect(again.task_id).toBe(first.task_id);
    writeFileSync(file, `${essay} (${key})\nP.S. one more line.`);
    const changed = await shared.kct(['one-pass', file, '--model', '12', '--idempotency-key', key, '--no-wait']);
    expect(changed.code).toBe(7);
  });

  it('retries a 429 on submission with the same Idempotency-Key and succeeds', async () => {
    const run = await shared.kct([
      'one-pass',
      '--model',
      '12',
      '--text',
      `${essay} (429)`,
      '--student-id',
      'kct-429-once',
      '--idempotency-key',
      `retry-${Date.now()}`,
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('HTTP 429 from POST /evaluations/one-pass; retrying');
    expect(parseJson<Result>(run.stdout).status).toBe('SUCCESS');
  });

  it('retries a 503 with the derived Idempotency-Key (no key given) and succeeds', async () => {
    const run = await shared.kct(['one-pass', '--model', '12', '--text', `${essay} 503`, '--student-id', 'kct-503-once', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('HTTP 503 from POST /evaluations/one-pass; retrying');
    expect(parseJson<Result>(run.stdout).status).toBe('SUCCESS');
  });

  it('checks local files before sending anything', async () => {
    const dir = tempDir();
    const exe = join(dir, 'answer.exe');
    writeFileSync(exe, 'MZ');
    const unsupported = await shared.kct(['one-pass', exe, '--model', '12']);
    expect(unsupported.code).toBe(2);
    expect(unsupported.stderr).toContain('unsupported file type');
    const missing = await shared.kct(['one-pass', join(dir, 'nope.pdf'), '--model', '12']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('file not found');
    const noModel = await shared.kct(['one-pass', '--text', 'hello']);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('--model');
  });
});
