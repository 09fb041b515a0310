// One polling loop for any number of tasks (spec 4.10: start at 3 s, back off to 15 s, always
// with an overall deadline). Each task keeps its own interval; the loop sleeps until the
// earliest one is due, so a thousand tasks cost one timer, not a thousand.
import { ApiError, ConnectionError, InterruptedError, WatchTimeoutError } from '../api/errors.js';
import { POLL_MAX_MS, POLL_START_MS } from '../api/limits.js';
import type { StatusSnapshot } from '../api/schemas.js';
import { isFinalSnapshot } from '../api/status.js';
import { abortableSleep } from './http.js';
import { parseRetryAfter } from './retry.js';

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
  /** Called when a poll failed for a reason worth retrying (connection lost, 5xx, 429). */
  onTransientError?: (taskId: string, error: Error) => void;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export type StatusFetcher = (taskId: string, signal?: AbortSignal) => Promise<{ snapshot: StatusSnapshot; retryAfterMs?: number }>;

interface Tracked {
  id: string;
  dueAt: number;
  interval: number;
  last?: StatusSnapshot;
  signature?: string;
}

/**
 * Polls until every task is final. Resolves with the final snapshots; throws WatchTimeoutError
 * (naming the tasks still running) at the deadline, InterruptedError when the signal aborts.
 */
export async function watchTasks(fetchStatus: StatusFetcher, taskIds: readonly string[], options: WatchOptions): Promise<Map<string, StatusSnapshot>> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const schedule = options.schedule ?? pollSchedule();
  const concurrency = options.concurrency ?? 8;
  const deadline = now() + options.timeoutMs;
  const pending = new Map<string, Tracked>();
  for (const id of new Set(taskIds)) pending.set(id, { id, dueAt: now(), interval: schedule.startMs });
  const done = new Map<string, StatusSnapshot>();

  while (pending.size > 0) {
    if (options.signal?.aborted) throw new InterruptedError('stopped watching');
    const current = now();
    if (current >= deadline) {
      // One last look at every task, so one that has just finished is not reported as late.
      const remaining = [...pending.values()];
      for (let i = 0; i < remaining.length; i += concurrency) {
        await Promise.all(remaining.slice(i, i + concurrency).map((task) => pollOne(task)));
      }
      if (pending.size > 0) throw new WatchTimeoutError([...pending.keys()], options.timeoutMs);
      break;
    }
    const due = [...pending.values()].filter((task) => task.dueAt <= current).slice(0, concurrency);
    if (due.length === 0) {
      let earliest = Infinity;
      for (const task of pending.values()) earliest = Math.min(earliest, task.dueAt);
      await pauseFor(Math.min(earliest, deadline) - current);
      continue;
    }
    await Promise.all(due.map((task) => pollOne(task)));
  }
  return done;

  async function pauseFor(ms: number): Promise<void> {
    try {
      await sleep(Math.max(0, ms), options.signal);
    } catch (error) {
      throw new InterruptedError('stopped watching', { cause: error });
    }
  }

  async function pollOne(task: Tracked): Promise<void> {
    let snapshot: StatusSnapshot;
    let retryAfter: number | undefined;
    try {
      ({ snapshot, retryAfterMs: retryAfter } = await fetchStatus(task.id, options.signal));
    } catch (error) {
      if (options.signal?.aborted) throw new InterruptedError('stopped watching', { cause: error });
      if (!isTransient(error)) throw error;
      options.onTransientError?.(task.id, error as Error);
      retryAfter = error instanceof ApiError ? parseRetryAfter(error.headers?.['retry-after'] as string | undefined) : undefined;
      schedule_(task, retryAfter);
      return;
    }
    const signature = JSON.stringify([snapshot.status, snapshot.stage, snapshot.position, snapshot.length, snapshot.cur_step, snapshot.progress, snapshot.message]);
    const changed = signature !== task.signature;
    task.signature = signature;
    task.last = snapshot;
    options.onUpdate?.(snapshot, changed);
    if (isFinalSnapshot(snapshot)) {
      pending.delete(task.id);
      done.set(task.id, snapshot);
      return;
    }
    schedule_(task, retryAfter);
  }

  function schedule_(task: Tracked, retryAfter: number | undefined): void {
    const wait = Math.max(task.interval, retryAfter ?? 0);
    task.dueAt = now() + wait;
    task.interval = nextInterval(task.interval, schedule);
  }
}

/** Errors after which watching goes on: the server may be restarting or briefly overloaded. */
export function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  if (error instanceof ApiError) return error.status === 408 || error.status === 429 || error.status >= 500;
  return false;
}
