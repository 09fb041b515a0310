// The state-change, charging and idempotency functions, on a real database without HTTP.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { HttpError } from '../../packages/sandbox/src/http/envelope.js';
import { taskRecord } from '../../packages/sandbox/src/http/responses.js';
import type { Db } from '../../packages/sandbox/src/store/db.js';
import type { Store } from '../../packages/sandbox/src/store/store.js';
import { accept } from '../../packages/sandbox/src/tasks/accept.js';
import { fingerprint } from '../../packages/sandbox/src/tasks/fingerprint.js';
import { advance, cancel, completeAndCharge, fail } from '../../packages/sandbox/src/tasks/transitions.js';
import { canonicalJson } from '../../src/api/canonical.js';
import { closeSeededStore, onePassTask, openSeededStore, RESULT, toProgress } from './sandbox-helpers.js';

let dir: string;
let db: Db;
let store: Store;
let userId: number;

beforeEach(async () => {
  ({ dir, db, store, userId } = await openSeededStore());
});
afterEach(() => closeSeededStore(db, dir));

const newTask = (cost: number) => onePassTask(userId, cost);

function submitted(cost: number, key?: string, print = 'fp') {
  return accept(store, {
    endpoint: 'POST /v1/evaluations/one-pass',
    idempotencyKey: key,
    fingerprint: print,
    task: newTask(cost),
    respond: taskRecord,
  });
}

const credits = () => store.balance(userId).credits;

describe('charging', () => {
  test('completeAndCharge charges once; a second attempt is a lost race', () => {
    const out = submitted(7);
    if (out.kind !== 'created') throw new Error('expected a new task');
    toProgress(store, out.task.task_id);
    expect(completeAndCharge(store, out.task.task_id, RESULT)).toBe('charged');
    expect(completeAndCharge(store, out.task.task_id, RESULT)).toBe('lost_race');
    expect(credits()).toBe(993);
    expect(store.task(out.task.task_id)).toMatchObject({ status: 'SUCCESS', credits_charged: 7 });
  });

  test('a cancelled task can never become SUCCESS nor be charged', () => {
    const out = submitted(5);
    if (out.kind !== 'created') throw new Error('expected a new task');
    toProgress(store, out.task.task_id);
    expect(cancel(store, out.task.task_id, userId).kind).toBe('cancelled');
    expect(completeAndCharge(store, out.task.task_id, RESULT)).toBe('lost_race');
    expect(advance(store, out.task.task_id, 'PROGRESS', 'PROGRESS', { cur_step: 3 })).toBe(false);
    expect(fail(store, out.task.task_id, 'PROGRESS', 'late', false)).toBe(false);
    expect(store.task(out.task.task_id)).toMatchObject({ status: 'CANCEL', credits_charged: 0 });
    expect(credits()).toBe(1000);
    expect(cancel(store, out.task.task_id, userId)).toEqual({ kind: 'final', status: 'CANCEL' });
    expect(cancel(store, out.task.task_id, userId + 1)).toEqual({ kind: 'not_found' });
  });

  test('the balance never goes negative: a completion the owner cannot pay fails without charging', () => {
    const out = submitted(10);
    if (out.kind !== 'created') throw new Error('expected a new task');
    toProgress(store, out.task.task_id);
    db.prepare('UPDATE users SET credits = 3 WHERE id = ?').run(userId);
    expect(completeAndCharge(store, out.task.task_id, RESULT)).toBe('insufficient_credits');
    expect(credits()).toBe(3);
    expect(store.task(out.task.task_id)).toMatchObject({ status: 'PROGRESS', credits_charged: 0 });
  });
});

describe('acceptance', () => {
  test('unfinished tasks reserve their cost; a cost beyond what is available is 402', () => {
    expect(submitted(600).kind).toBe('created');
    expect(store.balance(userId)).toEqual({ credits: 1000, reserved: 600 });
    expect(() => submitted(401)).toThrow(HttpError);
    try {
      submitted(401);
    } catch (err) {
      expect((err as HttpError).status).toBe(402);
    }
    expect(submitted(400).kind).toBe('created');
    expect(store.balance(userId).reserved).toBe(1000);
  });

  test('idempotency: replay on the same fingerprint, 409 on another, nothing inserted either time', () => {
    const first = submitted(1, 'k', 'fp-a');
    expect(first.kind).toBe('created');
    const replay = submitted(1, 'k', 'fp-a');
    expect(replay).toMatchObject({ kind: 'replayed', taskId: (first as { task: { task_id: string } }).task.task_id });
    expect(() => submitted(1, 'k', 'fp-b')).toThrow(/different request/);
    expect((db.prepare('SELECT COUNT(*) AS c FROM tasks').get() as { c: number }).c).toBe(1);
  });

  test('a failing check rolls everything back', () => {
    expect(() =>
      accept(store, {
        endpoint: 'e',
        idempotencyKey: 'k2',
        fingerprint: 'f',
        task: newTask(1),
        respond: taskRecord,
        check: () => {
          throw new HttpError(409, 'model_not_ready', 'no');
        },
      }),
    ).toThrow(HttpError);
    expect((db.prepare('SELECT COUNT(*) AS c FROM idempotency').get() as { c: number }).c).toBe(0);
    expect((db.prepare('SELECT COUNT(*) AS c FROM tasks').get() as { c: number }).c).toBe(0);
  });
});

describe('status reads', () => {
  const STATUS_COLUMNS = [
    'seq',
    'task_id',
    'kind',
    'owner_user_id',
    'status',
    'message',
    'cur_step',
    'total_step',
    'cur_step_name',
    'progress',
  ] as const;
  const statusPart = (taskId: string) => {
    const row = store.task(taskId)!;
    return Object.fromEntries(STATUS_COLUMNS.map((c) => [c, row[c]]));
  };

  test('taskStatus() reads exactly the status columns of task(), at every stage', () => {
    const out = submitted(2);
    if (out.kind !== 'created') throw new Error('expected a new task');
    const id = out.task.task_id;
    expect(store.taskStatus(id)).toEqual(statusPart(id));
    toProgress(store, id);
    expect(advance(store, id, 'PROGRESS', 'PROGRESS', { cur_step: 2, total_step: 4, cur_step_name: 'Matching', progress: 25 })).toBe(true);
    expect(store.taskStatus(id)).toEqual(statusPart(id));
    expect(store.taskStatus(id)).toMatchObject({ status: 'PROGRESS', cur_step: 2, total_step: 4, cur_step_name: 'Matching', progress: 25 });
    expect(fail(store, id, 'PROGRESS', 'why', false)).toBe(true);
    expect(store.taskStatus(id)).toEqual(statusPart(id));
    expect(store.taskStatus(id)).toMatchObject({ status: 'FAILURE', message: 'why' });
    expect(store.taskStatus('tsk_nope')).toBeUndefined();
  });

  test('a progress step keeps the status and its place in the queue indexes', () => {
    const first = submitted(1);
    const second = submitted(1);
    if (first.kind !== 'created' || second.kind !== 'created') throw new Error('expected new tasks');
    expect(store.runnableTaskIds(5)).toEqual([first.task.task_id, second.task.task_id]);
    toProgress(store, first.task.task_id);
    expect(advance(store, first.task.task_id, 'PROGRESS', 'PROGRESS', { cur_step: 2 })).toBe(true);
    expect(advance(store, first.task.task_id, 'QUEUED', 'QUEUED', { cur_step: 3 })).toBe(false);
    expect(store.task(first.task.task_id)).toMatchObject({ status: 'PROGRESS', cur_step: 2 });
    expect(store.runnableTaskIds(5)).toEqual([first.task.task_id, second.task.task_id]);
    expect(store.queuePlace(second.task.seq)).toEqual({ position: 1, length: 1 });
    expect(store.balance(userId).reserved).toBe(2);
    expect(completeAndCharge(store, first.task.task_id, RESULT)).toBe('charged');
    expect(store.runnableTaskIds(5)).toEqual([second.task.task_id]);
    expect(store.balance(userId)).toEqual({ credits: 999, reserved: 1 });
  });
});

describe('fingerprint', () => {
  test('key order does not matter; values and file bytes do', () => {
    const file = { field: 'answer_file', name: 'a.txt', mime: 'text/plain', sha256: 'aa' };
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe('{"a":[{"x":1,"y":2}],"b":1}');
    expect(fingerprint({ a: 1, b: 2 }, [file])).toBe(fingerprint({ b: 2, a: 1 }, [file]));
    expect(fingerprint({ a: 1 }, [file])).not.toBe(fingerprint({ a: 2 }, [file]));
    expect(fingerprint({ a: 1 }, [file])).not.toBe(fingerprint({ a: 1 }, [{ ...file, sha256: 'ab' }]));
  });
});

describe('ids', () => {
  test('runtime object ids start at 1001, above every seeded model id', () => {
    const id = Number(db.prepare(`INSERT INTO object_ids (kind) VALUES ('assignment')`).run().lastInsertRowid);
    expect(id).toBe(1001);
    const maxModel = (db.prepare('SELECT MAX(model_id) AS m FROM models').get() as { m: number }).m;
    expect(maxModel).toBeLessThan(1001);
  });
});
