// Waiting for tasks (spec 4.10: start at 3 s, back off to 15 s, always with a time limit). One
// polling loop serves any number of tasks (scheduler.ts: position-aware, oldest first, a few
// numbers per task); this module gives it the promise-per-task face most callers want. Tasks
// can be added while the loop runs (a pipeline submits and watches at the same time).
import { WatchTimeoutError } from '../api/errors.js';
import { POLL_MAX_MS, POLL_START_MS } from '../api/limits.js';
import type { StatusSnapshot } from '../api/schemas.js';
import { isTransient, nextInterval, type PollSchedule, type SchedulerOptions, type StatusFetcher, TaskScheduler } from './scheduler.js';

export { isTransient, nextInterval, type PollSchedule, type StatusFetcher };

export function pollSchedule(startMs: number = POLL_START_MS): PollSchedule {
  return { startMs, maxMs: Math.max(startMs, POLL_MAX_MS), factor: 1.5 };
}

export interface WatchOptions extends Omit<SchedulerOptions, 'schedule'> {
  schedule?: PollSchedule;
}

/** The scheduler's options with the spec's schedule filled in. */
export function schedulerOptions(options: WatchOptions): SchedulerOptions {
  return { ...options, schedule: options.schedule ?? pollSchedule() };
}

export class TaskPoller {
  private readonly waiters = new Map<string, Promise<StatusSnapshot>>();
  private readonly settle = new Map<number, { resolve: (snapshot: StatusSnapshot) => void; reject: (error: unknown) => void }>();
  private readonly scheduler: TaskScheduler;
  private nextTag = 0;

  constructor(fetchStatus: StatusFetcher, options: WatchOptions) {
    const take = (tag: number) => {
      const entry = this.settle.get(tag)!;
      this.settle.delete(tag);
      return entry;
    };
    this.scheduler = new TaskScheduler(fetchStatus, schedulerOptions(options), {
      onFinal: (tag, snapshot) => take(tag).resolve(snapshot),
      onError: (tag, error) => take(tag).reject(error),
      onTimeout: (tag, taskId) => take(tag).reject(new WatchTimeoutError([taskId], options.timeoutMs)),
    });
  }

  /**
   * Resolves with the final snapshot of the task. Rejects with WatchTimeoutError at its deadline
   * (--timeout after it was added), InterruptedError on abort, or the error of a poll that cannot
   * succeed (404, 401). `firstPollIn` delays the first look (a task accepted a moment ago is
   * still queued); `weight` is the queue positions it takes (a batch: its items).
   */
  watch(taskId: string, firstPollIn = 0, weight = 1): Promise<StatusSnapshot> {
    const existing = this.waiters.get(taskId);
    if (existing) return existing;
    const tag = this.nextTag++;
    const promise = new Promise<StatusSnapshot>((resolve, reject) => {
      this.settle.set(tag, { resolve, reject });
    });
    this.waiters.set(taskId, promise);
    this.scheduler.add(taskId, tag, { firstPollIn, weight });
    return promise;
  }
}

/**
 * Polls until every task is final. Resolves with the final snapshots; throws WatchTimeoutError
 * (naming every task still running) at the deadline, InterruptedError when the signal aborts.
 */
export async function watchTasks(
  fetchStatus: StatusFetcher,
  taskIds: readonly string[],
  options: WatchOptions,
): Promise<Map<string, StatusSnapshot>> {
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
