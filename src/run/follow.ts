// Following accepted tasks: the run's one polling loop (client/poll.ts), each task's result
// read once it is final (at most RESULT_READS at once), a --no-wait run's tasks read as they are now.
import { isUnsuccessfulFinal, statusOf } from '../api/status.js';
import { type AnswerOutcome, outcomeFromResult } from '../cli/render/outcome.js';
import { limiter } from '../client/limit.js';
import type { TaskScheduler } from '../client/poll.js';
import type { MarkingRun } from './marking.js';
import { retried } from './retries.js';

/** Result reads in flight at once. */
const RESULT_READS = 8;

/** What a task the polling loop watches is to this run: one answer's, or a batch's. */
export type Watched = { kind: 'answer'; row: number } | { kind: 'batch'; chunk: number };

export class Follower {
  readonly readResult = limiter(RESULT_READS);
  private readonly scheduler: TaskScheduler;
  private readonly watched = new Map<number, Watched>();
  private nextTag = 0;

  constructor(private readonly run: MarkingRun) {
    const { client, context, timeoutMs, schedule, onSnapshot, onTransientError } = run.settings;
    this.scheduler = client.scheduler(
      { timeoutMs, schedule, signal: context.signal, onUpdate: onSnapshot, onTransientError },
      {
        onFinal: (tag, _snapshot, taskId) => {
          const what = this.unwatch(tag);
          void (what.kind === 'answer' ? this.finishTask(what.row, taskId) : run.batches.finish(what.chunk, taskId));
        },
        onError: (tag, error, taskId) => this.failed(this.unwatch(tag), error, taskId),
        onTimeout: (tag, taskId) => this.timedOut(this.unwatch(tag), taskId),
      },
    );
  }

  /** What the tasks still watched weigh together (a batch weighs its items): what a waiting run holds back for. */
  get pending(): number {
    return this.scheduler.watchedWeight;
  }

  /** Follows a task in the run's one polling loop. */
  watch(taskId: string, what: Watched, options: { firstPollIn: number; weight?: number }): void {
    const tag = this.nextTag++;
    this.watched.set(tag, what);
    this.scheduler.add(taskId, tag, options);
  }

  /** An answer's task: watched until final, or with --no-wait read as it is now. */
  follow(taskId: string, row: number, firstPollIn: number): void {
    const { run } = this;
    run.tasked.add(row, taskId);
    if (run.settings.wait) {
      this.watch(taskId, { kind: 'answer', row }, { firstPollIn });
      return;
    }
    // an earlier run's task: its state now, never a guess
    const base = run.baseOf(row);
    this.currentState(base, taskId).then(
      (outcome) => {
        if (!(run.reusedFromLedger.has(row) && isUnsuccessfulFinal(outcome.status) && run.sendAfterAll(row, undefined, outcome.task_id)))
          run.emit(row, outcome);
      },
      (error: unknown) => {
        if (!run.sendAfterAll(row, error)) run.failed(row, base, taskId, error);
      },
    );
  }

  /** An earlier task's state now, for --no-wait: its result record holds the status, and the score once marked. */
  async currentState(base: AnswerOutcome, taskId: string): Promise<AnswerOutcome> {
    const { client, context } = this.run.settings;
    const record = await this.readResult(() => client.result(taskId, { signal: context.signal, patient: true }));
    const outcome = outcomeFromResult({ ...base, task_id: taskId }, record);
    return { ...outcome, credits_charged: typeof record.credits_charged === 'number' ? record.credits_charged : outcome.credits_charged };
  }

  private unwatch(tag: number): Watched {
    const what = this.watched.get(tag)!;
    this.watched.delete(tag);
    return what;
  }

  /** A task is final: its result is read, retried once or twice if the service says so, printed. */
  private async finishTask(row: number, taskId: string): Promise<void> {
    const { run } = this;
    const { client, context, collection } = run.settings;
    const answer = collection.answerAt(row);
    const base = run.baseOf(row, answer);
    try {
      const result = await this.readResult(() => client.result(taskId, { signal: context.signal, patient: true }));
      if (isUnsuccessfulFinal(statusOf(result)) && run.sendAfterAll(row, undefined, taskId)) return;
      if (answer && (await retried(run, row, answer, result))) return;
      run.emit(row, outcomeFromResult(base, result), answer);
    } catch (error) {
      if (run.sendAfterAll(row, error)) return;
      run.failed(row, base, taskId, error);
    }
  }

  private failed(what: Watched, error: unknown, taskId: string): void {
    if (what.kind === 'batch') {
      this.run.batches.failed(what.chunk, error, taskId);
      return;
    }
    if (this.run.sendAfterAll(what.row, error)) return;
    this.run.failed(what.row, this.run.baseOf(what.row), taskId, error);
  }

  private timedOut(what: Watched, taskId: string): void {
    const rows = what.kind === 'batch' ? this.run.batches.drop(what.chunk) : [what.row];
    for (const row of rows)
      this.run.emit(row, { ...this.run.baseOf(row), task_id: taskId, status: 'TIMEOUT', message: 'still running when --timeout ran out' });
  }
}
