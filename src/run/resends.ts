// What an answer was sent again in place of, so that each new submission has a key of its own
// (keys.ts: the same key would bring back the same task): a task that did not mark it, replaced
// down a chain other machines may have lengthened; or a failure the service called retryable.

/** Replays of tasks that did not mark an answer, followed this far at most (each machine that sent it again added one). */
const MAX_REPLACEMENTS = 20;
/** Retries of a failure the service calls its own (retryable), at most: past them the failure is the row. */
const MAX_RETRIES = 2;

/** Answers planned as reused that were sent after all (their task gone, or it did not mark them), each once: the cost line counts them. */
export class ResentTally {
  private readonly rows = new Set<number>();
  answers = 0;
  files = 0;
  /** What they are priced by (a file each, or the answer when it has none), and those of them the ledger named. */
  units = 0;
  ledgerUnits = 0;

  add(row: number, files: number, fromLedger: boolean): void {
    if (this.rows.has(row)) return;
    this.rows.add(row);
    this.answers += 1;
    this.files += files;
    this.units += Math.max(1, files);
    if (fromLedger) this.ledgerUnits += Math.max(1, files);
  }
}

export class Resends {
  private readonly replaced = new Map<number, { task: string; times: number }>();
  private readonly retries = new Map<number, number>();

  /** The task `row` was last sent in place of: its key, and its retries' keys, are derived from it. */
  replacedTask(row: number): string | undefined {
    return this.replaced.get(row)?.task;
  }

  /** Whether a replay that came back as task `endedAs` may be replaced: not the task just replaced, and not past MAX_REPLACEMENTS. */
  mayReplace(row: number, endedAs: string): boolean {
    const last = this.replaced.get(row);
    return last?.task !== endedAs && (last?.times ?? 0) < MAX_REPLACEMENTS;
  }

  /** `row` is being sent in place of `task`. */
  replacing(row: number, task: string): void {
    this.replaced.set(row, { task, times: (this.replaced.get(row)?.times ?? 0) + 1 });
  }

  /** The number of `row`'s next retry, or undefined when it has had its MAX_RETRIES. */
  nextRetry(row: number): number | undefined {
    const attempt = (this.retries.get(row) ?? 0) + 1;
    return attempt > MAX_RETRIES ? undefined : attempt;
  }

  retried(row: number, attempt: number): void {
    this.retries.set(row, attempt);
  }
}
