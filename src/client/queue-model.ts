// What kct infers about the service's queue from the snapshots it sees, so that it polls a task
// when it is likely to be final rather than on a fixed beat: how fast the queue drains (positions
// per second, from the `position` of a queued task seen twice, or from how soon a queued task
// left the queue) and how long a task runs once out of the queue. Every estimate is corrected by
// what the next poll finds; none is trusted blindly (docs/guides/large-runs-and-reruns.md, "Polite by construction").

/** Smoothing of new samples (exponentially weighted). */
const ALPHA = 0.3;
const MIN_RUN_MS = 100;
/** Two looks at a queued task closer than this say little about the drain. */
const MIN_SAMPLE_MS = 200;

export class QueueModel {
  /** Queue positions drained per millisecond (undefined until seen). */
  rate?: number;
  /** Milliseconds a task runs once it has left the queue. */
  runMs: number;
  /** When the rate was last measured from one task seen queued twice (not only bounded). */
  measuredAt?: number;

  constructor(initialRunMs: number) {
    this.runMs = Math.max(MIN_RUN_MS, initialRunMs);
  }

  /** The same task seen queued twice: the positions it moved over the time between. */
  queuedAgain(before: { pos: number; at: number }, pos: number, at: number): void {
    const elapsed = at - before.at;
    if (elapsed < MIN_SAMPLE_MS || pos > before.pos) return;
    const sample = (before.pos - pos) / elapsed;
    // the first measurement replaces what was only a bound; later ones are smoothed
    if (this.measuredAt === undefined) this.rate = sample;
    else this.blend(sample);
    this.measuredAt = at;
  }

  /**
   * A task seen queued at `before.pos` has left the queue by `at`: the queue drained at least
   * that many positions in that time (a lower bound, so it only ever raises the estimate).
   */
  leftQueue(before: { pos: number; at: number }, at: number): void {
    const elapsed = at - before.at;
    if (elapsed < MIN_SAMPLE_MS) return;
    const atLeast = before.pos / elapsed;
    if (this.rate !== undefined && atLeast <= this.rate) return;
    // faster than measured: the measurement is out of date (a queue that stood still has moved)
    this.rate = atLeast;
    this.measuredAt = undefined;
  }

  /** A task seen running last at `runningAt` and final at `finalAt`, having started about `startedAt`. */
  ran(startedAt: number, runningAt: number, finalAt: number): void {
    if (!(finalAt >= startedAt)) return;
    const sample = Math.max(MIN_RUN_MS, (Math.max(runningAt, startedAt) + finalAt) / 2 - startedAt);
    this.runMs += ALPHA * (sample - this.runMs);
  }

  /** Polled when predicted to be final and found still running: it has run at least this long. */
  stillRunning(startedAt: number, at: number): void {
    const atLeast = at - startedAt;
    // a quarter more than it has run so far: the next look should find it final, not running again
    if (atLeast >= this.runMs) this.runMs += ALPHA * (atLeast * 1.25 - this.runMs);
  }

  /** Milliseconds until `positions` more queue positions have drained (Infinity while the rate is unknown). */
  drainMs(positions: number): number {
    if (positions <= 0) return 0;
    if (this.rate === undefined || this.rate <= 0) return Infinity;
    return positions / this.rate;
  }

  private blend(sample: number): void {
    if (!Number.isFinite(sample) || sample < 0) return;
    this.rate = this.rate === undefined ? sample : this.rate + ALPHA * (sample - this.rate);
  }
}
