// The worker pool's read-ahead (src/sandbox/tasks/queue.ts): runnable tasks are read 64 at a time
// past a cursor, and once from the start when nothing is past it. A real Store on each driver; the
// runner is a fake that records the order it is given tasks and finishes each by failing it.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { taskRecord } from '../../packages/sandbox/src/http/responses.js';
import type { Db } from '../../packages/sandbox/src/store/db.js';
import { availableDrivers, type DriverName } from '../../packages/sandbox/src/store/sqlite/driver.js';
import type { Store } from '../../packages/sandbox/src/store/store.js';
import { accept } from '../../packages/sandbox/src/tasks/accept.js';
import { WorkerPool } from '../../packages/sandbox/src/tasks/queue.js';
import { cancel, fail } from '../../packages/sandbox/src/tasks/transitions.js';
import { closeSeededStore, onePassTask, openSeededStore } from './sandbox-helpers.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Waits, a turn of the event loop at a time, until `done` holds; a bounded number of turns, so a pool that never gets there fails. */
async function turnsUntil(done: () => boolean, what: () => string): Promise<void> {
  for (let i = 0; i < 200_000; i++) {
    if (done()) return;
    await turn();
  }
  throw new Error(`never happened: ${what()}`);
}

describe.each(availableDrivers())('WorkerPool read-ahead on %s', (driver: DriverName) => {
  let dir: string;
  let db: Db;
  let store: Store;
  let userId: number;
  let pool: WorkerPool | undefined;

  beforeEach(async () => {
    ({ dir, db, store, userId } = await openSeededStore(driver));
  });
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
    await closeSeededStore(db, dir);
  });

  function queued(n: number): string[] {
    return Array.from({ length: n }, () => {
      const out = accept(store, { endpoint: 'test', fingerprint: `f${Math.random()}`, task: onePassTask(userId, 0), respond: taskRecord });
      if (out.kind !== 'created') throw new Error('not created');
      return out.task.task_id;
    });
  }
  const seqOf = (id: string) => store.task(id)!.seq;
  const bySeq = (ids: string[]) => [...ids].sort((a, b) => seqOf(a) - seqOf(b));

  /** A pool whose runner records each task and, a turn later, fails it from the status it has (so it is no longer runnable). */
  function recordingPool(workers: number, onRun: (id: string, runs: string[]) => void = () => {}) {
    const runs: string[] = [];
    const p = new WorkerPool(store, workers, async (id) => {
      runs.push(id);
      onRun(id, runs);
      await turn();
      const status = store.task(id)!.status;
      if (!['SUCCESS', 'FAILURE', 'CANCEL'].includes(status)) expect(fail(store, id, status, 'done', false)).toBe(true);
    });
    pool = p;
    /** Resolves once the runner has been given `n` tasks and they have ended, and the pool is idle. */
    const until = async (n: number) => {
      await turnsUntil(
        () => runs.length >= n && p.busy === 0,
        () => `${n} tasks run (${runs.length} were)`,
      );
      for (let i = 0; i < 5; i++) await turn(); // let any further kick() run
    };
    return { pool: p, runs, until };
  }

  test('store.runnableTasks returns [seq, id] past `after`, oldest first, within the limit, runnable ones only', () => {
    const ids = queued(6);
    const seqs = ids.map(seqOf);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(store.runnableTasks(0, 100)).toEqual(ids.map((id, i) => [seqs[i], id]));
    expect(store.runnableTasks(seqs[1]!, 3)).toEqual([2, 3, 4].map((i) => [seqs[i], ids[i]]));
    expect(store.runnableTasks(seqs[5]!, 10)).toEqual([]);
    // a final task is not runnable; one left mid-way (UPLOADING) is
    expect(cancel(store, ids[2]!, userId).kind).toBe('cancelled');
    db.prepare(`UPDATE tasks SET status = 'UPLOADING' WHERE task_id = ?`).run(ids[3]);
    expect(store.runnableTasks(seqs[1]!, 10).map((r) => r[1])).toEqual([ids[3], ids[4], ids[5]]);
    expect(store.runnableTaskIds(2)).toEqual([ids[0], ids[1]]);
  });

  test('more than 64 queued tasks run oldest first, each exactly once', async () => {
    const ids = queued(150);
    const reads = vi.spyOn(store, 'runnableTasks');
    const { pool: p, runs, until } = recordingPool(4);
    p.kick();
    await until(150);
    expect(runs).toEqual(bySeq(ids));
    expect(new Set(runs).size).toBe(150);
    // read 64 at a time, each read past the last task of the one before
    expect(reads.mock.calls.slice(0, 3)).toEqual([
      [0, 64],
      [seqOf(ids[63]!), 64],
      [seqOf(ids[127]!), 64],
    ]);
    expect(store.runnableTasks(0, 10)).toEqual([]);
  });

  test('tasks submitted while the pool runs are picked up, after the older ones', async () => {
    const first = queued(70);
    let later: string[] = [];
    const {
      pool: p,
      runs,
      until,
    } = recordingPool(2, (_id, seen) => {
      // mid-way through the first read-ahead, more arrive (the server kicks after each acceptance)
      if (seen.length === 10) {
        later = queued(80);
        p.kick();
      }
    });
    p.kick();
    await until(150);
    expect(later).toHaveLength(80);
    expect(runs).toEqual(bySeq([...first, ...later]));
    expect(new Set(runs).size).toBe(150);
  });

  test('a task left UPLOADING with the lowest seq is run once nothing is left past the cursor', async () => {
    const [left] = queued(1);
    // not runnable when the pool first reads (final), then back mid-way, as a stopped process leaves one
    expect(cancel(store, left!, userId).kind).toBe('cancelled');
    const rest = queued(100);
    const {
      pool: p,
      runs,
      until,
    } = recordingPool(3, (_id, seen) => {
      if (seen.length === 5) db.prepare(`UPDATE tasks SET status = 'UPLOADING', finished_at = NULL WHERE task_id = ?`).run(left);
    });
    p.kick();
    await until(101);
    expect(seqOf(left!)).toBeLessThan(seqOf(rest[0]!));
    // the cursor had passed it: it is found by the read from the start, after the others
    expect(runs).toEqual([...bySeq(rest), left]);
    expect(store.task(left!)!.status).toBe('FAILURE');
  });

  test('a task whose runner throws is logged and not retried; the others still run', async () => {
    const ids = queued(70);
    const stuck = ids[3]!;
    const runs: string[] = [];
    const lines: string[] = [];
    const p = new WorkerPool(
      store,
      2,
      async (id) => {
        runs.push(id);
        await turn();
        if (id === stuck) throw new Error('cannot even fail it');
        fail(store, id, 'QUEUED', 'done', false);
      },
      (line) => lines.push(line),
    );
    pool = p;
    p.kick();
    await turnsUntil(
      () => runs.length >= 70 && p.busy === 0,
      () => `70 tasks run (${runs.length} were)`,
    );
    for (let i = 0; i < 5; i++) await turn();
    // kicked again (as every submission does): still not picked
    p.kick();
    p.kick();
    for (let i = 0; i < 5; i++) await turn();
    expect(runs.filter((id) => id === stuck)).toHaveLength(1);
    expect(runs).toEqual(bySeq(ids));
    expect(store.task(stuck)!.status).toBe('QUEUED');
    expect(store.runnableTasks(0, 10).map((r) => r[1])).toEqual([stuck]);
    expect(lines.some((l) => l.includes(stuck) && l.includes('cannot even fail it'))).toBe(true);
    expect(p.busy).toBe(0);
  });
  test('one kick of an idle pool whose cursor is past a task left mid-way reads from the start and runs it', async () => {
    const lows = queued(2);
    const [stuck, other] = queued(2);
    for (const id of lows) expect(cancel(store, id, userId).kind).toBe('cancelled');
    const runs: string[] = [];
    const p = new WorkerPool(
      store,
      1,
      async (id) => {
        runs.push(id);
        await turn();
        if (id === stuck) throw new Error('stuck');
        const status = store.task(id)!.status;
        expect(fail(store, id, status, 'done', false)).toBe(true);
      },
      () => {},
    );
    pool = p;
    p.kick();
    await turnsUntil(
      () => runs.length >= 2 && p.busy === 0,
      () => `2 tasks run (${runs.length} were)`,
    );
    for (let i = 0; i < 5; i++) await turn();
    expect(runs).toEqual([stuck, other]);
    for (const [i, low] of lows.entries()) {
      // an idle kick (every submission kicks): its read ends at the stuck task, so the cursor is past the low seqs
      p.kick();
      // a task a stopped process left mid-way, below the cursor: the next single kick must find it
      db.prepare(`UPDATE tasks SET status = 'UPLOADING', finished_at = NULL WHERE task_id = ?`).run(low);
      p.kick();
      await turnsUntil(
        () => runs.length >= 3 + i && p.busy === 0,
        () => `${low} run (runs: ${runs.join(', ')})`,
      );
      expect(store.task(low)!.status).toBe('FAILURE');
    }
    expect(runs).toEqual([stuck, other, ...lows]);
  });
  // the read from the start lists the running tasks too: they are left out of the list, so one
  // that ends before its place is reached is not handed to the runner again
  test('a task read from the start while it ran is not given to the runner again once it ended', async () => {
    const [low, a, b] = queued(3);
    expect(cancel(store, low!, userId).kind).toBe('cancelled');
    const runs: string[] = [];
    let releaseA: (() => void) | undefined;
    const p = new WorkerPool(store, 2, async (id) => {
      runs.push(id);
      if (id === a && releaseA === undefined)
        await new Promise<void>((resolve) => {
          releaseA = resolve;
        });
      else await turn();
      const status = store.task(id)!.status;
      // a task given again after it ended would find itself final: record it, change nothing
      if (!['SUCCESS', 'FAILURE', 'CANCEL'].includes(status)) fail(store, id, status, 'done', false);
    });
    pool = p;
    p.kick();
    await turnsUntil(
      () => runs.length >= 2 && p.busy === 1,
      () => `a running, b done (runs: ${runs.join(', ')})`,
    );
    // a stopped process's task below the cursor: the next kick reads from the start, a (running) among them
    db.prepare(`UPDATE tasks SET status = 'UPLOADING', finished_at = NULL WHERE task_id = ?`).run(low);
    p.kick();
    await turnsUntil(
      () => runs.length >= 3,
      () => `low run (runs: ${runs.join(', ')})`,
    );
    releaseA!();
    await turnsUntil(
      () => p.busy === 0,
      () => 'the pool idle',
    );
    for (let i = 0; i < 20; i++) await turn();
    expect(runs).toEqual([a, b, low]);
  });
});
