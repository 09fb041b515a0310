// With --latency 0 a queued task of pasted text, marked by the deterministic grader, goes
// QUEUED -> SUCCESS (or FAILURE) in one compare-and-swap that also stores what the skipped stages
// would have (src/sandbox/tasks/worker.ts atOnce). A trigger added to the test's database logs
// every status change the sandbox commits, so "one swap" is read back, not guessed from polls.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { taskRecord } from '../../packages/sandbox/src/http/responses.js';
import { createSandbox } from '../../packages/sandbox/src/server.js';
import type { Db } from '../../packages/sandbox/src/store/db.js';
import { availableDrivers, type DriverName, openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import type { Store } from '../../packages/sandbox/src/store/store.js';
import { accept } from '../../packages/sandbox/src/tasks/accept.js';
import { cancel, completeAndCharge, fail, type TaskPatch } from '../../packages/sandbox/src/tasks/transitions.js';
import type { TestSandbox } from '../unit/sandbox-helpers.js';
import { closeSeededStore, ESSAY, launch, makeDataDir, onePassTask, openSeededStore, RESULT, textForm } from '../unit/sandbox-helpers.js';

/** The columns atOnce sets in its swap (worker.ts: the last of PROGRESS_STEPS, 3/4 done). */
const PATCH: TaskPatch = { prepared_json: '{"text":"x"}', cur_step: 4, total_step: 4, cur_step_name: 'Writing feedback', progress: 75 };

describe.each(availableDrivers())('the at-once transitions on %s', (driver: DriverName) => {
  let dir: string;
  let db: Db;
  let store: Store;
  let userId: number;

  beforeEach(async () => {
    ({ dir, db, store, userId } = await openSeededStore(driver));
  });
  afterEach(() => closeSeededStore(db, dir));

  function queued(cost: number) {
    const out = accept(store, { endpoint: 'test', fingerprint: `f${Math.random()}`, task: onePassTask(userId, cost), respond: taskRecord });
    if (out.kind !== 'created') throw new Error('not created');
    return out.task;
  }
  const row = (id: string) =>
    db
      .prepare(
        'SELECT status, credits_charged, retryable, message, prepared_json, cur_step, total_step, cur_step_name, progress FROM tasks WHERE task_id = ?',
      )
      .get(id) as Record<string, unknown>;

  test('completeAndCharge from QUEUED: SUCCESS with the patch, charged once, and the queue no longer counts it', () => {
    const a = queued(5);
    const b = queued(3);
    expect(store.queuePlace(b.seq)).toEqual({ position: 2, length: 2 });
    expect(store.balance(userId)).toEqual({ credits: 1000, reserved: 8 });
    expect(completeAndCharge(store, a.task_id, RESULT, 'QUEUED', PATCH)).toBe('charged');
    expect(row(a.task_id)).toEqual({ status: 'SUCCESS', credits_charged: 5, retryable: 0, message: null, ...PATCH });
    expect(store.balance(userId)).toEqual({ credits: 995, reserved: 3 });
    expect(store.queuePlace(b.seq)).toEqual({ position: 1, length: 1 });
    // a second attempt is a lost race: no second charge
    expect(completeAndCharge(store, a.task_id, RESULT, 'QUEUED', PATCH)).toBe('lost_race');
    expect(store.balance(userId)).toEqual({ credits: 995, reserved: 3 });
  });

  test('completeAndCharge from QUEUED on a task already past QUEUED or CANCEL changes nothing', () => {
    const a = queued(5);
    const b = queued(4);
    expect(cancel(store, a.task_id, userId).kind).toBe('cancelled');
    expect(completeAndCharge(store, a.task_id, RESULT, 'QUEUED', PATCH)).toBe('lost_race');
    expect(row(a.task_id)).toMatchObject({ status: 'CANCEL', credits_charged: 0, prepared_json: null, cur_step: null, progress: null });
    expect(fail(store, a.task_id, 'QUEUED', 'late', false, PATCH)).toBe(false);
    expect(row(a.task_id)).toMatchObject({ status: 'CANCEL', prepared_json: null, cur_step: null });
    expect(store.balance(userId)).toEqual({ credits: 1000, reserved: 4 });
    expect(store.queuePlace(b.seq)).toEqual({ position: 1, length: 1 });
  });

  test('fail from QUEUED with the patch: FAILURE, retryable as asked, uncharged, out of the queue', () => {
    const a = queued(5);
    const b = queued(2);
    const c = queued(1);
    expect(fail(store, a.task_id, 'QUEUED', 'on purpose', false, PATCH)).toBe(true);
    expect(row(a.task_id)).toEqual({ status: 'FAILURE', credits_charged: 0, retryable: 0, message: 'on purpose', ...PATCH });
    expect(store.queuePlace(c.seq)).toEqual({ position: 2, length: 2 });
    expect(fail(store, b.task_id, 'QUEUED', 'cannot pay', true, PATCH)).toBe(true);
    expect(row(b.task_id)).toMatchObject({ status: 'FAILURE', retryable: 1, cur_step: 4, progress: 75 });
    expect(store.queuePlace(c.seq)).toEqual({ position: 1, length: 1 });
    expect(store.balance(userId)).toEqual({ credits: 1000, reserved: 1 });
    // result_json carries the spec's error entry
    const result = JSON.parse(
      (db.prepare('SELECT result_json FROM tasks WHERE task_id = ?').get(a.task_id) as { result_json: string }).result_json,
    );
    expect(result).toEqual({ evaluation: [{ type: 'error', item: 'error', comment: 'on purpose' }] });
  });

  test('completeAndCharge from QUEUED that cannot be paid rolls back: still QUEUED, unpatched, in the queue', () => {
    const a = queued(10);
    db.prepare('UPDATE users SET credits = 4 WHERE id = ?').run(userId);
    expect(completeAndCharge(store, a.task_id, RESULT, 'QUEUED', PATCH)).toBe('insufficient_credits');
    expect(row(a.task_id)).toMatchObject({ status: 'QUEUED', credits_charged: 0, prepared_json: null, cur_step: null });
    expect(store.queuePlace(a.seq)).toEqual({ position: 1, length: 1 });
    expect(store.balance(userId)).toEqual({ credits: 4, reserved: 10 });
  });
});

// ---------- through a real sandbox ----------

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A seeded data dir, not in use, whose database logs every committed status change in status_log. */
async function loggedDir(): Promise<string> {
  const dir = await makeDataDir();
  const sb = await createSandbox({ dataDir: dir });
  await sb.close();
  const db = openSqlite(join(dir, 'sandbox.db'));
  try {
    db.exec(`CREATE TABLE status_log (n INTEGER PRIMARY KEY, task_id TEXT, old TEXT, new TEXT, at REAL);
      CREATE TRIGGER status_logged AFTER UPDATE OF status ON tasks WHEN OLD.status <> NEW.status
      BEGIN INSERT INTO status_log (task_id, old, new, at) VALUES (NEW.task_id, OLD.status, NEW.status, unixepoch('subsec')); END;`);
  } finally {
    db.close();
  }
  return dir;
}

async function started(dir: string, options: Parameters<typeof launch>[0] = {}): Promise<TestSandbox> {
  const sb = await launch(options, dir);
  cleanups.push(() => sb.dispose());
  return sb;
}

/** Reads the data dir's database on a connection of its own (the sandbox keeps writing through its own). */
function read<T>(dir: string, sql: string, ...args: unknown[]): T {
  const db = openSqlite(join(dir, 'sandbox.db'), { readonly: true });
  try {
    return db.prepare(sql).get(...args) as T;
  } finally {
    db.close();
  }
}
const moves = (dir: string, taskId: string): string =>
  read<{ m: string | null }>(
    dir,
    `SELECT group_concat(old || '>' || new, ' ') AS m FROM (SELECT old, new FROM status_log WHERE task_id = ? ORDER BY n)`,
    taskId,
  ).m ?? '';
const taskRow = (dir: string, taskId: string) =>
  read<Record<string, unknown>>(
    dir,
    'SELECT status, credit_cost, credits_charged, retryable, message, prepared_json, cur_step, total_step, cur_step_name, progress FROM tasks WHERE task_id = ?',
    taskId,
  );
const userRow = (dir: string) =>
  read<{ id: number; credits: number; reserved: number }>(dir, `SELECT id, credits, reserved FROM users WHERE name = 'user'`);

/** Tasks written straight into a stopped sandbox's database, queued, as accepted before a restart. */
function insertQueued(dir: string, tasks: { id: string; cost: number; paper: string }[], credits: number): void {
  const db = openSqlite(join(dir, 'sandbox.db'));
  try {
    const owner = (db.prepare(`SELECT id FROM users WHERE name = 'user'`).get() as { id: number }).id;
    const insert =
      db.prepare(`INSERT INTO tasks (task_id, kind, owner_user_id, scope, model_id, status, credit_cost, input_json, created_at, updated_at)
      VALUES (?, 'one_pass', ?, 'user', 12, 'QUEUED', ?, ?, 'now', 'now')`);
    for (const t of tasks) insert.run(t.id, owner, t.cost, JSON.stringify({ model_id: 12, paper_content: t.paper }));
    db.prepare('UPDATE users SET credits = ? WHERE id = ?').run(credits, owner);
  } finally {
    db.close();
  }
}

describe('a sandbox with --latency 0', () => {
  test("pasted text: QUEUED -> SUCCESS in one swap, the skipped stages' columns stored, charged exactly once", async () => {
    const dir = await loggedDir();
    const sb = await started(dir);
    const before = userRow(dir);
    const res = await sb.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: ESSAY } });
    expect(res.status).toBe(202);
    const id = res.body.data.task_id as string;
    const cost = res.body.data.credit_cost as number;
    expect(cost).toBeGreaterThan(0);
    expect((await sb.waitFor(id, sb.keys.user)).status).toBe('SUCCESS');
    expect(moves(dir, id)).toBe('QUEUED>SUCCESS');
    const row = taskRow(dir, id);
    expect(row).toMatchObject({
      status: 'SUCCESS',
      credits_charged: cost,
      retryable: 0,
      message: null,
      cur_step: 4,
      total_step: 4,
      cur_step_name: 'Writing feedback',
      progress: 75,
    });
    expect(typeof row.prepared_json).toBe('string');
    expect(row.prepared_json as string).toContain('School uniforms');
    expect(userRow(dir)).toEqual({ id: before.id, credits: before.credits - cost, reserved: 0 });
    const record = (await sb.call('GET', `/evaluations/${id}`)).body.data;
    expect(record).toMatchObject({ status: 'SUCCESS', credits_charged: cost });
    expect(record.score).toBeGreaterThan(0);
  });

  test(`the magic fail input: QUEUED -> FAILURE in one swap, not retryable, uncharged`, async () => {
    const dir = await loggedDir();
    const sb = await started(dir);
    const before = userRow(dir);
    const res = await sb.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: `${ESSAY} KCT-SANDBOX-FAIL` } });
    expect(res.status).toBe(202);
    const id = res.body.data.task_id as string;
    expect((await sb.waitFor(id, sb.keys.user)).status).toBe('FAILURE');
    expect(moves(dir, id)).toBe('QUEUED>FAILURE');
    const row = taskRow(dir, id);
    expect(row).toMatchObject({ status: 'FAILURE', credits_charged: 0, retryable: 0, cur_step: 4, total_step: 4, progress: 75 });
    expect(row.message).toMatch(/KCT-SANDBOX-FAIL/);
    expect(row.prepared_json).not.toBeNull();
    expect(userRow(dir)).toEqual({ ...before, reserved: 0 });
    const record = (await sb.call('GET', `/evaluations/${id}`)).body.data;
    expect(record).toMatchObject({ status: 'FAILURE', retryable: false, credits_charged: 0 });
  });

  test('credits too low at completion: QUEUED -> FAILURE, retryable, uncharged; the one that can pay is charged', async () => {
    const dir = await loggedDir();
    // queued before the restart; the balance has dropped to 6 since: the first (5) is paid, the second (5) cannot be
    insertQueued(
      dir,
      [
        { id: 'tsk_low_a', cost: 5, paper: ESSAY },
        { id: 'tsk_low_b', cost: 5, paper: `${ESSAY} again` },
      ],
      6,
    );
    const sb = await started(dir, { workers: 1 });
    expect((await sb.waitFor('tsk_low_b', sb.keys.user)).status).toBe('FAILURE');
    expect((await sb.waitFor('tsk_low_a', sb.keys.user)).status).toBe('SUCCESS');
    expect(moves(dir, 'tsk_low_a')).toBe('QUEUED>SUCCESS');
    expect(moves(dir, 'tsk_low_b')).toBe('QUEUED>FAILURE');
    expect(taskRow(dir, 'tsk_low_b')).toMatchObject({ status: 'FAILURE', credits_charged: 0, retryable: 1, cur_step: 4, progress: 75 });
    expect(taskRow(dir, 'tsk_low_b').message).toMatch(/no longer has enough credits/);
    expect(userRow(dir)).toMatchObject({ credits: 1, reserved: 0 });
  });

  test('a text file, or the magic slow input, still goes through the stages a poll can see', async () => {
    const dir = await loggedDir();
    // timeScale 3: the slow input's stages last 500 ms, which every poll still sees
    const sb = await started(dir, { timeScale: 3 });
    const withFile = await sb.call('POST', '/evaluations/one-pass', {
      form: textForm(['model_id', '12'], ['answer_file', ESSAY, 'essay.txt']),
    });
    expect(withFile.status).toBe(202);
    const slow = await sb.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: `${ESSAY} KCT-SANDBOX-SLOW` } });
    expect(slow.status).toBe(202);
    // the slow one lasts SLOW_EXTRA_MS in its stages: a poll finds it past QUEUED and unfinished
    const seen = await sb.waitFor(
      slow.body.data.task_id,
      sb.keys.user,
      (s) => !['QUEUED', 'SUCCESS', 'FAILURE', 'CANCEL'].includes(s.status),
    );
    expect(['UPLOADING', 'SUBMITTED', 'PROGRESS']).toContain(seen.status);
    for (const id of [withFile.body.data.task_id, slow.body.data.task_id] as string[]) {
      expect((await sb.waitFor(id, sb.keys.user)).status).toBe('SUCCESS');
      expect(moves(dir, id)).toBe('QUEUED>UPLOADING UPLOADING>SUBMITTED SUBMITTED>PROGRESS PROGRESS>SUCCESS');
      expect(taskRow(dir, id)).toMatchObject({ cur_step: 4, total_step: 4 });
    }
    expect(userRow(dir).reserved).toBe(0);
    // from its first move to its last, two stages slept 1500 ms each divided by the time scale:
    // about 1 s, where unscaled they take at least 3 s
    const { ms } = read<{ ms: number }>(
      dir,
      'SELECT (MAX(at) - MIN(at)) * 1000 AS ms FROM status_log WHERE task_id = ?',
      slow.body.data.task_id,
    );
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(3_000);
  });

  test('a task cancelled while queued stays CANCEL, uncharged', async () => {
    const dir = await loggedDir();
    // workers: 1 and a slow task first, so the second waits in the queue to be cancelled
    const sb = await started(dir, { workers: 1, timeScale: 3 });
    const before = userRow(dir);
    const blocker = await sb.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: `${ESSAY} KCT-SANDBOX-SLOW` } });
    const victim = await sb.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: ESSAY } });
    const id = victim.body.data.task_id as string;
    expect((await sb.call('POST', `/evaluations/${id}/cancel`)).status).toBe(200);
    expect((await sb.waitFor(blocker.body.data.task_id, sb.keys.user)).status).toBe('SUCCESS');
    expect(moves(dir, id)).toBe('QUEUED>CANCEL');
    expect(taskRow(dir, id)).toMatchObject({ status: 'CANCEL', credits_charged: 0, prepared_json: null });
    expect(userRow(dir)).toMatchObject({ credits: before.credits - (blocker.body.data.credit_cost as number), reserved: 0 });
  });
});

describe('a sandbox with --latency 100', () => {
  test('pasted text goes through every stage, PROGRESS seen by a poll, and is charged once', async () => {
    const dir = await loggedDir();
    const sb = await started(dir, { latencyMs: 100 });
    const before = userRow(dir);
    const res = await sb.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: ESSAY } });
    const id = res.body.data.task_id as string;
    expect((await sb.waitFor(id, sb.keys.user, (s) => s.status === 'PROGRESS' || s.status === 'SUCCESS')).status).toBe('PROGRESS');
    expect((await sb.waitFor(id, sb.keys.user)).status).toBe('SUCCESS');
    expect(moves(dir, id)).toBe('QUEUED>UPLOADING UPLOADING>SUBMITTED SUBMITTED>PROGRESS PROGRESS>SUCCESS');
    expect(userRow(dir)).toMatchObject({ credits: before.credits - (res.body.data.credit_cost as number), reserved: 0 });
  });
});
