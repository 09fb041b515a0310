// One request budget for a whole run, shared by submissions, status polls and result reads: at
// most `maxPerSecond` requests start in any one-second window (a sliding window over the last
// start times, so bursts never exceed it either), reads go before writes, and a 429 or 503
// pauses every request for its Retry-After and halves the rate, which then grows back by one
// request per second every two seconds without another refusal (additive increase,
// multiplicative decrease, as TCP does). The choices are in
// docs/guides/large-runs-and-reruns.md, "Polite by construction".
import { InterruptedError } from '../api/errors.js';

export const DEFAULT_MAX_RPS = 20;
/** Without a Retry-After, a 429 or 503 pauses the run this long (twice the retry policy's base delay). */
const DEFAULT_PAUSE_MS = 1_000;
/** After a halving, one more request per second is allowed every this many ms. */
const RECOVERY_STEP_MS = 2_000;
const WINDOW_MS = 1_000;

export type RequestKind = 'read' | 'write';

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface BudgetClock {
  now: () => number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (timer: unknown) => void;
}

const realClock: BudgetClock = {
  now: () => performance.now(),
  // not unref'd: a request waiting for its turn must keep the process alive
  setTimer: (fn, ms) => setTimeout(fn, ms),
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

export class RequestBudget {
  readonly maxPerSecond: number;
  /** Start times of the last `maxPerSecond` requests, a ring. */
  private readonly starts: Float64Array;
  private next = 0;
  private started = 0;
  private pausedUntil = -Infinity;
  /** The rate right after the last halving, and when it happened. */
  private reducedTo: number;
  private reducedAt = -Infinity;
  private readonly queues: [Waiter[], Waiter[]] = [[], []];
  private timer: unknown;
  private timerAt = Infinity;
  private readonly clock: BudgetClock;
  private readonly pauseMs: number;
  /** How many times a 429 or 503 slowed the run, and the longest pause asked for (for --debug and tests). */
  penalties = 0;

  /** `pauseMs`: how long a 429 or 503 without a Retry-After pauses the run. */
  constructor(maxPerSecond: number = DEFAULT_MAX_RPS, clock: BudgetClock = realClock, pauseMs: number = DEFAULT_PAUSE_MS) {
    if (!(maxPerSecond >= 1) || !Number.isFinite(maxPerSecond))
      throw new RangeError(`maxPerSecond must be at least 1, not ${maxPerSecond}`);
    this.maxPerSecond = Math.floor(maxPerSecond);
    this.starts = new Float64Array(this.maxPerSecond);
    this.reducedTo = this.maxPerSecond;
    this.clock = clock;
    this.pauseMs = pauseMs;
  }

  /** The rate allowed now: the full rate, or a halved one growing back. */
  currentLimit(now: number = this.clock.now()): number {
    if (this.reducedTo >= this.maxPerSecond) return this.maxPerSecond;
    const grown = this.reducedTo + Math.floor(Math.max(0, now - this.reducedAt) / RECOVERY_STEP_MS);
    if (grown >= this.maxPerSecond) this.reducedTo = this.maxPerSecond;
    return Math.min(this.maxPerSecond, grown);
  }

  /** Resolves when a request of this kind may start (reads first); rejects when the signal aborts. */
  acquire(kind: RequestKind = 'read', signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new InterruptedError('request interrupted'));
    if (this.queues[0].length === 0 && this.queues[1].length === 0 && this.waitFor(this.clock.now()) <= 0) {
      this.record(this.clock.now());
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const queue = this.queues[kind === 'read' ? 0 : 1];
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(new InterruptedError('request interrupted'));
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queues[kind === 'read' ? 0 : 1].push(waiter);
      this.arm();
    });
  }

  /**
   * A 429 or 503: no request starts until `retryAfterMs` has passed (1 s without one), and the
   * rate is halved, at most once per pause (many requests in flight refused together count once).
   */
  penalize(retryAfterMs?: number): void {
    const now = this.clock.now();
    const pause = retryAfterMs !== undefined && retryAfterMs >= 0 ? retryAfterMs : this.pauseMs;
    if (now >= this.pausedUntil) {
      this.reducedTo = Math.max(1, Math.floor(this.currentLimit(now) / 2));
      this.reducedAt = now + pause;
      this.penalties += 1;
    }
    this.pausedUntil = Math.max(this.pausedUntil, now + pause);
    this.arm();
  }

  /** How long until the next request may start (0: now). */
  private waitFor(now: number): number {
    const limit = this.currentLimit(now);
    let wait = this.pausedUntil - now;
    if (this.started >= limit) {
      // the limit-th most recent start must have left the one-second window
      const oldest = this.starts[(this.next - limit + this.maxPerSecond) % this.maxPerSecond];
      wait = Math.max(wait, oldest + WINDOW_MS - now);
    }
    return Math.max(0, wait);
  }

  private record(now: number): void {
    this.starts[this.next] = now;
    this.next = (this.next + 1) % this.maxPerSecond;
    this.started += 1;
  }

  /** Lets waiting requests start while the window allows, then sets a timer for the rest. */
  private release(): void {
    for (;;) {
      const queue = this.queues[0].length > 0 ? this.queues[0] : this.queues[1];
      if (queue.length === 0) return;
      const now = this.clock.now();
      if (this.waitFor(now) > 0) break;
      const waiter = queue.shift()!;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.record(now);
      waiter.resolve();
    }
    this.arm();
  }

  private arm(): void {
    if (this.queues[0].length === 0 && this.queues[1].length === 0) return;
    const now = this.clock.now();
    const wait = this.waitFor(now);
    if (wait <= 0) {
      queueMicrotask(() => this.release());
      return;
    }
    const at = now + wait;
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timerAt = at;
    // +1 ms: a timer may fire a fraction of a millisecond early
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.release();
    }, Math.ceil(wait) + 1);
  }
}
