// Checkpoints of the write-ahead log off the request thread: the Checkpointer's scheduling
// (src/sandbox/store/checkpointer.ts) with a fake run and fake timers, and the real job
// (src/sandbox/store/checkpoint.ts) in-process and on a pool thread, on each driver.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { Engines } from '../../src/sandbox/engines/jobs.js';
import { checkpoint } from '../../src/sandbox/store/checkpoint.js';
import { BACKSTOP_PAGES, Checkpointer } from '../../src/sandbox/store/checkpointer.js';
import type { Db } from '../../src/sandbox/store/db.js';
import { availableDrivers, type DriverName } from '../../src/sandbox/store/sqlite/driver.js';
import { ThreadPool } from '../../src/sandbox/threads/pool.js';
import { closeSeededStore, openSeededStore } from './sandbox-helpers.js';

/** A run the test ends when it likes. */
function deferredRuns() {
  const ends: { resolve: () => void; reject: (err: Error) => void }[] = [];
  const run = vi.fn(() => new Promise<void>((resolve, reject) => {
    ends.push({ resolve, reject });
  }));
  return { run, ends };
}

/** Lets settled promises' callbacks run (fake timers do not fake microtasks). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe.each(availableDrivers())('Checkpointer on %s', (driver: DriverName) => {
  let dir: string;
  let db: Db;
  const made: Checkpointer[] = [];

  beforeEach(async () => {
    ({ dir, db } = await openSeededStore(driver));
    vi.useFakeTimers();
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const c of made.splice(0)) await c.close();
    await closeSeededStore(db, dir);
  });

  function checkpointer(run: () => Promise<unknown>, log?: (line: string) => void): Checkpointer {
    const c = new Checkpointer(db, run, log);
    made.push(c);
    return c;
  }

  test('raises SQLite\'s own automatic checkpoint on the main connection to 10,000 pages', () => {
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    checkpointer(vi.fn(async () => undefined));
    expect(BACKSTOP_PAGES).toBe(10_000);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
  });

  test('several touches make one run, 200 ms after the first', async () => {
    const run = vi.fn(async () => undefined);
    const c = checkpointer(run);
    c.touch();
    await vi.advanceTimersByTimeAsync(100);
    c.touch();
    c.touch();
    await vi.advanceTimersByTimeAsync(99);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(1);
    // a touch after the run asks for a new one
    c.touch();
    await vi.advanceTimersByTimeAsync(200);
    expect(run).toHaveBeenCalledTimes(2);
  });

  test('touches while a run is under way lead to exactly one more run, after it ends', async () => {
    const { run, ends } = deferredRuns();
    const c = checkpointer(run);
    c.touch();
    await vi.advanceTimersByTimeAsync(200);
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) {
      c.touch();
      await vi.advanceTimersByTimeAsync(200);
    }
    // one at a time: nothing starts while the first runs
    expect(run).toHaveBeenCalledTimes(1);
    ends[0]!.resolve();
    await settle();
    await vi.advanceTimersByTimeAsync(200);
    expect(run).toHaveBeenCalledTimes(2);
    ends[1]!.resolve();
    await settle();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  test('close() cancels a checkpoint asked for, waits for the one under way, and no run starts after it', async () => {
    const { run, ends } = deferredRuns();
    const c = checkpointer(run);
    c.touch();
    await vi.advanceTimersByTimeAsync(200);
    expect(run).toHaveBeenCalledTimes(1);
    c.touch(); // asked for during the run: close() drops it
    let closed = false;
    const closing = c.close().then(() => {
      closed = true;
    });
    await settle();
    expect(closed).toBe(false);
    ends[0]!.resolve();
    await closing;
    expect(closed).toBe(true);
    c.touch();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(1);
  });

  test('close() before the delay: the asked-for run never starts', async () => {
    const run = vi.fn(async () => undefined);
    const c = checkpointer(run);
    c.touch();
    await vi.advanceTimersByTimeAsync(100);
    await c.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(run).not.toHaveBeenCalled();
  });

  test('a failing run is logged and later touches still run', async () => {
    const { run, ends } = deferredRuns();
    const lines: string[] = [];
    const c = checkpointer(run, (line) => lines.push(line));
    c.touch();
    await vi.advanceTimersByTimeAsync(200);
    ends[0]!.reject(new Error('thread busy'));
    await settle();
    expect(lines).toEqual(['checkpoint: thread busy']);
    c.touch();
    await vi.advanceTimersByTimeAsync(200);
    expect(run).toHaveBeenCalledTimes(2);
    ends[1]!.resolve();
    await settle();
    expect(lines).toHaveLength(1);
  });

  test('a failing run without a log callback does not reject anywhere', async () => {
    const run = vi.fn(async () => {
      throw new Error('no log');
    });
    const c = checkpointer(run);
    c.touch();
    await vi.advanceTimersByTimeAsync(200);
    c.touch();
    await vi.advanceTimersByTimeAsync(200);
    expect(run).toHaveBeenCalledTimes(2);
    await expect(c.close()).resolves.toBeUndefined();
  });
});

describe.each(availableDrivers())('the checkpoint job on %s', (driver: DriverName) => {
  let dir: string;
  let db: Db;

  beforeEach(async () => {
    ({ dir, db } = await openSeededStore(driver));
  });
  afterEach(() => closeSeededStore(db, dir));

  /** Commits 50 rows of 2 kB on the main connection with SQLite's own checkpoint off, so the log holds them. */
  function writeSome(): number {
    db.pragma('wal_autocheckpoint = 0');
    db.exec('CREATE TABLE IF NOT EXISTS filler (n INTEGER PRIMARY KEY, s TEXT)');
    const insert = db.prepare('INSERT INTO filler (s) VALUES (?)');
    for (let i = 0; i < 50; i++) insert.run('x'.repeat(2000));
    return (db.prepare('SELECT COUNT(*) AS n FROM filler').get() as { n: number }).n;
  }

  test('in-process: every frame of the log is copied into the database file', () => {
    expect(writeSome()).toBe(50);
    const path = join(dir, 'sandbox.db');
    const first = checkpoint(path, driver);
    expect(first.log).toBeGreaterThan(50); // 50 rows of 2 kB: more than 50 pages
    expect(first.checkpointed).toBe(first.log);
    // nothing written since: the same log, all of it copied already
    expect(checkpoint(path, driver)).toEqual(first);
  });

  test('on a pool thread through Engines: the same outcome', async () => {
    writeSome();
    const threads = new ThreadPool({ size: 1, maxQueued: 4, budgetMs: 60_000, maxMemoryMb: 256 });
    try {
      const engines = new Engines(threads);
      const outcome = await engines.checkpoint(join(dir, 'sandbox.db'), driver);
      expect(outcome.log).toBeGreaterThan(50);
      expect(outcome.checkpointed).toBe(outcome.log);
      expect(Object.keys(outcome).sort()).toEqual(['checkpointed', 'log']);
      // the main connection reads every row after the copy
      expect((db.prepare('SELECT COUNT(*) AS n FROM filler').get() as { n: number }).n).toBe(50);
    } finally {
      await threads.close();
    }
  });
});
