// users.reserved (db.ts, 7th migration): the credits unfinished tasks hold, kept by triggers in
// the statement that changes a task. After any sequence of acceptances, refusals, state changes,
// charges, cancels and batches it equals the sum over the queue, on every driver this runtime loads.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { taskRecord } from '../../packages/sandbox/src/http/responses.js';
import type { Db } from '../../packages/sandbox/src/store/db.js';
import { openDatabase } from '../../packages/sandbox/src/store/db.js';
import { availableDrivers, type DriverName } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { Store } from '../../packages/sandbox/src/store/store.js';
import type { NewTask } from '../../packages/sandbox/src/tasks/accept.js';
import { accept } from '../../packages/sandbox/src/tasks/accept.js';
import { cancelBatch, settleBatch } from '../../packages/sandbox/src/tasks/batch-parents.js';
import { advance, cancel, completeAndCharge, completePrepaid, fail } from '../../packages/sandbox/src/tasks/transitions.js';
import { closeSeededStore, onePassTask, openSeededStore, RESULT, STAGES, toProgress } from './sandbox-helpers.js';

describe.each(availableDrivers())('users.reserved on %s', (driver: DriverName) => {
  let dir: string;
  let db: Db;
  let store: Store;
  let userId: number;

  beforeEach(async () => {
    ({ dir, db, store, userId } = await openSeededStore(driver));
  });
  afterEach(() => closeSeededStore(db, dir));

  /** What users.reserved must equal: the costs of the unfinished reserving tasks, summed. */
  function counted(user = userId): number {
    return (
      db
        .prepare(`SELECT COALESCE(SUM(credit_cost), 0) AS r FROM tasks WHERE owner_user_id = ?
      AND kind IN ('one_pass', 'batch_item') AND status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS')`)
        .get(user) as { r: number }
    ).r;
  }
  const reserved = () => store.balance(userId).reserved;

  const task = (cost: number, extra: Partial<NewTask> = {}) => onePassTask(userId, cost, extra);
  function submit(t: NewTask, children?: NewTask[]) {
    return accept(store, { endpoint: 'test', fingerprint: t.task_id, task: t, ...(children ? { children } : {}), respond: taskRecord });
  }

  test('acceptance reserves, every way out of the queue releases, in the same statement', () => {
    const a = task(5);
    const b = task(7);
    const c = task(3);
    submit(a);
    submit(b);
    submit(c);
    expect(reserved()).toBe(15);
    toProgress(store, a.task_id);
    expect(reserved()).toBe(15); // moving between unfinished stages holds the reservation
    expect(completeAndCharge(store, a.task_id, RESULT)).toBe('charged');
    expect(store.balance(userId)).toEqual({ credits: 995, reserved: 10 });
    expect(fail(store, b.task_id, 'QUEUED', 'no text', false)).toBe(true);
    expect(reserved()).toBe(3);
    expect(cancel(store, c.task_id, userId).kind).toBe('cancelled');
    expect(reserved()).toBe(0);
    // a lost race changes nothing
    expect(completeAndCharge(store, a.task_id, RESULT)).toBe('lost_race');
    expect(cancel(store, c.task_id, userId).kind).toBe('final');
    expect(reserved()).toBe(counted());
    expect(reserved()).toBe(0);
  });

  test('a refused submission (402) and a completion that cannot pay leave the figure as it was', () => {
    submit(task(600));
    expect(() => submit(task(600))).toThrow(
      /Insufficient credits: this submission costs 600 credits and 400 are available \(balance 1000, of which 600 reserved/,
    );
    expect(reserved()).toBe(600);
    const t = task(10);
    submit(t);
    toProgress(store, t.task_id);
    db.prepare('UPDATE users SET credits = 5 WHERE id = ?').run(userId);
    expect(completeAndCharge(store, t.task_id, RESULT)).toBe('insufficient_credits');
    expect(store.task(t.task_id)!.status).toBe('PROGRESS'); // rolled back: still unfinished, still reserved
    expect(reserved()).toBe(610);
    expect(counted()).toBe(610);
  });

  test('a batch reserves its items, not its parent; cancelling it releases the unfinished items only', () => {
    const parent = task(0, { kind: 'batch' });
    const items = [4, 6, 8].map((cost, i) => task(cost, { kind: 'batch_item', parent_task_id: parent.task_id, item_index: i }));
    submit(parent, items);
    expect(reserved()).toBe(18);
    toProgress(store, items[0]!.task_id);
    expect(completeAndCharge(store, items[0]!.task_id, RESULT)).toBe('charged');
    expect(reserved()).toBe(14);
    expect(settleBatch(store, parent.task_id)).toBe(false);
    expect(cancelBatch(store, store.task(parent.task_id)!).kind).toBe('cancelled');
    expect(store.balance(userId)).toEqual({ credits: 996, reserved: 0 });
    expect(counted()).toBe(0);
  });

  test('the legacy path pays at acceptance and reserves nothing', () => {
    const t = task(9, { kind: 'legacy', status: 'PENDING', chargeAtAcceptance: true });
    submit(t);
    expect(store.balance(userId)).toEqual({ credits: 991, reserved: 0 });
    for (const [from, to] of [
      ['PENDING', 'UPLOADING'],
      ['UPLOADING', 'SUBMITTED'],
      ['SUBMITTED', 'PROGRESS'],
    ])
      advance(store, t.task_id, from!, to!);
    expect(completePrepaid(store, t.task_id, RESULT)).toBe(true);
    expect(store.balance(userId)).toEqual({ credits: 991, reserved: 0 });
  });

  test('any sequence of operations on a few tasks: the figure equals the sum over the queue', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('submit' as const), cost: fc.integer({ min: 0, max: 40 }), batch: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ kind: fc.constantFrom('step' as const, 'complete' as const, 'fail' as const, 'cancel' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        db.prepare('UPDATE users SET credits = 1000 WHERE id = ?').run(userId);
        const mine: string[] = [];
        for (const o of ops) {
          if (o.kind === 'submit') {
            try {
              if (o.batch === 0) {
                const t = task(o.cost);
                submit(t);
                mine.push(t.task_id);
              } else {
                const parent = task(0, { kind: 'batch' });
                const items = Array.from({ length: o.batch }, (_, i) =>
                  task(o.cost + i, { kind: 'batch_item', parent_task_id: parent.task_id, item_index: i }),
                );
                submit(parent, items);
                mine.push(...items.map((i) => i.task_id));
              }
            } catch {
              /* 402: refused, nothing made */
            }
            continue;
          }
          if (mine.length === 0) continue;
          const id = mine[o.pick % mine.length]!;
          const status = store.task(id)!.status;
          if (o.kind === 'step') {
            const next = STAGES.find(([from]) => from === status);
            if (next) advance(store, id, next[0], next[1]);
          } else if (o.kind === 'complete') completeAndCharge(store, id, RESULT);
          else if (o.kind === 'fail') fail(store, id, status, 'failed on purpose', false);
          else cancel(store, id, userId);
          expect(reserved()).toBe(counted());
        }
        expect(reserved()).toBe(counted());
        expect(store.balance(userId).credits).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 40 },
    );
  });

  test('a data dir from before the column gets it computed from its unfinished tasks when opened', async () => {
    submit(task(11));
    const done = task(4);
    submit(done);
    toProgress(store, done.task_id);
    completeAndCharge(store, done.task_id, RESULT);
    submit(task(0, { kind: 'batch' }), [task(2, { kind: 'batch_item', item_index: 0 })]);
    // back to the schema of the 6th migration, as an older sandbox left it
    db.exec(`DROP TRIGGER tasks_reserve_insert; DROP TRIGGER tasks_reserve_update; DROP TRIGGER tasks_reserve_delete;
      ALTER TABLE users DROP COLUMN reserved;`);
    db.pragma('user_version = 6');
    db.close();
    db = openDatabase(dir, { driver });
    store = new Store(db);
    expect(store.balance(userId)).toEqual({ credits: 996, reserved: 13 });
    expect(counted()).toBe(13);
  });
});
