// The queue's group commit (src/sandbox/tasks/write-group.ts): changes asked for in one turn
// share one transaction, each answered on its own; a change that throws undoes only itself.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { taskRecord } from '../../packages/sandbox/src/http/responses.js';
import type { Db } from '../../packages/sandbox/src/store/db.js';
import { availableDrivers, type DriverName } from '../../packages/sandbox/src/store/sqlite/driver.js';
import type { Store } from '../../packages/sandbox/src/store/store.js';
import { accept } from '../../packages/sandbox/src/tasks/accept.js';
import { advance, completeAndCharge } from '../../packages/sandbox/src/tasks/transitions.js';
import { WriteGroup } from '../../packages/sandbox/src/tasks/write-group.js';
import { closeSeededStore, onePassTask, openSeededStore, RESULT } from './sandbox-helpers.js';

describe.each(availableDrivers())('WriteGroup on %s', (driver: DriverName) => {
  let dir: string;
  let db: Db;
  let store: Store;
  let userId: number;
  let group: WriteGroup;

  beforeEach(async () => {
    ({ dir, db, store, userId } = await openSeededStore(driver));
    group = new WriteGroup(store);
  });
  afterEach(() => closeSeededStore(db, dir));

  function queued(id: string, cost = 5): string {
    accept(store, { endpoint: 'test', fingerprint: id, task: onePassTask(userId, cost, { task_id: id }), respond: taskRecord });
    return id;
  }
  const status = (id: string) => store.task(id)!.status;

  test('changes of one turn commit in one transaction, each a compare-and-swap answered on its own', async () => {
    const [a, b, c] = [queued('tsk_wg_a'), queued('tsk_wg_b'), queued('tsk_wg_c')];
    const transactions: boolean[] = [];
    const changes = [
      group.run(() => {
        transactions.push(db.inTransaction);
        return advance(store, a, 'QUEUED', 'UPLOADING');
      }),
      group.run(() => {
        transactions.push(db.inTransaction);
        return advance(store, b, 'QUEUED', 'UPLOADING');
      }),
      // a lost race: c is not UPLOADING, so nothing changes and the caller learns it
      group.run(() => {
        transactions.push(db.inTransaction);
        return advance(store, c, 'UPLOADING', 'SUBMITTED');
      }),
    ];
    // nothing is written before the group's turn
    expect([status(a), status(b)]).toEqual(['QUEUED', 'QUEUED']);
    expect(await Promise.all(changes)).toEqual([true, true, false]);
    expect(transactions).toEqual([true, true, true]);
    expect([status(a), status(b), status(c)]).toEqual(['UPLOADING', 'UPLOADING', 'QUEUED']);
    expect(db.inTransaction).toBe(false);
  });

  test('a change that throws is undone alone; the others of its group are committed', async () => {
    const [a, b] = [queued('tsk_wg_d', 3), queued('tsk_wg_e', 4)];
    for (const id of [a, b])
      for (const [from, to] of [
        ['QUEUED', 'UPLOADING'],
        ['UPLOADING', 'SUBMITTED'],
        ['SUBMITTED', 'PROGRESS'],
      ])
        advance(store, id, from!, to!);
    const results = await Promise.allSettled([
      group.run(() => completeAndCharge(store, a, RESULT)),
      group.run(() => {
        advance(store, b, 'PROGRESS', 'PROGRESS', { message: 'half-way' });
        throw new Error('broken change');
      }),
    ]);
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'charged' });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { message: 'broken change' } });
    expect(status(a)).toBe('SUCCESS');
    // the throwing change ran a statement before it threw: only a savepoint per change undoes it
    expect(store.task(b)!.message).toBeNull();
    expect(store.balance(userId)).toEqual({ credits: 997, reserved: 4 });
  });

  test('changes asked for after a turn go in the next group', async () => {
    const a = queued('tsk_wg_f');
    expect(await group.run(() => advance(store, a, 'QUEUED', 'UPLOADING'))).toBe(true);
    expect(await group.run(() => advance(store, a, 'UPLOADING', 'SUBMITTED'))).toBe(true);
    expect(status(a)).toBe('SUBMITTED');
  });
});
