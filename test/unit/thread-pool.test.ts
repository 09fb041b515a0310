// The worker-thread pool (src/sandbox/threads/pool.ts): jobs run off the calling thread, each
// within its time and memory budget; a bounded queue; aborts; close. Jobs come from a fixture
// module, so nothing here depends on what the sandbox's own jobs do.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { PoolOptions } from '../../packages/sandbox/src/threads/pool.js';
import {
  JobCrashedError,
  JobFailedError,
  JobTimeoutError,
  PoolBusyError,
  PoolClosedError,
  ThreadPool,
} from '../../packages/sandbox/src/threads/pool.js';

const MODULE = pathToFileURL(join(import.meta.dirname, '..', 'fixtures', 'jobs', 'pool-jobs.mjs')).href;
const job = (fn: string, ...args: unknown[]) => ({ module: MODULE, fn, args });

const pools: ThreadPool[] = [];
function pool(options: Partial<PoolOptions> = {}): ThreadPool {
  const p = new ThreadPool({ size: 2, maxQueued: 8, budgetMs: 20_000, maxMemoryMb: 256, ...options });
  pools.push(p);
  return p;
}
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

describe('ThreadPool', () => {
  test('runs a job on another thread and returns its value; the thread is reused', async () => {
    const p = pool({ size: 1 });
    const first = await p.run<{ value: unknown; threadId: number }>(job('echo', { a: [1, 'two'] }));
    expect(first.value).toEqual({ a: [1, 'two'] });
    expect(first.threadId).toBeGreaterThan(0);
    const second = await p.run<{ threadId: number }>(job('echo', null));
    expect(second.threadId).toBe(first.threadId);
    expect(p.stats).toEqual({ threads: 1, running: 0, waiting: 0 });
  });

  test('an ArrayBuffer given in `transfer` is handed to the thread, not copied: it arrives whole and is empty here', async () => {
    const p = pool({ size: 1 });
    const bytes = new Uint8Array(Buffer.from('a body of bytes'));
    const answer = await p.run<{ value: Uint8Array }>(job('echo', bytes), { transfer: [bytes.buffer] });
    expect(Buffer.from(answer.value).toString()).toBe('a body of bytes');
    expect(bytes.byteLength).toBe(0);
  });

  test('the calling thread stays free while a job computes', async () => {
    const p = pool({ size: 1 });
    const order: string[] = [];
    const running = p.run(job('spin', 400)).then(() => order.push('job'));
    await new Promise((resolve) => setTimeout(resolve, 20)).then(() => order.push('timer'));
    await running;
    expect(order).toEqual(['timer', 'job']);
  });

  test('what a job throws comes back as JobFailedError with its name, message, stack and cause', async () => {
    const p = pool();
    const err = await p.run(job('fails', 'deep inside')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobFailedError);
    const failed = err as JobFailedError;
    expect(failed.remote).toMatchObject({
      name: 'Error',
      message: 'wrapped: deep inside',
      cause: { name: 'RangeError', message: 'deep inside' },
    });
    expect(failed.stack).toContain('pool-jobs.mjs');
    expect(failed.stack).toContain('(in a worker thread)');
    await expect(p.run(job('nothing'))).rejects.toThrow(/has no function nothing/);
    await expect(p.run(job('uncloneable'))).rejects.toBeInstanceOf(JobFailedError);
  });

  test('a job over its time budget is stopped with JobTimeoutError and its thread replaced', async () => {
    const p = pool({ size: 1, budgetMs: 300 });
    const err = await p.run(job('forever')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobTimeoutError);
    expect((err as JobTimeoutError).budgetMs).toBe(300);
    expect((await p.run<{ value: string }>(job('echo', 'after'))).value).toBe('after');
    await expect(p.run(job('spin', 2000), { budgetMs: 100 })).rejects.toBeInstanceOf(JobTimeoutError);
  });

  test('a job over its memory budget ends with JobCrashedError (out of memory) and the pool carries on', async () => {
    const p = pool({ size: 1, maxMemoryMb: 32 });
    const err = await p.run(job('hog')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JobCrashedError);
    expect((err as JobCrashedError).code).toBe('ERR_WORKER_OUT_OF_MEMORY');
    expect((await p.run<{ value: number }>(job('echo', 7))).value).toBe(7);
  });

  test('bounded jobs are refused with PoolBusyError once maxQueued wait; unbounded ones still wait', async () => {
    const p = pool({ size: 1, maxQueued: 2 });
    const running = p.run(job('later', 'r', 300));
    const waiting = [p.run(job('echo', 1), { bounded: true }), p.run(job('echo', 2), { bounded: true })];
    await expect(p.run(job('echo', 3), { bounded: true })).rejects.toBeInstanceOf(PoolBusyError);
    const task = p.run<{ value: number }>(job('echo', 4));
    expect(p.stats).toEqual({ threads: 1, running: 1, waiting: 3 });
    expect(await running).toBe('r');
    expect((await Promise.all(waiting)).map((w) => (w as { value: number }).value)).toEqual([1, 2]);
    expect((await task).value).toBe(4);
  });

  test('aborting a waiting job takes it out of the queue; aborting a running one ends its thread', async () => {
    const p = pool({ size: 1 });
    const running = new AbortController();
    const first = p.run(job('forever'), { signal: running.signal });
    const queued = new AbortController();
    const second = p.run(job('echo', 'never'), { signal: queued.signal });
    queued.abort(new Error('not needed'));
    await expect(second).rejects.toThrow('not needed');
    running.abort(new Error('cancelled'));
    await expect(first).rejects.toThrow('cancelled');
    expect((await p.run<{ value: string }>(job('echo', 'next'))).value).toBe('next');
    const already = new AbortController();
    already.abort(new Error('too late'));
    await expect(p.run(job('echo', 1), { signal: already.signal })).rejects.toThrow('too late');
  });

  test('close rejects running and waiting jobs with PoolClosedError and refuses new ones', async () => {
    const p = pool({ size: 1 });
    const running = p.run(job('forever')).catch((e: unknown) => e);
    const waiting = p.run(job('echo', 1)).catch((e: unknown) => e);
    // one job on the thread, one in the queue: then close
    await vi.waitFor(() => expect(p.stats).toMatchObject({ running: 1, waiting: 1 }), { timeout: 15_000 });
    await p.close();
    expect(await running).toBeInstanceOf(PoolClosedError);
    expect(await waiting).toBeInstanceOf(PoolClosedError);
    await expect(p.run(job('echo', 2))).rejects.toBeInstanceOf(PoolClosedError);
    expect(p.stats.threads).toBe(0);
  });

  test('up to `size` threads work at once', async () => {
    const p = pool({ size: 2 });
    const ids = await Promise.all(
      [p.run<number>(job('later', 1, 200)), p.run<number>(job('later', 2, 200))].map(async (r, i) => {
        await r;
        return i;
      }),
    );
    expect(ids).toEqual([0, 1]);
    expect(p.stats.threads).toBe(2);
  });

  test("a job's console output reaches stderr, and twelve threads at once leave stderr's listeners as they were", async () => {
    const p = pool({ size: 12, maxQueued: 16 });
    const listeners = process.stderr.listenerCount('unpipe') + process.stderr.listenerCount('close');
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      // twelve jobs queued at once take a thread each
      await Promise.all(Array.from({ length: 12 }, () => p.run(job('later', 0, 300))));
      expect(p.stats.threads).toBe(12);
      expect(process.stderr.listenerCount('unpipe') + process.stderr.listenerCount('close')).toBe(listeners);
      await p.run(job('speaks', 'a library says hello'));
      await vi.waitFor(() => expect(written.join('')).toContain('a library says hello\n'), { timeout: 15_000 });
    } finally {
      write.mockRestore();
    }
  });
});
