// The code of one pool thread: it runs the jobs it is sent, one at a time, and answers each with
// its result or the error it threw (name, message, stack, and the name and words of its cause).
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';

export interface JobMessage {
  id: number;
  module: string;
  fn: string;
  args: unknown[];
}

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  cause?: { name: string; message: string };
}

export type JobAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

const modules = new Map<string, Promise<Record<string, unknown>>>();

function load(url: string): Promise<Record<string, unknown>> {
  let loaded = modules.get(url);
  if (!loaded) {
    loaded = import(url) as Promise<Record<string, unknown>>;
    modules.set(url, loaded);
  }
  return loaded;
}

export function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const out: SerializedError = { name: err.name, message: err.message };
  if (err.stack) out.stack = err.stack;
  if (err.cause instanceof Error) out.cause = { name: err.cause.name, message: err.cause.message };
  return out;
}

async function run(job: JobMessage): Promise<JobAnswer> {
  try {
    const mod = await load(job.module);
    const fn = mod[job.fn];
    if (typeof fn !== 'function') throw new Error(`${job.module} has no function ${job.fn}`);
    return { id: job.id, ok: true, value: await (fn as (...args: unknown[]) => unknown)(...job.args) };
  } catch (err) {
    return { id: job.id, ok: false, error: serializeError(err) };
  }
}

/**
 * Linux: this thread (and the threads it starts, such as OCR's) runs at a lower priority than
 * the request thread, which then gets a core as soon as a request arrives, however busy the
 * pool is. Elsewhere, or where it is not allowed, nothing changes.
 */
export const THREAD_NICENESS = 10;
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, THREAD_NICENESS);
} catch {
  // not Linux, or not permitted: the pool works the same, only without the priority
}

parentPort?.on('message', (job: JobMessage) => {
  void run(job).then((answer) => {
    try {
      parentPort!.postMessage(answer);
    } catch (err) {
      // A value that cannot be cloned (a function, a class instance with private state).
      parentPort!.postMessage({ id: job.id, ok: false, error: serializeError(err) } satisfies JobAnswer);
    }
  });
});
