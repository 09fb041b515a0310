// The pace of a run: how many requests a second it may start, found from the service's answers
// instead of guessed (after AWS SDKs' adaptive retry mode: CUBIC, RFC 8312, on a measured sending
// rate). Pure: the same answers at the same times give the same pace (test/unit/pace-policy.test.ts);
// budget.ts applies it. Why: docs/guides/large-runs-and-reruns.md, "Polite by construction".

/** The first pace without --max-rps, requests a second: half the fixed budget kct kept for years; prompt answers raise it within seconds. */
export const START_RPS = 10;
/** The slowest pace cuts can reach: one request every 2 s still finds out when the service has room again (AWS's floor). */
export const MIN_RPS = 0.5;
/** A refusal multiplies the pace by this (CUBIC's β): deep enough to fall under the limit, shallow enough to stay near it. */
export const CUT = 0.7;
/** CUBIC's C: after a cut the pace is back at its old peak in cbrt(peak × (1 − CUT) / C) s, about 4 s from 50 a second. */
export const CUBIC_C = 0.4;
/** A cut within this share of the last one's peak meets the same limit again (a service's fixed rate limit). */
const SAME_LIMIT = 0.25;
/** Met again, the peak to climb back to is this much of the pace refused: just under the limit, not on it. */
const UNDER_LIMIT = 0.9;
/** Met again, the climb past the peak flattens by twice each time, to at most this many times CUBIC's. */
const MAX_GENTLE = 8;
/** The pace never rises past this multiple of what is really sent (a run held back by --jobs banks no burst): before any refusal it doubles this way each bucket while it is used, and between buckets with each prompt answer while requests wait (FASTEST_ROUND_TRIP_MS). */
export const HEADROOM = 2;
/** An answer slower than this is not prompt: the service is queueing requests, so the pace stops rising before it is refused. */
export const PROMPT_MS = 1_000;
/** A 429 or 503 without Retry-After pauses every request this long. */
export const DEFAULT_PAUSE_MS = 1_000;
/**
 * A start let out late keeps its place in the schedule, up to this late: the timer that lets
 * requests out fires in whole milliseconds, later on a busy loop, and would otherwise cap a fast
 * pace near one start a turn (20,000 answers: 29.6 s without it, 14.5 s with it; docs/benchmarks.md).
 */
const CATCH_UP_MS = 10;
/**
 * What is really sent is counted over this long, then smoothed (0.8 to the newest, as AWS's). Slow
 * start doubles the pace about once a bucket, so AWS's half second took 2.5 s to climb from 10 to
 * 1,000 a second, longer than a class of 1,000 takes to send; a tenth of a second is still many
 * timer turns and, against a service that answers in tens of ms, a few round trips.
 */
export const MEASURE_MS = 100;
const SMOOTH = 0.8;
/**
 * Slow start between buckets, as TCP's (a segment more for each acknowledgement: twice the window
 * a round trip): while requests wait for their turn, a prompt answer adds one request per its round
 * trip to the pace, at most doubling it; a round trip shorter than this (a loopback) counts as this
 * long, so one answer adds at most 200 a second. Without it a run at 10 a second sends one request
 * in its first bucket and takes six buckets to reach a fast service's pace (docs/benchmarks.md).
 */
const FASTEST_ROUND_TRIP_MS = 5;

export interface Pace {
  /** --max-rps (Infinity when the user set none): the pace never exceeds it. */
  readonly ceiling: number;
  /** Requests a second allowed now. */
  rate: number;
  /** The pace at the last cut or slow answer, and when the climb back began (CUBIC); undefined during slow start. */
  peak?: number;
  climbFrom: number;
  /** No request starts before this (a Retry-After, or the default pause). */
  pausedUntil: number;
  /** Requests a second really sent (smoothed), and the count of the bucket being filled. */
  sending: number;
  counted: number;
  countedFrom: number;
  /** Answers that were a 429 or 503, and the cuts they caused (many refused together cut once). */
  refusals: number;
  cuts: number;
  /** How much flatter the climb is (CUBIC's C divided by it): doubled each time a cut meets the last one's peak again. */
  gentle: number;
}

/** A run's pace: at --max-rps when the user gave one (the pace they chose, and never more), else a modest start. */
export function startPace(ceiling = Infinity, now = 0): Pace {
  if (!(ceiling >= 1)) throw new RangeError(`the most requests a second must be at least 1, not ${ceiling}`);
  const rate = Number.isFinite(ceiling) ? ceiling : START_RPS;
  return {
    ceiling,
    rate,
    climbFrom: now,
    pausedUntil: -Infinity,
    sending: 0,
    counted: 0,
    countedFrom: now,
    refusals: 0,
    cuts: 0,
    gentle: 1,
  };
}

/**
 * When the next request may start: spaced by the pace from the last start as the schedule has it
 * (`scheduled`), never in a pause, and never closer to the last real start (`lastStart`) than
 * --max-rps allows, so no second ever holds more.
 */
export function nextStart(pace: Pace, scheduled: number, lastStart = scheduled): number {
  const ceilingSpacing = Number.isFinite(pace.ceiling) ? lastStart + 1000 / pace.ceiling : -Infinity;
  return Math.max(pace.pausedUntil, scheduled + 1000 / pace.rate, ceilingSpacing);
}

/** Where a start at `now` stands in the schedule: where it was due, or CATCH_UP_MS before now at the latest. */
export function scheduledAt(pace: Pace, scheduled: number, now: number): number {
  return Math.max(pace.pausedUntil, scheduled + 1000 / pace.rate, now - CATCH_UP_MS);
}

/** A request started: counted in the bucket it closes, so that a bucket's rate is what was sent in it. */
export function started(pace: Pace, now: number): void {
  pace.counted += 1;
  const elapsed = now - pace.countedFrom;
  if (elapsed >= MEASURE_MS) {
    pace.sending = SMOOTH * ((pace.counted * 1000) / elapsed) + (1 - SMOOTH) * pace.sending;
    pace.counted = 0;
    pace.countedFrom = now;
  }
}

export interface Answer {
  latencyMs: number;
  /** Requests were waiting for their turn when it came: the pace, not --jobs, held the run back. */
  waiting?: boolean;
  /** A 429 or 503. */
  refused: boolean;
  retryAfterMs?: number;
  /** How long a refusal without Retry-After pauses (DEFAULT_PAUSE_MS unless the caller knows better). */
  pauseMs?: number;
}

/** An answer came: a refusal cuts the pace and pauses, a slow answer holds it, a prompt one lets it rise. */
export function answered(pace: Pace, now: number, answer: Answer): void {
  if (answer.refused) {
    pace.refusals += 1;
    const pause =
      answer.retryAfterMs !== undefined && answer.retryAfterMs >= 0 ? answer.retryAfterMs : (answer.pauseMs ?? DEFAULT_PAUSE_MS);
    // requests in flight refused together are one signal: cut once per pause
    if (now >= pace.pausedUntil) {
      const base = pace.sending > 0 ? Math.min(pace.rate, pace.sending) : pace.rate;
      // refused again where it was refused before: the service's fixed limit is there, so the climb
      // returns to just under it and probes past it more slowly (at 2 a second, half the refusals)
      const again = pace.peak !== undefined && Math.abs(base - pace.peak) <= pace.peak * SAME_LIMIT;
      pace.gentle = again ? Math.min(MAX_GENTLE, pace.gentle * 2) : 1;
      pace.peak = again ? base * UNDER_LIMIT : base;
      pace.rate = Math.max(MIN_RPS, base * CUT);
      pace.climbFrom = now + pause;
      pace.cuts += 1;
    }
    pace.pausedUntil = Math.max(pace.pausedUntil, now + pause);
    return;
  }
  if (answer.latencyMs > PROMPT_MS) {
    // hold here: the curve restarts at its plateau on the current pace, flat at first
    pace.peak = pace.rate;
    pace.climbFrom = now - cubicK(pace.rate, pace.gentle) * 1000;
    return;
  }
  // only whole buckets: a bucket just begun holds a request or two, which would read as a pace
  const used = HEADROOM * pace.sending;
  const target =
    pace.peak !== undefined
      ? Math.min(used, cubic(pace.peak, (now - pace.climbFrom) / 1000, pace.gentle))
      : answer.waiting
        ? Math.max(used, Math.min(2 * pace.rate, pace.rate + 1000 / Math.max(FASTEST_ROUND_TRIP_MS, answer.latencyMs)))
        : used;
  pace.rate = Math.min(pace.ceiling, Math.max(pace.rate, target));
}

/**
 * CUBIC's curve (RFC 8312): the pace `t` seconds after a cut from `peak`: concave back to the peak,
 * then convex beyond it; `gentle` times flatter past a limit met again.
 */
export function cubic(peak: number, t: number, gentle = 1): number {
  return (CUBIC_C / gentle) * (t - cubicK(peak, gentle)) ** 3 + peak;
}

/** Seconds from a cut to the old peak. */
function cubicK(peak: number, gentle = 1): number {
  return Math.cbrt((peak * (1 - CUT) * gentle) / CUBIC_C);
}
