// Group commit for the queue's workers: the state changes they ask for within one turn of the
// event loop are committed by ONE transaction at the next turn. Each change is still the same
// compare-and-swap, in a savepoint of its own (so atomic on its own) and answered on its own;
// what they share is the BEGIN/COMMIT (docs/design/sandbox-notes.md, "Group commit and checkpoints"). A worker goes on only
// once its change is committed.
import type { Store } from '../store/store.js';

interface Job {
  change: () => unknown;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

export class WriteGroup {
  private pending: Job[] = [];
  private scheduled = false;

  constructor(private readonly store: Store) {}

  /** Runs `change` in the next group transaction; resolves with what it returned once committed. */
  run<T>(change: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ change, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const jobs = this.pending;
    this.pending = [];
    const outcomes: Outcome[] = [];
    try {
      this.store.transaction('writeGroup', runAll).immediate(this.store, jobs, outcomes);
    } catch (err) {
      // the commit itself failed: no change of this group is known to be stored
      for (const job of jobs) job.reject(err);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  };
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Each change in a savepoint of its own (a nested transaction): one that throws rolls back alone. */
function runAll(store: Store, jobs: Job[], outcomes: Outcome[]): void {
  const alone = store.transaction('writeGroupChange', runChange);
  for (const job of jobs) {
    try {
      outcomes.push({ ok: true, value: alone(job.change) });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
}

function runChange(change: () => unknown): unknown {
  return change();
}
