// Waiting for tasks (spec 4.10): one loop for any number of tasks, each with its deadline and a few
// numbers. The service works its queue oldest first, and so does kct: each task on the spec's schedule,
// from the oldest unfinished, as many as the sweep allows (poll-policy.ts), each request in its turn (http.ts).
import { ConnectionError, InterruptedError, ServerStoppedAnsweringError, UsageError, WatchTimeoutError } from '../api/errors.js';
import type { StatusSnapshot } from '../api/schemas.js';
import { isFinalSnapshot } from '../api/status.js';
import * as policy from './poll-policy.js';
import { abortableSleep } from './sleep.js';

export { isTransient, nextInterval, type PollSchedule, pollSchedule } from './poll-policy.js';

export type StatusFetcher = (taskId: string, signal?: AbortSignal) => Promise<{ snapshot: StatusSnapshot; retryAfterMs?: number }>;

export interface WatchOptions {
  /** How long each task is watched after it was added. */
  timeoutMs: number;
  schedule?: policy.PollSchedule;
  signal?: AbortSignal;
  /** Status requests in flight at once, at most (8). */
  concurrency?: number;
  /** Every snapshot; `changed` is false when nothing visible moved. */
  onUpdate?: (snapshot: StatusSnapshot, changed: boolean) => void;
  /** A poll failed for a reason worth polling again for (5xx, 429, no answer in time); a connection error is not one: the server stopped answering. */
  onTransientError?: (taskId: string, error: Error) => void;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The server answered before this watch began (a submission): a refusal then is a server that stopped answering, not one never reached. */
  reachedBefore?: () => boolean;
}

/** What becomes of each task: exactly one is called once, with its tag. An error: a poll that cannot succeed (404, 401), the server stopped answering, or the watch was interrupted. */
export interface SchedulerHandlers {
  onFinal(tag: number, snapshot: StatusSnapshot, taskId: string): void;
  onError(tag: number, error: unknown, taskId: string): void;
  onTimeout(tag: number, taskId: string): void;
}

/** A watched task: `order`, its place among those added; `seen`, what its last unfinished snapshot showed. */
type Task = { id: string; tag: number; order: number; deadline: number; notBefore: number; weight: number; interval: number } & {
  state: 'waiting' | 'asking' | 'done';
  seen?: string;
};

export class TaskScheduler {
  /** What the tasks still watched weigh together (a batch weighs its items). */
  watchedWeight = 0;
  /** Tasks in the order added: those before `head` are done (and dropped from time to time). */
  private tasks: Task[] = [];
  private head = 0;
  private width = 1;
  /** The newest task last seen queued: those sent after it are not looked at (not even at their deadline) until it moves. */
  private queued = -1;
  private added = 0;
  private running = false;
  private wake?: AbortController;
  /** Set once the server stopped answering: every task watched then or later is told so. */
  private gone?: ConnectionError;
  /** A status answer came: a refusal after it is a server that stopped answering, before it one never reached. */
  private answered = false;
  /** Polls in flight, aborted by one listener on the run's signal (an AbortSignal.any() per poll would leave one on it each time). */
  private readonly polls = new Set<AbortController>();
  private readonly stop = () => {
    for (const controller of [this.wake, ...this.polls]) controller?.abort(this.options.signal?.reason);
  };

  constructor(
    private readonly fetchStatus: StatusFetcher,
    private readonly options: WatchOptions,
    private readonly handlers: SchedulerHandlers,
    private readonly schedule = options.schedule ?? policy.pollSchedule(),
    private readonly concurrency = options.concurrency ?? 8,
    private readonly now = options.now ?? Date.now,
    private readonly sleep = options.sleep ?? abortableSleep,
  ) {
    // every wait has its deadline (docs/library.md): a caller from JavaScript may give none, or a string
    const { timeoutMs } = options;
    if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0)
      throw new UsageError(`timeoutMs must be a number of milliseconds above 0, not ${JSON.stringify(timeoutMs) ?? 'undefined'}`, {
        suggestion: 'Give every wait its deadline, e.g. { timeoutMs: 30 * 60_000 }.',
      });
  }

  /** Watches a task until it is final or its deadline passes; `firstPollIn` delays its first look. */
  add(id: string, tag: number, options: { firstPollIn?: number; weight?: number } = {}): void {
    if (this.gone) {
      const error = new ServerStoppedAnsweringError([id], this.gone, { reached: this.reached() });
      queueMicrotask(() => this.handlers.onError(tag, error, id));
      return;
    }
    const [now, weight] = [this.now(), Math.max(1, options.weight ?? 1)];
    this.watchedWeight += weight;
    const [deadline, notBefore, interval] = [now + this.options.timeoutMs, now + (options.firstPollIn ?? 0), this.schedule.startMs];
    this.tasks.push({ id, tag, order: this.added++, deadline, notBefore, weight, interval, state: 'waiting' });
    this.wake?.abort();
    this.start();
  }

  /** Starts the loop on the next microtask, if it is not running: tasks added together are all known to its first round. */
  private start(): void {
    if (!this.running) queueMicrotask(() => void this.loop());
    this.running = true;
  }

  private async loop(): Promise<void> {
    this.options.signal?.addEventListener('abort', this.stop);
    try {
      for (;;) {
        this.options.signal?.throwIfAborted();
        const wakeAt = this.issue(this.now());
        if (this.head === this.tasks.length && this.polls.size === 0) break;
        const inflight = this.polls.size;
        // a poll answered at once (a local server, a test's fetcher) is handled before any sleep
        if (inflight > 0) await new Promise(setImmediate);
        if (this.polls.size === inflight && wakeAt > this.now() && !this.options.signal?.aborted) {
          // until the time is up, or a task is added or answered, or the run's signal aborts (this.stop)
          this.wake = new AbortController();
          await this.sleep(Math.ceil(Math.min(wakeAt - this.now(), 2 ** 31 - 1)), this.wake.signal).catch(() => {});
        }
      }
    } catch (error) {
      this.failAll(() => (error instanceof InterruptedError ? error : new InterruptedError('stopped watching', { cause: error })));
    } finally {
      this.options.signal?.removeEventListener('abort', this.stop);
      this.running = false;
      // tasks a handler added while the loop was failing the others get a round of their own
      if (this.head < this.tasks.length) this.start();
    }
  }

  /** Starts the looks due from the head: the sweep's tasks in their time, a last look at a deadline; past the sweep, a time-out. Returns when the next falls due. */
  private issue(now: number): number {
    let wakeAt = Infinity;
    const [due, late]: Task[][] = [[], []];
    for (let at = this.head, swept = 0; at < this.tasks.length; at++) {
      const task = this.tasks[at];
      if (task.state === 'done') continue;
      const inSweep = swept++ < this.width && (this.queued < 0 || task.order <= this.queued);
      if (task.deadline > now) wakeAt = Math.min(wakeAt, task.deadline);
      else if (!inSweep) late.push(task);
      if (!inSweep && task.deadline > now) break; // deadlines grow in the order tasks were added
      if (!inSweep || task.state === 'asking') continue; // a task being asked about: its answer decides
      const dueAt = task.deadline <= now ? now : task.notBefore; // a last look at the deadline
      if (dueAt > now) wakeAt = Math.min(wakeAt, dueAt);
      else if (this.polls.size + due.length < this.concurrency) due.push(task); // else an answer wakes the loop
    }
    for (const task of late) this.finish(task, () => this.handlers.onTimeout(task.tag, task.id));
    // started once chosen: an answer handled at once may add tasks and drop finished ones
    for (const task of due) void this.poll(task, now);
    return wakeAt;
  }

  private reached(): boolean {
    return this.answered || this.options.reachedBefore?.() === true;
  }

  private async poll(task: Task, startedAt: number): Promise<void> {
    const boundMs = policy.requestBound(task.deadline <= startedAt, task.deadline - startedAt);
    task.state = 'asking';
    const poll = new AbortController();
    const timer = setTimeout(() => poll.abort(), boundMs).unref();
    this.polls.add(poll);
    const answer = await this.fetchStatus(task.id, poll.signal).catch((error: unknown) => ({ failure: error }));
    clearTimeout(timer);
    this.polls.delete(poll);
    this.wake?.abort(); // the loop goes round again once this answer is handled (synchronously, below)
    if (this.options.signal?.aborted || (task.state as Task['state']) === 'done') return;
    task.state = 'waiting';
    try {
      if (!('failure' in answer)) {
        this.answered = true;
        this.observe(task, answer.snapshot, answer.retryAfterMs);
      } else if (answer.failure instanceof ConnectionError && !poll.signal.aborted) {
        const gone = (this.gone ??= answer.failure); // the server stopped answering: every task is told at once
        const reached = this.reached();
        this.failAll((ids) => new ServerStoppedAnsweringError(ids, gone, { reached }));
      } else if (policy.isTransient(answer.failure) || poll.signal.aborted) {
        const error = poll.signal.aborted ? new Error(`no status answer within ${boundMs / 1000} s`) : (answer.failure as Error);
        this.options.onTransientError?.(task.id, error);
        this.later(task, policy.retryAfterOf(answer.failure));
      } else {
        if (task.order === this.queued) this.queued = -1; // a task gone (404) tells nothing of those behind it
        this.finish(task, () => this.handlers.onError(task.tag, answer.failure, task.id));
      }
      if ((task.state as Task['state']) !== 'done' && task.deadline <= this.now())
        this.finish(task, () => this.handlers.onTimeout(task.tag, task.id));
    } catch (error) {
      // a handler threw: that is a bug, reported for this task rather than lost
      if ((task.state as Task['state']) !== 'done') this.finish(task, () => this.handlers.onError(task.tag, error, task.id));
    }
  }

  private observe(task: Task, snapshot: StatusSnapshot, retryAfterMs?: number): void {
    const { status, stage, position, length, cur_step, progress, message } = snapshot;
    const seen = JSON.stringify([status, stage, position, length, cur_step, progress, message]);
    this.options.onUpdate?.(snapshot, seen !== task.seen);
    this.width = policy.sweepWidth(this.width, isFinalSnapshot(snapshot), this.concurrency);
    if (policy.isQueued(snapshot)) this.queued = Math.max(this.queued, task.order);
    else if (task.order >= this.queued) this.queued = -1; // it moved, and every task ahead of it
    if (isFinalSnapshot(snapshot)) this.finish(task, () => this.handlers.onFinal(task.tag, snapshot, task.id));
    else this.later(Object.assign(task, { seen }), retryAfterMs);
  }

  /** The next look no sooner than the task's interval (or the server's hint), and a longer interval after. */
  private later(task: Task, retryAfterMs?: number): void {
    task.notBefore = this.now() + Math.max(task.interval, retryAfterMs ?? 0);
    task.interval = policy.nextInterval(task.interval, this.schedule);
  }

  /** Forgets a task, then tells its handler (which may add tasks). */
  private finish(task: Task, tell: () => void): void {
    [task.state, task.seen] = ['done', undefined];
    this.watchedWeight -= task.weight;
    while (this.tasks[this.head]?.state === 'done') this.head += 1;
    // finished tasks at the front are dropped once they are most of the list
    if (this.head > 1024 && this.head * 2 > this.tasks.length) [this.tasks, this.head] = [this.tasks.slice(this.head), 0];
    tell();
  }

  /** Tells every task still watched why watching stopped. */
  private failAll(why: (ids: string[]) => unknown): void {
    const tasks = this.tasks.slice(this.head).filter((task) => task.state !== 'done');
    const error = why(tasks.map((task) => task.id));
    for (const task of tasks) if (task.state !== 'done') this.finish(task, () => this.handlers.onError(task.tag, error, task.id));
  }
}

/** The promise-per-task face of the loop: tasks may be added while it runs. */
export class TaskPoller {
  private readonly waiting = new Map<string, Promise<StatusSnapshot>>();
  private readonly settle = new Map<string, (error: unknown, snapshot?: StatusSnapshot) => void>();
  private readonly scheduler: TaskScheduler;

  constructor(fetchStatus: StatusFetcher, options: WatchOptions) {
    // a settled task is forgotten: a long-lived poller holds only what it watches, and a task watched again is looked at anew
    const done = (taskId: string, error: unknown, snapshot?: StatusSnapshot) => {
      const settle = this.settle.get(taskId);
      this.settle.delete(taskId);
      this.waiting.delete(taskId);
      settle?.(error, snapshot);
    };
    this.scheduler = new TaskScheduler(fetchStatus, options, {
      onFinal: (_, snapshot, taskId) => done(taskId, undefined, snapshot),
      onError: (_, error, taskId) => done(taskId, error),
      onTimeout: (_, taskId) => done(taskId, new WatchTimeoutError([taskId], options.timeoutMs)),
    });
  }

  /** The task's final snapshot; WatchTimeoutError at its deadline, InterruptedError on abort, or a poll's error that cannot pass (404, 401). */
  watch(taskId: string, firstPollIn = 0, weight = 1): Promise<StatusSnapshot> {
    let promise = this.waiting.get(taskId);
    if (promise) return promise;
    promise = new Promise((ok, fail) => this.settle.set(taskId, (error, snapshot) => (snapshot ? ok(snapshot) : fail(error))));
    this.waiting.set(taskId, promise);
    this.scheduler.add(taskId, 0, { firstPollIn, weight });
    return promise;
  }
}

/** Polls until every task is final: the final snapshots; WatchTimeoutError naming every task still running at the deadline; InterruptedError on abort. */
export async function watchTasks(fetchStatus: StatusFetcher, taskIds: readonly string[], options: WatchOptions) {
  const poller = new TaskPoller(fetchStatus, options);
  const ids = [...new Set(taskIds)];
  const outcomes = await Promise.allSettled(ids.map((id) => poller.watch(id)));
  const failed = outcomes.find((outcome) => outcome.status === 'rejected' && !(outcome.reason instanceof WatchTimeoutError));
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const late = ids.filter((_, index) => outcomes[index].status === 'rejected');
  if (late.length > 0) throw new WatchTimeoutError(late, options.timeoutMs);
  return new Map(ids.map((id, index) => [id, (outcomes[index] as PromiseFulfilledResult<StatusSnapshot>).value]));
}
