// The loop of one pool thread: it runs the jobs it is sent, one at a time, and answers each with
// its result or the error it threw (name, message, stack, and the name and words of its cause).
// Where a job's module comes from is the caller's: files under dist/ (thread-main.ts) or the
// modules bundled into the single-file executable (embedded-jobs.ts).
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

/** Sent when the job's function is called (its module loaded): the pool's time budget starts then. */
export interface JobStarted {
  id: number;
  started: true;
}

export type JobAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

/** Loads a job's module from the name the pool sent (a file URL, or a key of the executable's registry). */
export type LoadModule = (module: string) => Promise<Record<string, unknown>>;

/**
 * Linux: this thread (and the threads it starts, such as OCR's) runs at a lower priority than
 * the request thread, which then gets a core as soon as a request arrives, however busy the
 * pool is. Elsewhere, or where it is not allowed, nothing changes.
 */
export const THREAD_NICENESS = 10;

function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const out: SerializedError = { name: err.name, message: err.message };
  if (err.stack) out.stack = err.stack;
  if (err.cause instanceof Error) out.cause = { name: err.cause.name, message: err.cause.message };
  return out;
}

/** Serves the pool's jobs on this worker thread, each module loaded once through `load`. */
export function serveJobs(load: LoadModule): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs runs on a worker thread of the pool');
  lowerPriority();
  const modules = new Map<string, Promise<Record<string, unknown>>>();
  const loaded = (module: string) => {
    let mod = modules.get(module);
    if (!mod) {
      mod = load(module);
      modules.set(module, mod);
    }
    return mod;
  };
  const run = async (job: JobMessage): Promise<JobAnswer> => {
    try {
      const mod = await loaded(job.module);
      const fn = mod[job.fn];
      if (typeof fn !== 'function') throw new Error(`${job.module} has no function ${job.fn}`);
      port.postMessage({ id: job.id, started: true } satisfies JobStarted);
      return { id: job.id, ok: true, value: await (fn as (...args: unknown[]) => unknown)(...job.args) };
    } catch (err) {
      return { id: job.id, ok: false, error: serializeError(err) };
    }
  };
  port.on('message', (job: JobMessage) => {
    void run(job).then((answer) => {
      try {
        port.postMessage(answer);
      } catch (err) {
        // A value that cannot be cloned (a function, a class instance with private state).
        port.postMessage({ id: job.id, ok: false, error: serializeError(err) } satisfies JobAnswer);
      }
    });
  });
}

function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, THREAD_NICENESS);
  } catch {
    // not Linux, or not permitted: the pool works the same, only without the priority
  }
}
