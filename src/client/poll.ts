// One polling loop for any number of tasks (spec 4.10: start at 3 s, back off to 15 s, always
// with an overall deadline). Each task keeps its own interval; the loop sleeps until the
// earliest one is due, so a thousand tasks cost one timer, not a thousand. Tasks can be added
// while the loop runs (a pipeline submits and watches at the same time).
import { ApiError, ConnectionError, InterruptedError, RateLimitError, ServerError, ServerStoppedAnsweringError, WatchTimeoutError, formatDuration } from '../api/errors.js';
import { POLL_MAX_MS, POLL_START_MS } from '../api/limits.js';
import type { StatusSnapshot } from '../api/schemas.js';
import { isFinalSnapshot } from '../api/status.js';
import { abortableSleep } from './http.js';
import { parseRetryAfter } from './retry.js';

/** The last look at the deadline, and the shortest time any status request is given. */
const LAST_LOOK_MS = 5_000;
const MIN_REQUEST_MS = 1_000;

export interface PollSchedule {
  startMs: number;
  maxMs: number;
  factor: number;
}

export function pollSchedule(startMs: number = POLL_START_MS): PollSchedule {
  return { startMs, maxMs: Math.max(startMs, POLL_MAX_MS), factor: 1.5 };
}

/** The interval after `interval`, growing by the factor up to the maximum. */
export function nextInterval(interval: number, schedule: PollSchedule): number {
  return Math.min(schedule.maxMs, Math.round(interval * schedule.factor));
}

export interface WatchOptions {
  timeoutMs: number;
  schedule?: PollSchedule;
  signal?: AbortSignal;
  /** How many status requests may be in flight at once. */
  concurrency?: number;
  /** Called with every snapshot; `changed` is false when nothing visible moved. */
  onUpdate?: (snapshot: StatusSnapshot, changed: boolean) => void;
  /**
   * Called when a poll failed for a reason worth polling again for (5xx, 429). A connection
   * error is not one: the fetcher's own retries already failed, so the server stopped answering.
   */
  onTransientError?: (taskId: string, error: Error) => void;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type StatusFetcher = (taskId: string, signal?: AbortSignal) => Promise<{ snapshot: StatusSnapshot; retryAfterMs?: number }>;

interface Tracked {
  id: string;
  dueAt: number;
  interval: number;
  signature?: string;
  resolve: (snapshot: StatusSnapshot) => void;
  reject: (error: unknown) => void;
}

export class TaskPoller {
  private readonly pending = new Map<string, Tracked>();
  private readonly waiters = new Map<string, Promise<StatusSnapshot>>();
  private readonly schedule: PollSchedule;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly deadline: number;
  private running = false;
  private wake?: AbortController;
  /** Set once the server stopped answering: every task watched then or later is told so. */
  private gone?: ConnectionError;

  constructor(private readonly fetchStatus: StatusFetcher, private readonly options: WatchOptions) {
    this.schedule = options.schedule ?? pollSchedule();
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.deadline = this.now() + options.timeoutMs;
  }

  /**
   * Resolves with the final snapshot of the task. Rejects with WatchTimeoutError at the
   * deadline, InterruptedError on abort, or the error of a poll that cannot succeed (404, 401).
   * `firstPollIn` delays the first look (a task accepted a moment ago is still queued).
   */
  watch(taskId: string, firstPollIn = 0): Promise<StatusSnapshot> {
    const existing = this.waiters.get(taskId);
    if (existing) return existing;
    if (this.gone) return Promise.reject(new ServerStoppedAnsweringError([taskId], this.gone));
    const promise = new Promise<StatusSnapshot>((resolve, reject) => {
      this.pending.set(taskId, { id: taskId, dueAt: this.now() + firstPollIn, interval: this.schedule.startMs, resolve, reject });
    });
    this.waiters.set(taskId, promise);
    this.wake?.abort();
    if (!this.running) void this.loop();
    return promise;
  }

  private async loop(): Promise<void> {
    this.running = true;
    const concurrency = this.options.concurrency ?? 8;
    try {
      while (this.pending.size > 0) {
        if (this.options.signal?.aborted) throw new InterruptedError('stopped watching');
        const current = this.now();
        if (current >= this.deadline) {
          // One last look at every task, so one that has just finished is not reported as late.
          const remaining = [...this.pending.values()];
          for (let i = 0; i < remaining.length; i += concurrency) {
            await Promise.all(remaining.slice(i, i + concurrency).map((task) => this.pollOne(task, LAST_LOOK_MS)));
          }
          const late = [...this.pending.values()];
          for (const task of late) {
            this.pending.delete(task.id);
            task.reject(new WatchTimeoutError([task.id], this.options.timeoutMs));
          }
          break;
        }
        const due: Tracked[] = [];
        let earliest = Infinity;
        for (const task of this.pending.values()) {
          if (task.dueAt <= current && due.length < concurrency) due.push(task);
          earliest = Math.min(earliest, task.dueAt);
        }
        if (due.length === 0) {
          await this.pauseFor(Math.min(earliest, this.deadline) - current);
          continue;
        }
        await Promise.all(due.map((task) => this.pollOne(task, Math.max(MIN_REQUEST_MS, this.deadline - current))));
      }
    } catch (error) {
      const failure = error instanceof InterruptedError ? error : new InterruptedError('stopped watching', { cause: error });
      for (const task of this.pending.values()) task.reject(failure);
      this.pending.clear();
    } finally {
      this.running = false;
    }
  }

  /** Sleeps until the time is up, a new task is added, or the signal aborts (which throws). */
  private async pauseFor(ms: number): Promise<void> {
    this.wake = new AbortController();
    const signals = [this.wake.signal, ...(this.options.signal ? [this.options.signal] : [])];
    try {
      await this.sleep(Math.max(0, ms), AbortSignal.any(signals));
    } catch (error) {
      if (this.options.signal?.aborted) throw new InterruptedError('stopped watching', { cause: error });
    } finally {
      this.wake = undefined;
    }
  }

  /** One status request, bounded by `boundMs` so a hanging request cannot outlast --timeout. */
  private async pollOne(task: Tracked, boundMs: number): Promise<void> {
    let snapshot: StatusSnapshot;
    let retryAfter: number | undefined;
    const bound = AbortSignal.timeout(boundMs);
    const signal = this.options.signal ? AbortSignal.any([this.options.signal, bound]) : bound;
    try {
      ({ snapshot, retryAfterMs: retryAfter } = await this.fetchStatus(task.id, signal));
    } catch (error) {
      if (this.options.signal?.aborted) throw new InterruptedError('stopped watching', { cause: error });
      if (bound.aborted) {
        this.options.onTransientError?.(task.id, new Error(`no status answer within ${formatDuration(boundMs)}`));
        this.reschedule(task, undefined);
        return;
      }
      if (error instanceof ConnectionError) {
        this.stopWatching(error);
        return;
      }
      if (!isTransient(error)) {
        this.pending.delete(task.id);
        task.reject(error);
        return;
      }
      this.options.onTransientError?.(task.id, error as Error);
      const hint = error instanceof ApiError ? parseRetryAfter(error.headers?.['retry-after']) : undefined;
      this.reschedule(task, hint);
      return;
    }
    const signature = JSON.stringify([snapshot.status, snapshot.stage, snapshot.position, snapshot.length, snapshot.cur_step, snapshot.progress, snapshot.message]);
    const changed = signature !== task.signature;
    task.signature = signature;
    this.options.onUpdate?.(snapshot, changed);
    if (isFinalSnapshot(snapshot)) {
      this.pending.delete(task.id);
      task.resolve(snapshot);
      return;
    }
    this.reschedule(task, retryAfter);
  }

  /** The server stopped answering: every task still watched is rejected at once, not polled until the deadline. */
  private stopWatching(error: ConnectionError): void {
    this.gone ??= error;
    const watched = [...this.pending.values()];
    this.pending.clear();
    const failure = new ServerStoppedAnsweringError(watched.map((task) => task.id), error);
    for (const task of watched) task.reject(failure);
  }

  private reschedule(task: Tracked, retryAfter: number | undefined): void {
    task.dueAt = this.now() + Math.max(task.interval, retryAfter ?? 0);
    task.interval = nextInterval(task.interval, this.schedule);
  }
}

/**
 * Polls until every task is final. Resolves with the final snapshots; throws WatchTimeoutError
 * (naming every task still running) at the deadline, InterruptedError when the signal aborts.
 */
export async function watchTasks(fetchStatus: StatusFetcher, taskIds: readonly string[], options: WatchOptions): Promise<Map<string, StatusSnapshot>> {
  const poller = new TaskPoller(fetchStatus, options);
  const ids = [...new Set(taskIds)];
  const outcomes = await Promise.allSettled(ids.map((id) => poller.watch(id)));
  const done = new Map<string, StatusSnapshot>();
  const late: string[] = [];
  let fatal: unknown;
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') done.set(ids[index], outcome.value);
    else if (outcome.reason instanceof WatchTimeoutError) late.push(ids[index]);
    else fatal ??= outcome.reason;
  });
  if (fatal !== undefined) throw fatal;
  if (late.length > 0) throw new WatchTimeoutError(late, options.timeoutMs);
  return done;
}

/** Errors after which watching goes on: the server answered, but is briefly overloaded or failing. */
export function isTransient(error: unknown): boolean {
  if (error instanceof RateLimitError || error instanceof ServerError) return true;
  return error instanceof ApiError && error.status === 408;
}
