// When to look at a task next: the decision, from what kct knows, apart from the loop that makes
// the requests (scheduler.ts) and from where it keeps its numbers. Pure: the same facts give the
// same answer, so each rule is tested on its own (test/unit/poll-policy.test.ts).
//
// The poll interval itself is set in one place: POLL_START_MS and POLL_MAX_MS (api/limits.ts,
// the spec's 3 s backing off to 15 s), turned into a schedule by pollSchedule() (poll.ts). Every
// other time below is named for what it does; those that follow the schedule say so.
import type { QueueModel } from './queue-model.js';

export interface PollSchedule {
  startMs: number;
  maxMs: number;
  factor: number;
}

/** The interval after `interval`, growing by the factor up to the maximum. */
export function nextInterval(interval: number, schedule: PollSchedule): number {
  return Math.min(schedule.maxMs, Math.round(interval * schedule.factor));
}

/** The times the loop keeps to, each with its own reason. */
export interface PollPolicy {
  /** With nothing due, the oldest unfinished task is looked at this long after the last look: no wrong estimate can stall a run for longer than a plain poller would wait. */
  watchdogMs: number;
  /** A running task is looked at at least this often, however long it is expected to run. */
  runningEveryMs: number;
  /** At most one look at the newest task, to measure how fast the queue drains, this often. */
  sentinelSpacingMs: number;
  /** The newest queued task (the anchor) is looked at again at least this soon, until the drain is measured. */
  anchorMinMs: number;
  /** Once the drain is measured, the anchor is looked at halfway to its turn, but at least this often: a few requests an hour keep the estimate honest. */
  anchorMaxMs: number;
  /** How stale the drain estimate may get before the newest task is looked at to measure it again. */
  rateFreshMs: number;
  /** First looks in a row that found the task already final: the service is ahead of the estimate, re-measure it. */
  aheadAfter: number;
  /** The last look at a task at its deadline is given this long. */
  lastLookMs: number;
  /** The shortest time any status request is given. */
  minRequestMs: number;
  /** A task that may be final within this long of its deadline gets a last look instead of a time-out. */
  lastLookReachMs: number;
}

/** The policy for a schedule: the watchdog, the running look, the sentinel, the anchor and the last-look reach follow the slowest poll the schedule allows; the rest are fixed. */
export function pollPolicy(schedule: PollSchedule): PollPolicy {
  return {
    watchdogMs: schedule.maxMs,
    runningEveryMs: schedule.maxMs,
    sentinelSpacingMs: schedule.maxMs,
    anchorMinMs: schedule.maxMs,
    anchorMaxMs: 120_000,
    rateFreshMs: 60_000,
    aheadAfter: 8,
    lastLookMs: 5_000,
    minRequestMs: 1_000,
    lastLookReachMs: schedule.maxMs,
  };
}

/** What kct saw of a task it has polled. */
export interface Seen {
  seenAt: number;
  /** Queue position when last seen queued, and when. */
  pos?: number;
  queuedAt?: number;
  /** Estimated moment it left the queue, and when it was first and last seen running. */
  startAt?: number;
  firstRunningAt?: number;
  lastRunningAt?: number;
  signature?: string;
}

/** A polled task as the policy sees it: queued or running, what was seen, its queue weight and earliest next look. */
export interface Observed {
  queued: boolean;
  seen: Seen;
  weight: number;
  notBefore: number;
}

/** When a polled task is expected to be final. */
export function finishEstimate(task: Omit<Observed, 'notBefore'>, model: QueueModel): number {
  const { seen } = task;
  if (task.queued && seen.pos !== undefined)
    return (seen.queuedAt ?? seen.seenAt) + model.drainMs(seen.pos + task.weight - 1) + model.runMs;
  return Math.max(seen.seenAt, (seen.startAt ?? seen.firstRunningAt ?? seen.seenAt) + model.runMs);
}

/**
 * When a polled, unfinished task is next due: when it is expected to be final, never sooner
 * than its interval allows, and a running one at least every slowest poll. The anchor (the
 * newest queued task) is looked at sooner, to measure the drain.
 */
export function nextLook(task: Observed, model: QueueModel, policy: PollPolicy, context: { isAnchor: boolean; ahead: boolean }): number {
  const finish = finishEstimate(task, model);
  const { seen, notBefore } = task;
  if (task.queued) {
    // the queue has not been seen to move: look on the spec's schedule to learn how fast it does
    if (!Number.isFinite(finish)) return notBefore;
    // first looks keep finding their tasks final: the queue drains faster than estimated, measure it now
    if (context.isAnchor && context.ahead) return notBefore;
    const halfway = model.measuredAt === undefined ? 0 : Math.min(policy.anchorMaxMs, (finish - seen.seenAt) / 2);
    const cap = context.isAnchor ? seen.seenAt + Math.max(policy.anchorMinMs, halfway) : Infinity;
    return Math.max(notBefore, Math.min(finish, cap));
  }
  return Math.max(notBefore, Math.min(finish, seen.seenAt + policy.runningEveryMs));
}

/** The nearest thing kct knows ahead of a task never polled, and how many queue positions lie between. */
export type Reference =
  | { kind: 'queued'; at: number; pos: number; weight: number; between: number }
  | { kind: 'seen'; finish: number; between: number }
  | { kind: 'final'; at: number; between: number }
  | { kind: 'none' };

/**
 * The earliest a task never polled could be final: behind a queued one, after the queue has
 * drained to it and it has run; behind a running or finished one, spaced by the drain rate;
 * behind a queued task whose queue was never seen moving, not at all (Infinity) until it moves.
 */
export function firstLook(reference: Reference, model: QueueModel, ahead: { ahead: boolean; sweepWidth: number }): number {
  switch (reference.kind) {
    case 'queued':
      if (model.rate === undefined) return Infinity;
      return reference.at + model.drainMs(reference.pos + reference.weight - 1 + reference.between) + model.runMs;
    case 'seen':
      return model.rate === undefined ? reference.finish : reference.finish + model.drainMs(reference.between);
    case 'final':
      if (model.rate === undefined) return -Infinity;
      // first looks keep finding tasks final: the service is ahead of the estimate, so the next
      // few are looked at now (half the sweep: a wrong guess costs a few polls, not a run's pace)
      if (ahead.ahead && reference.between <= ahead.sweepWidth / 2) return reference.at;
      return reference.at + model.drainMs(reference.between);
    case 'none':
      return -Infinity;
  }
}

/**
 * Whether the newest task may be looked at now to measure the drain: the queue has been seen to
 * move, no queued task is followed already, the estimate is stale (or the service is ahead of
 * it), and the last such look was long enough ago.
 */
export function sentinelDue(
  model: QueueModel,
  policy: PollPolicy,
  context: { now: number; lastSentinelAt: number; hasAnchor: boolean; ahead: boolean },
): boolean {
  if (!(model.rate !== undefined && model.rate > 0) || context.hasAnchor) return false;
  if (!context.ahead && model.measuredAt !== undefined && context.now - model.measuredAt < policy.rateFreshMs) return false;
  return context.now >= context.lastSentinelAt + policy.sentinelSpacingMs;
}

/** When the watchdog looks at the oldest waiting task: a slowest poll after the last look, never before a Retry-After for it. */
export function watchdogAt(lastLookAt: number, notBefore: number, policy: PollPolicy): number {
  return Math.max(lastLookAt + policy.watchdogMs, notBefore);
}

/** How long one status request is given: a short last look at the deadline, else up to the deadline. */
export function requestBound(lastLook: boolean, msToDeadline: number, policy: PollPolicy): number {
  return lastLook ? policy.lastLookMs : Math.ceil(Math.max(policy.minRequestMs, Math.min(msToDeadline, 2 ** 31 - 1)));
}
