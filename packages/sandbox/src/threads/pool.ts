// A pool of worker threads for CPU-heavy work, so that no request waits behind text extraction,
// rubric parsing or marking (docs/sandbox.md, "Worker threads"). Generic: a job names a module,
// one of its exported functions and arguments that can be cloned (structured clone); the pool
// knows nothing of what the jobs do. Threads start when work arrives, up to `size`; jobs wait
// in one FIFO queue; each job may run for `budgetMs` on its thread, after which the thread is
// ended (a loop cannot be interrupted otherwise) and a new one takes its place.
import type { Worker } from 'node:worker_threads';
import { assertCompiledIsCurrent, compiledModule, newThread } from './compiled.js';
import type { JobAnswer, JobMessage, JobStarted, SerializedError } from './serve.js';

export interface Job {
  /** A module path relative to the compiled sandbox folder ("grader.js"), or a file: URL. */
  module: string;
  fn: string;
  args: unknown[];
}

export interface RunOptions {
  /** Time the job may run on its thread (waiting in the queue excluded). Default: the pool's. */
  budgetMs?: number;
  /** Aborting ends the job: a waiting one leaves the queue, a running one's thread is ended. */
  signal?: AbortSignal;
  /** ArrayBuffers among the arguments handed to the thread, not copied: unusable here once sent. */
  transfer?: ArrayBuffer[];
  /**
   * Refused with PoolBusyError when `maxQueued` jobs already wait. For jobs of requests (a
   * preview); the task queue's own jobs are few (at most `--workers`) and always wait.
   */
  bounded?: boolean;
}

export interface PoolOptions {
  /** Threads at most. */
  size: number;
  /** Bounded jobs waiting at most. */
  maxQueued: number;
  /** Default time budget of a job, ms. */
  budgetMs: number;
  /** V8 old-generation heap of each thread, MB: a job that needs more ends with JobCrashedError. */
  maxMemoryMb: number;
}

/** The queue of jobs is full: try again later (503 for a request). */
export class PoolBusyError extends Error {
  constructor(readonly waiting: number) {
    super(`${waiting} jobs are already waiting for a worker thread`);
    this.name = 'PoolBusyError';
  }
}

/** The job ran longer than its budget and its thread was ended. */
export class JobTimeoutError extends Error {
  constructor(readonly budgetMs: number) {
    super(`the job ran for more than ${budgetMs} ms`);
    this.name = 'JobTimeoutError';
  }
}

/** The job's thread died under it: out of memory (`code` ERR_WORKER_OUT_OF_MEMORY) or a crash. */
export class JobCrashedError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'JobCrashedError';
  }
}

/** The job's function threw; `remote` is what it threw, as the thread described it. */
export class JobFailedError extends Error {
  constructor(readonly remote: SerializedError) {
    super(remote.message);
    this.name = 'JobFailedError';
    // The log shows where it really failed: the thread's stack, not this constructor's.
    if (remote.stack) this.stack = `${remote.stack}\n    (in a worker thread)`;
  }
}

export class PoolClosedError extends Error {
  constructor() {
    super('the worker-thread pool is closed');
    this.name = 'PoolClosedError';
  }
}

interface Pending {
  id: number;
  job: Job;
  budgetMs: number;
  transfer?: ArrayBuffer[];
  resolve(value: unknown): void;
  reject(err: unknown): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** How long a new thread may take to start and load a job's module, on top of the job's budget. */
const START_GRACE_MS = 10_000;

interface Thread {
  worker: Worker;
  running?: Pending;
  timer?: NodeJS.Timeout;
  retired: boolean;
}

export class ThreadPool {
  private readonly idle: Thread[] = [];
  private readonly threads = new Set<Thread>();
  private readonly queue: Pending[] = [];
  private readonly ending = new Set<Promise<number>>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: PoolOptions) {
    if (!(options.size >= 1)) throw new RangeError('a thread pool needs at least one thread');
    // Run from sources with an old build: said now, not as a failed job later.
    assertCompiledIsCurrent();
  }

  run<T>(job: Job, options: RunOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    if (options.bounded && this.queue.length >= this.options.maxQueued) return Promise.reject(new PoolBusyError(this.queue.length));
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        id: this.nextId++,
        job: { ...job, module: compiledModule(job.module) },
        budgetMs: options.budgetMs ?? this.options.budgetMs,
        ...(options.transfer ? { transfer: options.transfer } : {}),
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      if (options.signal) {
        pending.signal = options.signal;
        pending.onAbort = () => this.abort(pending);
        options.signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.queue.push(pending);
      this.pump();
    });
  }

  /** Threads started, jobs running, jobs waiting. */
  get stats(): { threads: number; running: number; waiting: number } {
    let running = 0;
    for (const t of this.threads) if (t.running) running++;
    return { threads: this.threads.size, running, waiting: this.queue.length };
  }

  /** Refuses new jobs, rejects waiting and running ones with PoolClosedError, ends every thread. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) this.settle(pending, new PoolClosedError());
    for (const thread of [...this.threads]) {
      if (thread.running) this.settle(thread.running, new PoolClosedError());
      this.retire(thread);
    }
    await Promise.allSettled([...this.ending]);
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      const thread = this.idle.pop() ?? (this.threads.size < this.options.size ? this.spawn() : undefined);
      if (!thread) return;
      this.start(thread, this.queue.shift()!);
    }
  }

  private spawn(): Thread {
    const worker = newThread({
      // shown by top -H and ps -L where the runtime names threads (Node 24)
      name: 'kct-job',
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxMemoryMb },
      // A library's console output goes to stderr: stdout may be a machine-read channel.
      stdout: true,
      stderr: true,
    });
    // Written, not piped (Node pipes a thread's output unless told not to): each pipe adds its
    // listeners to process.stderr, and six threads at once printed Node's listener-leak warning.
    const forward = (chunk: Buffer) => process.stderr.write(chunk);
    worker.stdout.on('data', forward);
    worker.stderr.on('data', forward);
    const thread: Thread = { worker, retired: false };
    this.threads.add(thread);
    worker.on('message', (answer: JobAnswer | JobStarted) => this.answered(thread, answer));
    worker.on('error', (err: Error & { code?: string }) =>
      this.died(
        thread,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new JobCrashedError('the job needed more memory than a worker thread may use', err.code)
          : new JobCrashedError(`the worker thread failed: ${err.message}`, err.code),
      ),
    );
    worker.on('exit', (code) => this.died(thread, new JobCrashedError(`the worker thread exited with code ${code}`)));
    return thread;
  }

  private start(thread: Thread, pending: Pending): void {
    thread.running = pending;
    thread.worker.ref();
    // until the thread says the job began, its start and module loading count too, within a grace
    this.budget(thread, pending, pending.budgetMs + START_GRACE_MS);
    const message: JobMessage = { id: pending.id, module: pending.job.module, fn: pending.job.fn, args: pending.job.args };
    try {
      thread.worker.postMessage(message, pending.transfer);
    } catch (err) {
      // Arguments that cannot be cloned: the caller's mistake; the thread is unharmed.
      this.settle(pending, err);
      this.release(thread);
    }
  }

  /** Ends the job with JobTimeoutError, and its thread, unless it answers within `ms`. */
  private budget(thread: Thread, pending: Pending, ms: number): void {
    clearTimeout(thread.timer);
    thread.timer = setTimeout(() => {
      this.settle(pending, new JobTimeoutError(pending.budgetMs));
      this.retire(thread);
      this.pump();
    }, ms);
  }

  private answered(thread: Thread, answer: JobAnswer | JobStarted): void {
    const pending = thread.running;
    if (thread.retired || !pending || pending.id !== answer.id) return;
    // the budget is the job's own time: a thread started under load is not held against it
    if ('started' in answer) {
      this.budget(thread, pending, pending.budgetMs);
      return;
    }
    if (answer.ok) this.settle(pending, undefined, answer.value);
    else this.settle(pending, new JobFailedError(answer.error));
    this.release(thread);
  }

  /** The job is done: the thread takes the next one, or waits (not keeping the process alive). */
  private release(thread: Thread): void {
    clearTimeout(thread.timer);
    thread.running = undefined;
    if (thread.retired) return;
    thread.worker.unref();
    this.idle.push(thread);
    this.pump();
  }

  private died(thread: Thread, err: JobCrashedError): void {
    if (thread.retired) return;
    if (thread.running) this.settle(thread.running, err);
    this.retire(thread);
    this.pump();
  }

  private abort(pending: Pending): void {
    const waiting = this.queue.indexOf(pending);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      this.settle(pending, pending.signal!.reason);
      return;
    }
    for (const thread of this.threads) {
      if (thread.running !== pending) continue;
      this.settle(pending, pending.signal!.reason);
      this.retire(thread);
      this.pump();
      return;
    }
  }

  private retire(thread: Thread): void {
    if (thread.retired) return;
    thread.retired = true;
    clearTimeout(thread.timer);
    thread.running = undefined;
    this.threads.delete(thread);
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
    const ended = thread.worker.terminate();
    this.ending.add(ended);
    void ended.finally(() => this.ending.delete(ended));
  }

  private settle(pending: Pending, err: unknown, value?: unknown): void {
    if (pending.onAbort) pending.signal!.removeEventListener('abort', pending.onAbort);
    if (err !== undefined) pending.reject(err);
    else pending.resolve(value);
  }
}
