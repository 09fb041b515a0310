// The polling loop behind every wait: one loop for any number of tasks, each with its own
// deadline, in memory that holds a few numbers per task (typed arrays, not an object and a
// promise per task). It polls a task when it is likely to be final, oldest first:
// - a task seen QUEUED at position p is not polled again before the queue could have drained p
//   positions (QueueModel), and tasks added after it (behind it in the queue) are not polled at
//   all until it has moved: until then nothing behind it can be final;
// - a running task is polled on the spec's schedule (3 s backing off to 15 s), or later when
//   it is known to take longer;
// - the spec's schedule is the most often any one task is polled, never an obligation.
// Every request also waits its turn in the run's RequestBudget (http.ts), so many tasks due at
// once are spread out, and a 429 slows all of them.
import {
  ApiError,
  ConnectionError,
  formatDuration,
  InterruptedError,
  RateLimitError,
  ServerError,
  ServerStoppedAnsweringError,
} from '../api/errors.js';
import type { StatusSnapshot } from '../api/schemas.js';
import { isFinalSnapshot } from '../api/status.js';
import {
  finishEstimate,
  firstLook,
  nextInterval,
  nextLook,
  type PollPolicy,
  type PollSchedule,
  pollPolicy,
  type Reference,
  requestBound,
  type Seen,
  sentinelDue,
  watchdogAt,
} from './poll-policy.js';
import { QueueModel } from './queue-model.js';
import { parseRetryAfter } from './retry.js';
import { abortableSleep } from './sleep.js';

export { nextInterval, type PollSchedule } from './poll-policy.js';

export type StatusFetcher = (taskId: string, signal?: AbortSignal) => Promise<{ snapshot: StatusSnapshot; retryAfterMs?: number }>;

export interface SchedulerOptions {
  /** How long each task is watched after it was added. */
  timeoutMs: number;
  schedule: PollSchedule;
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

/** What becomes of each task: exactly one of these is called once, with the tag it was added with. */
export interface SchedulerHandlers {
  onFinal(tag: number, snapshot: StatusSnapshot, taskId: string): void;
  /** A poll that cannot succeed (404, 401), or the watch was interrupted. */
  onError(tag: number, error: unknown, taskId: string): void;
  onTimeout(tag: number, taskId: string): void;
}

enum State {
  Done = 0,
  Unobserved = 1,
  Queued = 2,
  Running = 3,
}

const INFLIGHT = 1;
/** Its deadline has passed: one last look if it may be final, then a time-out. */
const EXPIRED = 2;
const NEEDS_LOOK = 4;

export class TaskScheduler {
  private base = 0;
  private head = 0;
  private tail = 0;
  private frontier = 0;
  /** The oldest task whose deadline has not been dealt with (deadlines grow with the order tasks were added). */
  private expireCursor = 0;
  private capacity = 0;
  private ids: (string | undefined)[] = [];
  private tags = new Float64Array(0);
  private deadline = new Float64Array(0);
  private notBefore = new Float64Array(0);
  /** Items up to and including this task (a batch weighs its item count): distances in the queue. */
  private cum = new Float64Array(0);
  private weight = new Float32Array(0);
  private interval = new Float32Array(0);
  private state = new Uint8Array(0);
  private flags = new Uint8Array(0);
  private totalWeight = 0;
  private liveWeight = 0;
  private readonly seen = new Map<number, Seen>();
  private readonly model: QueueModel;
  private lastFinal?: { seq: number; cum: number; at: number };
  /** The newest task last seen queued, kept after it is dropped (timed out): the tasks behind it are still behind it. */
  private lastQueued?: { seq: number; cum: number; weight: number; pos: number; at: number };
  private lastSentinelAt = -Infinity;
  /**
   * How many tasks never polled may be looked at at once: one while nothing is known, doubling
   * each time such a look finds a task final (kct is behind: catch up quickly), back to one when
   * it finds one unfinished (as TCP's slow start does).
   */
  private sweepWidth = 1;
  /** First looks in a row that found their task final (reset by one that did not). */
  private firstLookFinals = 0;
  private probing = 0;
  private live = 0;
  /** When kct last asked about any task (or was given one): the watchdog in issue() counts from it. */
  private lastLookAt = -Infinity;
  private inflight = 0;
  private running = false;
  private wake?: AbortController;
  /**
   * The polls in flight, aborted with the pause by one listener on the run's signal: an
   * AbortSignal.any() per poll would leave a weak reference on that long-lived signal every time
   * (Node keeps them; ~20 MB at 100,000 answers).
   */
  private readonly polls = new Set<AbortController>();
  private readonly stop = (): void => {
    this.wake?.abort();
    for (const poll of this.polls) poll.abort(this.options.signal?.reason);
  };
  private completed?: () => void;
  /** Set once the server stopped answering: every task watched then or later is told so. */
  private gone?: ConnectionError;
  private readonly schedule: PollSchedule;
  private readonly policy: PollPolicy;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly concurrency: number;

  constructor(
    private readonly fetchStatus: StatusFetcher,
    private readonly options: SchedulerOptions,
    private readonly handlers: SchedulerHandlers,
  ) {
    this.schedule = options.schedule;
    this.policy = pollPolicy(options.schedule);
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.concurrency = options.concurrency ?? 8;
    this.model = new QueueModel(this.schedule.startMs);
    this.grow(64);
  }

  /** Tasks still watched. */
  get size(): number {
    return this.live;
  }

  /** What the tasks still watched weigh together (a batch weighs its items). */
  get watchedWeight(): number {
    return this.liveWeight;
  }

  /**
   * Watches a task until it is final or its deadline passes. `firstPollIn` delays the first
   * look (a task accepted a moment ago is still queued); `weight` is how many queue positions it
   * takes (a batch: its items).
   */
  add(taskId: string, tag: number, options: { firstPollIn?: number; weight?: number } = {}): void {
    if (this.gone) {
      const gone = this.gone;
      queueMicrotask(() => this.handlers.onError(tag, new ServerStoppedAnsweringError([taskId], gone), taskId));
      return;
    }
    if (this.tail - this.base >= this.capacity) this.makeRoom();
    const slot = this.tail - this.base;
    const now = this.now();
    const weight = Math.max(1, options.weight ?? 1);
    this.totalWeight += weight;
    this.liveWeight += weight;
    this.ids[slot] = taskId;
    this.tags[slot] = tag;
    this.deadline[slot] = now + this.options.timeoutMs;
    this.notBefore[slot] = now + (options.firstPollIn ?? 0);
    this.cum[slot] = this.totalWeight;
    this.weight[slot] = weight;
    this.interval[slot] = this.schedule.startMs;
    this.state[slot] = State.Unobserved;
    this.flags[slot] = 0;
    this.tail += 1;
    this.live += 1;
    if (this.inflight === 0) this.lastLookAt = Math.max(this.lastLookAt, now);
    this.wake?.abort();
    if (!this.running) {
      // started on the next microtask: tasks added together are all known to its first round
      this.running = true;
      queueMicrotask(() => void this.loop());
    }
  }

  private async loop(): Promise<void> {
    this.options.signal?.addEventListener('abort', this.stop);
    try {
      for (;;) {
        if (this.options.signal?.aborted) throw new InterruptedError('stopped watching');
        if (this.live === 0 && this.inflight === 0) break;
        const now = this.now();
        this.expire(now);
        const wakeAt = this.issue(now);
        if (this.live === 0 && this.inflight === 0) break;
        if (this.inflight >= this.concurrency) {
          await this.completion();
          continue;
        }
        if (wakeAt <= this.now()) continue;
        // a poll answered at once (a local server, a test's fetcher) is handled before any sleep
        if (this.inflight > 0 && (await this.settlesSoon())) continue;
        await this.pauseFor(wakeAt - this.now());
      }
    } catch (error) {
      const failure = error instanceof InterruptedError ? error : new InterruptedError('stopped watching', { cause: error });
      this.failAll(failure);
    } finally {
      this.options.signal?.removeEventListener('abort', this.stop);
      this.running = false;
    }
  }

  /** Starts the polls that are due, oldest first; returns when the next one falls due. */
  private issue(now: number): number {
    let room = this.concurrency - this.inflight;
    let wakeAt = Infinity;
    const due: number[] = [];
    /** Polls timed by an estimate (not by the spacing the spec asks for): what they find corrects the estimate. */
    const predicted = new Set<number>();
    const anchor = this.anchor();
    for (const [seq, seen] of this.seen) {
      const slot = seq - this.base;
      if (this.flags[slot] & INFLIGHT) continue;
      const at = this.flags[slot] & NEEDS_LOOK ? now : this.dueObserved(slot, seen, seq === anchor);
      if (at > now) {
        wakeAt = Math.min(wakeAt, at);
        continue;
      }
      due.push(seq);
      if (at > this.notBefore[slot]) predicted.add(seq);
    }
    // tasks never polled, in the order they were added: once one is not ready, the later ones are not either
    let found = 0;
    let slot = this.advanceFrontier();
    for (; slot < this.tail - this.base; slot++) {
      if (this.state[slot] !== State.Unobserved || this.flags[slot] & INFLIGHT) continue;
      const at = this.flags[slot] & NEEDS_LOOK ? now : this.readyUnobserved(slot);
      if (at > now) {
        wakeAt = Math.min(wakeAt, at);
        break;
      }
      // no more first looks at once than the sweep allows (an answer to one in flight wakes the loop)
      if (found >= room || this.probing + found >= this.sweepWidth) break;
      due.push(slot + this.base);
      if (at > this.notBefore[slot]) predicted.add(slot + this.base);
      found += 1;
    }
    const sentinel = this.sentinel(now, found < room, slot);
    if (sentinel >= 0) due.push(sentinel);
    // The estimates may leave every task waiting for a move kct will not see (a reference task
    // that is never due again): with nothing due and nothing asked, the oldest unfinished task is
    // looked at 15 s after the last look, as the spec's slowest poll, so no run can stall.
    if (due.length === 0 && this.inflight === 0 && this.live > 0) {
      const oldest = this.oldestWaiting();
      // never sooner than a Retry-After asked for that task
      const lookAt = oldest < 0 ? Infinity : watchdogAt(this.lastLookAt, this.notBefore[oldest - this.base], this.policy);
      if (oldest >= 0 && lookAt <= now) due.push(oldest);
      else if (oldest >= 0) wakeAt = Math.min(wakeAt, lookAt);
    }
    if (this.expireCursor < this.tail) wakeAt = Math.min(wakeAt, this.deadline[Math.max(this.expireCursor, this.head) - this.base]);
    due.sort((a, b) => a - b);
    for (const seq of due) {
      if (room <= 0) {
        wakeAt = now;
        break;
      }
      room -= 1;
      void this.poll(seq, now, predicted.has(seq));
    }
    return wakeAt;
  }

  /** Marks tasks whose deadline has passed: a last look for those that may be final, a time-out for the others. */
  private expire(now: number): void {
    this.expireCursor = Math.max(this.expireCursor, this.head);
    const late: number[] = [];
    while (this.expireCursor < this.tail && this.deadline[this.expireCursor - this.base] <= now) {
      const slot = this.expireCursor++ - this.base;
      if (this.state[slot] === State.Done) continue;
      this.flags[slot] |= EXPIRED;
      if (this.flags[slot] & INFLIGHT) continue; // its answer decides
      // decided before any is dropped: a task timed out still tells where the ones behind it are
      if (this.mayBeFinal(slot, this.deadline[slot])) this.flags[slot] |= NEEDS_LOOK;
      else late.push(slot + this.base);
    }
    for (const seq of late) this.timeOut(seq - this.base);
  }

  /** Whether a look at the deadline could find the task final (a task far back in the queue cannot). */
  private mayBeFinal(slot: number, at: number): boolean {
    const state = this.state[slot];
    if (state === State.Running) return true;
    const seen = this.seen.get(slot + this.base);
    if (state === State.Queued && seen) return this.finishEstimate(slot, seen) <= at + this.policy.lastLookReachMs;
    return this.predict(slot) <= at + this.policy.lastLookReachMs;
  }

  /** The oldest task not finished and not being asked about, or -1. */
  private oldestWaiting(): number {
    for (let seq = this.head; seq < this.tail; seq++) {
      const slot = seq - this.base;
      if (this.state[slot] !== State.Done && !(this.flags[slot] & INFLIGHT)) return seq;
    }
    return -1;
  }

  private async poll(seq: number, startedAt: number, predicted: boolean): Promise<void> {
    this.lastLookAt = startedAt;
    let slot = seq - this.base;
    const taskId = this.ids[slot] as string;
    const lastLook = (this.flags[slot] & NEEDS_LOOK) !== 0;
    const probe = this.state[slot] === State.Unobserved;
    this.flags[slot] = (this.flags[slot] | INFLIGHT) & ~NEEDS_LOOK;
    this.inflight += 1;
    if (probe) this.probing += 1;
    const boundMs = requestBound(lastLook, this.deadline[slot] - startedAt, this.policy);
    const poll = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      poll.abort(new DOMException(`no answer within ${boundMs} ms`, 'TimeoutError'));
    }, boundMs);
    timer.unref();
    this.polls.add(poll);
    let answer: { snapshot: StatusSnapshot; retryAfterMs?: number } | undefined;
    let failure: unknown;
    try {
      answer = await this.fetchStatus(taskId, poll.signal);
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(timer);
      this.polls.delete(poll);
    }
    this.inflight -= 1;
    if (probe) this.probing -= 1;
    slot = seq - this.base; // the arrays may have been compacted meanwhile
    this.flags[slot] &= ~INFLIGHT;
    try {
      if (this.options.signal?.aborted || this.state[slot] === State.Done) return;
      if (answer) this.observe(slot, answer.snapshot, answer.retryAfterMs, predicted);
      else this.failed(slot, failure, timedOut, boundMs);
      slot = seq - this.base; // a handler may have added tasks, and so compacted the arrays
      if (this.state[slot] !== State.Done && this.flags[slot] & EXPIRED) this.timeOut(slot);
    } catch (error) {
      // a handler threw: that is a bug, reported for this task rather than lost
      slot = seq - this.base;
      if (this.state[slot] !== State.Done) this.finish(slot, (tag) => this.handlers.onError(tag, error, taskId));
    } finally {
      this.completed?.();
      this.wake?.abort();
    }
  }

  private failed(slot: number, error: unknown, timedOut: boolean, boundMs: number): void {
    const taskId = this.ids[slot] as string;
    if (timedOut) {
      this.options.onTransientError?.(taskId, new Error(`no status answer within ${formatDuration(boundMs)}`));
      this.reschedule(slot, undefined);
      return;
    }
    // the fetcher's own retries failed: the server stopped answering, and polling on would only wait for --timeout
    if (error instanceof ConnectionError) {
      this.stopWatching(error);
      return;
    }
    if (!isTransient(error)) {
      this.finish(slot, (tag) => this.handlers.onError(tag, error, taskId));
      return;
    }
    this.options.onTransientError?.(taskId, error as Error);
    this.reschedule(slot, error instanceof ApiError ? parseRetryAfter(error.headers?.['retry-after']) : undefined);
  }

  private observe(slot: number, snapshot: StatusSnapshot, retryAfterMs: number | undefined, predicted: boolean): void {
    const seq = slot + this.base;
    const now = this.now();
    const was = this.state[slot];
    let seen = this.seen.get(seq);
    const signature = JSON.stringify([
      snapshot.status,
      snapshot.stage,
      snapshot.position,
      snapshot.length,
      snapshot.cur_step,
      snapshot.progress,
      snapshot.message,
    ]);
    const changed = signature !== seen?.signature;
    this.options.onUpdate?.(snapshot, changed);
    if (isFinalSnapshot(snapshot)) {
      if (seen && was === State.Queued && seen.pos !== undefined)
        this.model.leftQueue({ pos: seen.pos + this.weight[slot] - 1, at: seen.queuedAt ?? seen.seenAt }, now);
      if (seen && was === State.Running) this.model.ran(seen.startAt ?? seen.firstRunningAt ?? now, seen.lastRunningAt ?? now, now);
      if (was === State.Unobserved) {
        this.sweepWidth = Math.min(this.concurrency, this.sweepWidth * 2);
        this.firstLookFinals += 1;
      }
      if (this.lastFinal === undefined || seq > this.lastFinal.seq) this.lastFinal = { seq, cum: this.cum[slot], at: now };
      if (this.lastQueued !== undefined && this.lastQueued.seq <= seq) this.lastQueued = undefined;
      this.finish(slot, (tag, taskId) => this.handlers.onFinal(tag, snapshot, taskId));
      return;
    }
    if (!seen) {
      seen = { seenAt: now };
      this.seen.set(seq, seen);
      this.sweepWidth = 1;
      this.firstLookFinals = 0;
    }
    seen.signature = signature;
    const position = queuePosition(snapshot);
    if (position !== undefined) {
      if (was === State.Queued && seen.pos !== undefined)
        this.model.queuedAgain({ pos: seen.pos, at: seen.queuedAt ?? seen.seenAt }, position, now);
      seen.pos = position;
      seen.queuedAt = now;
      this.state[slot] = State.Queued;
      if (this.lastQueued === undefined || seq >= this.lastQueued.seq)
        this.lastQueued = { seq, cum: this.cum[slot], weight: this.weight[slot], pos: position, at: now };
    } else {
      if (was === State.Queued && seen.pos !== undefined) {
        const queuedAt = seen.queuedAt ?? seen.seenAt;
        this.model.leftQueue({ pos: seen.pos, at: queuedAt }, now);
        seen.startAt = Math.min(now, queuedAt + this.model.drainMs(seen.pos));
      }
      if (predicted && was === State.Running) this.model.stillRunning(seen.startAt ?? seen.firstRunningAt ?? now, now);
      seen.firstRunningAt ??= now;
      seen.lastRunningAt = now;
      this.state[slot] = State.Running;
      if (this.lastQueued?.seq === seq) this.lastQueued = undefined;
    }
    seen.seenAt = now;
    this.reschedule(slot, retryAfterMs);
  }

  /** The next poll no sooner than the current interval (or the server's hint), and a longer interval after. */
  private reschedule(slot: number, retryAfterMs: number | undefined): void {
    const interval = this.interval[slot];
    this.notBefore[slot] = this.now() + Math.max(interval, retryAfterMs ?? 0);
    this.interval[slot] = nextInterval(interval, this.schedule);
  }

  /** What the policy needs to know of a polled task. */
  private observed(slot: number, seen: Seen): { queued: boolean; seen: Seen; weight: number; notBefore: number } {
    return { queued: this.state[slot] === State.Queued, seen, weight: this.weight[slot], notBefore: this.notBefore[slot] };
  }

  /** First looks keep finding their tasks final: the service is ahead of the estimate. */
  private get ahead(): boolean {
    return this.firstLookFinals >= this.policy.aheadAfter;
  }

  /** When a polled, unfinished task is next due (poll-policy.ts nextLook). */
  private dueObserved(slot: number, seen: Seen, isAnchor: boolean): number {
    return nextLook(this.observed(slot, seen), this.model, this.policy, { isAnchor, ahead: this.ahead });
  }

  /** When a polled task is expected to be final. */
  private finishEstimate(slot: number, seen: Seen): number {
    return finishEstimate(this.observed(slot, seen), this.model);
  }

  /** When a task never polled may be first looked at: not before it is added plus its first delay, nor before it could be final. */
  private readyUnobserved(slot: number): number {
    return Math.max(this.notBefore[slot], this.predict(slot));
  }

  /** The earliest a task never polled could be final (poll-policy.ts firstLook), from the nearest older task kct knows of. */
  private predict(slot: number): number {
    return firstLook(this.reference(slot), this.model, { ahead: this.ahead, sweepWidth: this.sweepWidth });
  }

  /** The nearest older task kct has seen; else the newest seen queued; else the last seen final. */
  private reference(slot: number): Reference {
    const seq = slot + this.base;
    let reference = -1;
    for (const candidate of this.seen.keys()) if (candidate < seq && candidate > reference) reference = candidate;
    if (reference >= 0) {
      const refSlot = reference - this.base;
      const seen = this.seen.get(reference)!;
      const between = this.cum[slot] - this.cum[refSlot];
      if (this.state[refSlot] === State.Queued && seen.pos !== undefined)
        return { kind: 'queued', at: seen.queuedAt ?? seen.seenAt, pos: seen.pos, weight: this.weight[refSlot], between };
      return { kind: 'seen', finish: this.finishEstimate(refSlot, seen), between };
    }
    const queued = this.lastQueued;
    if (queued && queued.seq < seq)
      return { kind: 'queued', at: queued.at, pos: queued.pos, weight: queued.weight, between: this.cum[slot] - queued.cum };
    const last = this.lastFinal;
    if (last && last.seq < seq) return { kind: 'final', at: last.at, between: this.cum[slot] - last.cum };
    return { kind: 'none' };
  }

  /**
   * Once the queue has been seen to move but its pace is only bounded (or last measured long
   * ago), the newest task is looked at: far back in the queue, two looks at it measure the drain
   * exactly (poll-policy.ts sentinelDue).
   */
  private sentinel(now: number, room: boolean, walked: number): number {
    if (
      !room ||
      !sentinelDue(this.model, this.policy, { now, lastSentinelAt: this.lastSentinelAt, hasAnchor: this.anchor() >= 0, ahead: this.ahead })
    )
      return -1;
    for (let slot = this.tail - this.base - 1; slot > walked; slot--) {
      if (this.state[slot] !== State.Unobserved || this.flags[slot] & INFLIGHT) continue;
      this.lastSentinelAt = now;
      return slot + this.base;
    }
    return -1;
  }

  /** The newest task seen queued: the one looked at to keep the drain estimate fresh. */
  private anchor(): number {
    let anchor = -1;
    for (const seq of this.seen.keys()) if (seq > anchor && this.state[seq - this.base] === State.Queued) anchor = seq;
    return anchor;
  }

  private advanceFrontier(): number {
    const end = this.tail - this.base;
    let slot = Math.max(this.frontier, this.head) - this.base;
    while (slot < end && this.state[slot] !== State.Unobserved) slot++;
    this.frontier = slot + this.base;
    return slot;
  }

  private timeOut(slot: number): void {
    this.finish(slot, (tag, taskId) => this.handlers.onTimeout(tag, taskId));
  }

  /** Forgets a task, then tells its handler (which may add tasks, and so move slots). */
  private finish(slot: number, tell: (tag: number, taskId: string) => void): void {
    const tag = this.tags[slot];
    const taskId = this.ids[slot] as string;
    this.state[slot] = State.Done;
    this.flags[slot] = 0;
    this.ids[slot] = undefined;
    this.seen.delete(slot + this.base);
    this.live -= 1;
    this.liveWeight -= this.weight[slot]!;
    while (this.head < this.tail && this.state[this.head - this.base] === State.Done) this.head += 1;
    tell(tag, taskId);
  }

  /** The server stopped answering: every task still watched is told at once, not polled until its deadline. */
  private stopWatching(error: ConnectionError): void {
    this.gone ??= error;
    const ids: string[] = [];
    for (let seq = this.head; seq < this.tail; seq++)
      if (this.state[seq - this.base] !== State.Done) ids.push(this.ids[seq - this.base] as string);
    this.failAll(new ServerStoppedAnsweringError(ids, error));
  }

  private failAll(error: unknown): void {
    const seqs: number[] = [];
    for (let seq = this.head; seq < this.tail; seq++) if (this.state[seq - this.base] !== State.Done) seqs.push(seq);
    for (const seq of seqs) {
      const slot = seq - this.base;
      if (this.state[slot] !== State.Done) this.finish(slot, (tag, taskId) => this.handlers.onError(tag, error, taskId));
    }
  }

  /** Resolves at the next poll's answer. */
  private completion(): Promise<void> {
    return new Promise((resolve) => {
      this.completed = () => {
        this.completed = undefined;
        resolve();
      };
    });
  }

  /** True when a poll answers within one turn of the event loop (before any sleep is needed). */
  private async settlesSoon(): Promise<boolean> {
    let settled = false;
    const done = this.completion().then(() => {
      settled = true;
    });
    await Promise.race([done, new Promise((resolve) => setImmediate(resolve))]);
    if (!settled) this.completed = undefined;
    return settled;
  }

  /** Sleeps until the time is up, a task is added or answered, or the signal aborts (which throws). */
  private async pauseFor(ms: number): Promise<void> {
    this.wake = new AbortController();
    try {
      // the run's signal aborts the pause through this.stop, or has already
      this.options.signal?.throwIfAborted();
      await this.sleep(Math.ceil(Math.max(0, Math.min(ms, 2 ** 31 - 1))), this.wake.signal);
    } catch (error) {
      if (this.options.signal?.aborted) throw new InterruptedError('stopped watching', { cause: error });
    } finally {
      this.wake = undefined;
    }
  }

  /** Room for more tasks: finished ones at the front are dropped, else the arrays double. */
  private makeRoom(): void {
    const liveFrom = this.head - this.base;
    const used = this.tail - this.head;
    if (liveFrom > 0 && used <= this.capacity / 2) {
      this.ids.copyWithin(0, liveFrom, this.tail - this.base);
      this.ids.length = used;
      for (const array of [this.tags, this.deadline, this.notBefore, this.cum, this.weight, this.interval, this.state, this.flags]) {
        array.copyWithin(0, liveFrom, this.tail - this.base);
      }
      this.base = this.head;
      return;
    }
    this.grow(Math.max(64, this.capacity * 2));
  }

  private grow(capacity: number): void {
    const copy = <T extends Float64Array | Float32Array | Uint8Array>(array: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(array.subarray(0, this.tail - this.base));
      return next;
    };
    this.tags = copy(this.tags, (n) => new Float64Array(n));
    this.deadline = copy(this.deadline, (n) => new Float64Array(n));
    this.notBefore = copy(this.notBefore, (n) => new Float64Array(n));
    this.cum = copy(this.cum, (n) => new Float64Array(n));
    this.weight = copy(this.weight, (n) => new Float32Array(n));
    this.interval = copy(this.interval, (n) => new Float32Array(n));
    this.state = copy(this.state, (n) => new Uint8Array(n));
    this.flags = copy(this.flags, (n) => new Uint8Array(n));
    this.capacity = capacity;
  }
}

/** The queue position of a waiting task, when the snapshot gives one. */
function queuePosition(snapshot: StatusSnapshot): number | undefined {
  const status = String(snapshot.status ?? snapshot.stage ?? '').toUpperCase();
  if (status !== 'QUEUED' && status !== 'PENDING') return undefined;
  const position = Number(snapshot.position);
  return snapshot.position !== undefined && snapshot.position !== null && Number.isFinite(position) && position >= 0 ? position : undefined;
}

/** Errors after which watching goes on: the server answered, but is briefly overloaded or failing. */
export function isTransient(error: unknown): boolean {
  if (error instanceof RateLimitError || error instanceof ServerError) return true;
  return error instanceof ApiError && error.status === 408;
}
