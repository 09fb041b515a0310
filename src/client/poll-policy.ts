// When to look at a task (spec 4.10: every 3 s at first, backing off to at most every 15 s, with an
// overall time limit), for the polling loop (poll.ts). Pure: test/unit/poll-policy.test.ts.
import { ApiError, RateLimitError, ServerError } from '../api/errors.js';
import { POLL_MAX_MS, POLL_START_MS } from '../api/limits.js';
import { parseRetryAfter } from './retry.js';

export type PollSchedule = { startMs: number; maxMs: number; factor: number };

/** The spec's schedule: 3 s, each interval 1.5 times the last, up to 15 s (or up to a start above that). */
export function pollSchedule(startMs: number = POLL_START_MS): PollSchedule {
  return { startMs, maxMs: Math.max(startMs, POLL_MAX_MS), factor: 1.5 };
}

export function nextInterval(interval: number, schedule: PollSchedule): number {
  return Math.min(schedule.maxMs, Math.round(interval * schedule.factor));
}

/**
 * How many unfinished tasks, from the oldest, are looked at: the service works its queue oldest first, so a task behind an
 * unfinished one is rarely done. One more per task found final (kct is behind), back to one at an unfinished one (TCP's window).
 */
export function sweepWidth(width: number, foundFinal: boolean, concurrency: number): number {
  return foundFinal ? Math.min(concurrency, width + 1) : 1;
}

/** A task waiting in the service's queue: the tasks sent after it cannot be done before it moves (the queue is first in, first out). */
export function isQueued(snapshot: { status?: unknown; stage?: unknown }): boolean {
  return /^(queued|pending)$/i.test(String(snapshot.status ?? snapshot.stage ?? ''));
}

/** A last look at a task at its deadline is given this long: enough for a status answer, not for a stuck connection. */
export const LAST_LOOK_MS = 5_000;
/** The shortest time any other status request is given. */
export const MIN_REQUEST_MS = 1_000;

/** How long one status request is given: a short last look at the deadline, else up to the deadline. */
export function requestBound(lastLook: boolean, msToDeadline: number): number {
  return lastLook ? LAST_LOOK_MS : Math.ceil(Math.max(MIN_REQUEST_MS, Math.min(msToDeadline, 2 ** 31 - 1)));
}

/** Errors after which watching goes on: the server answered, but is briefly overloaded or failing. */
export function isTransient(error: unknown): boolean {
  return error instanceof RateLimitError || error instanceof ServerError || (error instanceof ApiError && error.status === 408);
}

/** The wait a failed look's answer asked for (Retry-After), if any. */
export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof ApiError ? parseRetryAfter(error.headers?.['retry-after']) : undefined;
}
