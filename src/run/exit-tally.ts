// What a marking run's exit status is made of (docs: exit codes): the error that stopped the run,
// the first other error, and counts of time-outs and unsuccessful answers with a few of their
// names; not the rows themselves, which are printed and dropped.
import { KctError, TaskUnsuccessfulError, UnscoredResultError, WatchTimeoutError } from '../api/errors.js';
import { isUnscoredSuccess, isUnsuccessfulFinal } from '../api/status.js';
import { withResumeHint } from '../cli/core/watch.js';
import { type AnswerOutcome, isUnsentRow } from '../cli/render/outcome.js';

const AGAIN = 'the same command (it finds the accepted tasks by their idempotency keys: nothing is charged twice)';
/** The command that collects a --mark-again run's tasks: the same command again would mark, and charge, every answer anew. */
export const WITHOUT_MARK_AGAIN = 'the same command without --mark-again';
const AGAIN_WITHOUT_MARK_AGAIN = `${WITHOUT_MARK_AGAIN} (this machine knows the tasks it sent: nothing is charged twice; with --mark-again every answer is marked, and charged, anew)`;

/** The command that collects what a run left running: the same one, unless it marks everything anew. */
export function againOf(markAgain: boolean | undefined): string {
  return markAgain ? AGAIN_WITHOUT_MARK_AGAIN : AGAIN;
}

/** How many task ids an error message names (the rows name them all). */
const NAMED = 20;

export class ExitTally {
  /** An error that would hit every remaining answer the same way: nothing more is sent. */
  fatal: unknown;
  /** The first error of one answer. */
  firstError: unknown;
  private readonly late: string[] = [];
  private lateCount = 0;
  /** Tasks still running past those named (a batch's answers share one task: counted once when they come together). */
  private lateMore = 0;
  private lastLate?: string;
  private readonly unsuccessful: Record<string, string> = {};
  private unsuccessfulCount = 0;
  /** Of them, failures the service says were its own (`retryable`: a grader down, an internal error), not the answer's. */
  private theService = 0;
  /** Answers that ended SUCCESS with no score: no mark and no failure (exit 1), the first few named. */
  private readonly unscored: string[] = [];
  private unscoredCount = 0;
  private unscoredCut = false;
  /** Rows with no result and no error of kct's to tell (a batch's record leaving an item out): exit 1, the first told. */
  private noResultCount = 0;
  private firstNoResult?: AnswerOutcome;
  private rows = 0;

  /** Counts a printed row. */
  count(outcome: AnswerOutcome): void {
    // "1 of 3 answers ended FAILURE" counts answers as the summary does
    if (isUnsentRow(outcome.status)) return;
    this.rows += 1;
    if (outcome.status === 'TIMEOUT') {
      this.lateCount += 1;
      // the answers of one batch share its task: named once
      const id = outcome.task_id ?? outcome.file;
      if (!this.late.includes(id) && id !== this.lastLate) {
        if (this.late.length < NAMED) this.late.push(id);
        else this.lateMore += 1;
      }
      this.lastLate = id;
    } else if (isUnsuccessfulFinal(outcome.status)) {
      this.unsuccessfulCount += 1;
      if (outcome.status === 'FAILURE' && (outcome.result as { retryable?: unknown } | undefined)?.retryable === true) this.theService += 1;
      if (this.unsuccessfulCount <= NAMED) this.unsuccessful[outcome.task_id ?? outcome.file] = outcome.status;
    } else if (isUnscoredSuccess(outcome)) {
      this.unscoredCount += 1;
      // copies share their first's task: named once
      const id = outcome.task_id ?? outcome.file;
      if (!this.unscored.includes(id)) {
        if (this.unscored.length < NAMED) this.unscored.push(id);
        else this.unscoredCut = true;
      }
    } else if (outcome.status === 'ERROR') {
      this.noResultCount += 1;
      this.firstNoResult ??= outcome;
    }
  }

  /**
   * Throws the run's exit status, in this order: what stopped the run, an answer's error, failures
   * (3: a result known to be bad outranks one not known yet), SUCCESS with no score or no result at
   * all (1: an answer of the service kct does not know), time-outs (8).
   */
  throwExitStatus(options: {
    anySent: boolean;
    timeoutMs: number;
    markAgain?: boolean;
    ownKeys?: boolean;
    /** What to do about failures (every row one, or some) when the same command would replay them (kct batch), not send them anew. */
    failedAdvice?: (every: boolean) => string;
  }): void {
    const again = againOf(options.markAgain);
    if (this.fatal !== undefined) throw options.anySent ? withResumeHint(this.fatal, again) : this.fatal;
    if (this.firstError !== undefined) throw this.firstError;
    if (this.unsuccessfulCount > 0) {
      const late = this.lateCount > 0 ? `, and ${this.lateCount} still running at --timeout (the same command again collects them)` : '';
      throw new TaskUnsuccessfulError(
        this.unsuccessful,
        this.rows > 1 ? `${this.unsuccessfulCount} of ${this.rows} answers ended FAILURE or CANCEL${late}` : undefined,
        options.failedAdvice?.(this.unsuccessfulCount === this.rows) ??
          `${this.rows > 1 ? "Each one's reason is in its row (message) and under Not marked" : 'The reason is in the record printed'}. ${
            options.ownKeys
              ? 'With --idempotency-key the keys are yours: the same key is answered with this failure again, so fix the answer and give a new key to mark it anew.'
              : `${this.nextStep(options.markAgain)}: a failed answer is sent again as a new task, answers marked are not charged again, and a task that does not mark its answer is not charged.`
          }`,
      );
    }
    // tasks still running are said as a failure's message says them: the same command collects them
    const late = this.lateCount > 0 ? `${this.lateCount} still running at --timeout (the same command again collects them)` : undefined;
    if (this.unscoredCount > 0)
      throw new UnscoredResultError(this.unscored, {
        answers: this.unscoredCount,
        of: this.rows,
        cut: this.unscoredCut,
        also:
          [this.noResultCount > 0 ? `${this.noResultCount} with no result at all` : undefined, late]
            .filter(Boolean)
            .map((part) => `and ${part}`)
            .join(', ') || undefined,
      });
    if (this.firstNoResult !== undefined) throw this.noResult(late);
    // a run whose own command would not collect them (--mark-again) says which one does
    const collect = options.markAgain
      ? `${this.late.length === 1 ? 'The task keeps running. Collect it' : 'The tasks keep running. Collect them'} later with ${again}.`
      : undefined;
    if (this.lateCount > 0) throw new WatchTimeoutError(this.late, options.timeoutMs, this.lateMore, collect);
  }

  /** Rows the service's answer left without a result (exit 1, as a SUCCESS with no score): the first one's reason told. */
  private noResult(late: string | undefined): KctError {
    const first = this.firstNoResult as AnswerOutcome;
    const why = first.message ?? 'the service returned no result for it';
    return new KctError(
      'unknown_answer',
      `${this.rows > 1 ? `${this.noResultCount} of ${this.rows} answers have no result` : `${first.file} has no result`}: ${why}${late ? `; and ${late}` : ''}`,
      {
        suggestion: `Read the batch's record with \`kct result <its task> --json\`, and ask the service's support why ${this.noResultCount > 1 ? 'these items have' : 'the item has'} no result.`,
      },
    );
  }

  /** What to do about the failures: the answers' own are fixed first; the service's are only run again, later. */
  private nextStep(markAgain: boolean | undefined): string {
    const many = this.unsuccessfulCount > 1;
    const again = `run the same command${markAgain ? ' without --mark-again' : ''} again`;
    return this.theService === this.unsuccessfulCount
      ? `The service says ${many ? 'they' : 'it'} failed on its side, not for ${many ? 'the answers' : 'the answer'}: ${again} later`
      : `Fix ${many ? 'those answers' : 'that answer'} and ${again}`;
  }
}
