// One request budget for a whole run, shared by submissions, status polls and result reads:
// requests start one at a time, spaced by the run's pace (pace-policy.ts: found from the
// service's answers, never above --max-rps), never during a pause a 429 or 503 asked for, and
// reads go before writes (finishing work frees the service before adding to it).
import { InterruptedError } from '../api/errors.js';
import { type Answer, answered, nextStart, type Pace, scheduledAt, started, startPace } from './pace-policy.js';

export type RequestKind = 'read' | 'write';

/** The pace as a person would read it (a progress line, --debug, a benchmark). */
export interface PaceReading {
  /** Requests a second the run allows itself now. */
  rps: number;
  /** Requests a second it really sent lately. */
  sending: number;
  /** Requests a second it really sent from its first request to its last: what a run sent on average. */
  average: number;
  /** --max-rps, when set. */
  ceiling?: number;
  /** Answers that were a 429 or 503. */
  refusals: number;
  /** How long every request still waits for a Retry-After (0: none). */
  pausedForMs: number;
}

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

export interface BudgetOptions {
  /** --max-rps: a ceiling the pace never exceeds (none: the service's answers set it). */
  maxPerSecond?: number;
  /** How long a 429 or 503 without Retry-After pauses the run. */
  pauseMs?: number;
  clock?: BudgetClock;
}

export class RequestBudget {
  private readonly state: Pace;
  /** The last start where the pace's schedule has it (a start let out late keeps its place, CATCH_UP_MS at most). */
  private scheduled = -Infinity;
  /** The last start as it happened: --max-rps spaces real starts, so no second ever holds more. */
  private lastStart = -Infinity;
  private firstStart = -Infinity;
  private starts = 0;
  private readonly queues: [Waiter[], Waiter[]] = [[], []];
  private timer: unknown;
  private timerAt = Infinity;
  private readonly clock: BudgetClock;
  private readonly pauseMs?: number;

  constructor(options: BudgetOptions = {}) {
    const ceiling = options.maxPerSecond ?? Infinity;
    if (!(ceiling >= 1)) throw new RangeError(`maxPerSecond must be at least 1, not ${ceiling}`);
    this.clock = options.clock ?? realClock;
    this.state = startPace(ceiling, this.clock.now());
    this.pauseMs = options.pauseMs;
  }

  /** Resolves when a request of this kind may start (reads first); rejects when the signal aborts. */
  acquire(kind: RequestKind = 'read', signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new InterruptedError('request interrupted'));
    const now = this.clock.now();
    if (this.queues[0].length === 0 && this.queues[1].length === 0 && this.due() <= now) {
      this.start(now);
      return Promise.resolve();
    }
    const queue = this.queues[kind === 'read' ? 0 : 1];
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const at = queue.indexOf(waiter);
          if (at >= 0) queue.splice(at, 1);
          reject(new InterruptedError('request interrupted'));
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      queue.push(waiter);
      this.arm();
    });
  }

  /** Tells the pace how a request went: a 429 or 503 cuts it and pauses every request; a prompt answer lets it rise. */
  answered(answer: Omit<Answer, 'pauseMs' | 'waiting'>): void {
    const waiting = this.queues[0].length + this.queues[1].length > 0;
    answered(this.state, this.clock.now(), { ...answer, waiting, pauseMs: this.pauseMs });
    this.arm();
  }

  pace(): PaceReading {
    const { rate, sending, ceiling, refusals, pausedUntil } = this.state;
    return {
      rps: rate,
      sending,
      // under a second of sending, the latest measure is the only one
      average: this.lastStart - this.firstStart >= 1000 ? ((this.starts - 1) * 1000) / (this.lastStart - this.firstStart) : sending,
      ...(Number.isFinite(ceiling) ? { ceiling } : {}),
      refusals,
      pausedForMs: Math.max(0, pausedUntil - this.clock.now()),
    };
  }

  private due(): number {
    return nextStart(this.state, this.scheduled, this.lastStart);
  }

  private start(now: number): void {
    this.scheduled = scheduledAt(this.state, this.scheduled, now);
    this.lastStart = now;
    if (this.starts === 0) this.firstStart = now;
    this.starts += 1;
    started(this.state, now);
  }

  /** Lets every waiting request whose time has come start (reads first), then sets a timer for the rest. */
  private release(): void {
    const now = this.clock.now();
    for (;;) {
      const queue = this.queues[0].length > 0 ? this.queues[0] : this.queues[1];
      if (queue.length === 0 || this.due() > now) break;
      const waiter = queue.shift()!;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.start(now);
      waiter.resolve();
    }
    this.arm();
  }

  private arm(): void {
    if (this.queues[0].length === 0 && this.queues[1].length === 0) return;
    const now = this.clock.now();
    const at = this.due();
    if (at <= now) {
      queueMicrotask(() => this.release());
      return;
    }
    if (this.timer !== undefined && this.timerAt <= at) return;
    if (this.timer !== undefined) this.clock.clearTimer(this.timer);
    this.timerAt = at;
    // a timer that fires a fraction of a millisecond early finds the time not yet come, and arms again
    this.timer = this.clock.setTimer(
      () => {
        this.timer = undefined;
        this.timerAt = Infinity;
        this.release();
      },
      Math.ceil(at - now),
    );
  }
}
