// A marking run over any number of answers, in memory that does not grow with their number:
// answers are built one at a time from the collection's names, at most --jobs are being read and
// sent at once, every accepted task is followed by one polling loop (TaskScheduler) that holds a
// few numbers per task, and each answer's row is printed (and journaled) as soon as its result
// is read, then dropped. Plain-text answers may go through POST /evaluations/batch, 100 to a
// request (--via batch), one status poll per batch. Kept for the end: counts and a few names.

import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  InsufficientCreditsError,
  InterruptedError,
  KctError,
  NotFoundError,
  PermissionError,
  refusalOf,
} from '../../api/errors.js';
import type { EvaluationResult, OnePassFields, StatusSnapshot, Task } from '../../api/schemas.js';
import { isFinalStatus, statusOf } from '../../api/status.js';
import type { Answer, Collection } from '../../cli/answers/answers.js';
import { itemOutcomes } from '../../cli/answers/batch-items.js';
import type { Context } from '../../cli/core/context.js';
import { err } from '../../cli/core/io.js';
import { type AnswerOutcome, ndjsonRow, type OutcomeWriter, outcomeFromResult } from '../../cli/render/outcomes.js';
import type { AcceptedTask, KctClient, OnePassInput } from '../../client/client.js';
import type { LocalFile } from '../../client/files.js';
import type { FileHasher, KeyRule, OnePassIdempotency } from '../../client/idempotency.js';
import { limiter, slots } from '../../client/limit.js';
import { type PollSchedule, schedulerOptions, TaskScheduler } from '../../client/poll.js';
import { batchText, type Chunk, ChunkFiller, emptyChunk } from './batch-chunks.js';
import { ExitTally } from './exit-tally.js';
import { hash53, type Journal } from './journal.js';
import type { Ledger } from './ledger.js';

/** How long a submission under way when Ctrl-C lands may still take to be answered. */
const SUBMIT_GRACE_MS = 10_000;

export const AGAIN = 'the same command (it finds the accepted tasks by their idempotency keys: nothing is charged twice)';

/** Result reads in flight at once. */
const RESULT_READS = 8;
/**
 * Tasks unfinished at once, at most, in a waiting run (a batch counts its answers): past this,
 * sending waits for tasks to end. The run's memory then holds this many tasks' state whatever
 * the class size, and the service this many of its tasks; a service slower than kct sets the
 * pace either way.
 */
const MAX_PENDING = 10_000;

export interface RunSettings {
  context: Context;
  client: KctClient;
  collection: Collection;
  /** The fields every answer shares (model, rubric text, style...). */
  common: OnePassFields;
  rubricFiles: LocalFile[];
  questionFiles: LocalFile[];
  keyRule: KeyRule;
  hasher: FileHasher;
  journal?: Journal;
  /** What this machine sent to the server before, by route (ledger.ts): no answer is charged twice. */
  ledger?: Ledger;
  jobs: number;
  wait: boolean;
  timeoutMs: number;
  schedule: PollSchedule;
  /** When a new task is first looked at. */
  firstPollIn: number;
  /** Send plain-text answers in batches of 100. */
  viaBatch: boolean;
  /** A waiting run's tasks unfinished at once, at most (default MAX_PENDING; KCT_MAX_PENDING). */
  maxPending?: number;
  /** Rows go to the writer, unless the run is of one named answer (printed as a record by the caller). */
  writer?: OutcomeWriter;
  /** Told about every row (the class report). */
  onRow?: (outcome: AnswerOutcome) => void;
  onSnapshot?: (snapshot: StatusSnapshot, changed: boolean) => void;
  onTransientError?: (taskId: string, error: Error) => void;
  /** Told when a task is accepted (the "accepted" line, the cost); `replayed`: it is an earlier submission's; `answers`: how many it holds (a batch's items). */
  onAccepted?: (task: Task, replayed: boolean, answers: number) => void;
}

export interface RunOutcome {
  accepted: number;
  /** Answers whose task the service replayed, or that this machine had sent before: no new charge. */
  replayed: number;
  firstTaskId?: string;
  /** The only row, for a run of one answer. */
  last?: AnswerOutcome;
  sentInBatches: number;
}

/** Errors that would hit every remaining answer the same way: stop submitting. */
function stopsTheRun(error: unknown): boolean {
  // unreachable after the retries: sending or watching the other answers would only wait too
  if (error instanceof ConnectionError) return true;
  if (
    error instanceof AuthenticationError ||
    error instanceof InsufficientCreditsError ||
    error instanceof PermissionError ||
    error instanceof NotFoundError
  )
    return true;
  return refusalOf(error) === 'model_not_ready';
}

type RowExtras = Partial<Pick<AnswerOutcome, 'duplicate_of' | 'replayed'>>;

/** What a task the polling loop watches is to this run: one answer's, or a batch's. */
type Watched = { kind: 'answer'; row: number } | { kind: 'batch'; chunk: number };

/** An answer left unsent because an earlier error stopped the run. */
class NotSent extends Error {}

export class MarkingRun {
  private readonly tally = new ExitTally();
  private accepted = 0;
  /** Submissions whose connection broke after the body was sent: the service may have accepted them. */
  private maybeAccepted = 0;
  private replayed = 0;
  /** Rows tied to a task kct knows exists (accepted, replayed or followed), and those whose row is printed. */
  private readonly tasked = new Set<number>();
  private tasksFinished = 0;
  /** The first row of each answer content (a 53-bit hash of it), to flag identical answers. */
  private readonly firstWithContent = new Map<number, number>();
  /** Rows followed from the ledger, by the key and content to forget if their task is gone. */
  private readonly ledgerRows = new Map<number, { key: string; fingerprint: string }>();
  private readonly extras = new Map<number, RowExtras>();
  /** Batched answers of this run by key and content, and the later rows that are the same submission. */
  private readonly batchedThisRun = new Map<number, number>();
  private readonly mirrors = new Map<number, number[]>();
  private submitSignal?: AbortSignal;
  private firstTaskId?: string;
  private last?: AnswerOutcome;
  private sentInBatches = 0;
  private interrupted?: unknown;
  private emitted = 0;
  /** What resumes sending when rows were waited for. */
  private rowEmitted?: () => void;
  private expected: number;
  private allEmitted?: () => void;
  private readonly retries = new Map<number, number>();
  private readonly chunks = new Map<number, Chunk>();
  private readonly resumedBatches = new Map<string, number>();
  private nextChunk = 0;
  private readonly filling = new ChunkFiller();
  private batchMembers?: Map<string, number>;
  private pumpDone = false;
  private readonly readResult = limiter(RESULT_READS);
  private readonly scheduler: TaskScheduler;
  /** The watched tasks by the tag the loop knows them by. */
  private readonly watched = new Map<number, Watched>();
  private nextTag = 0;
  private readonly settings: RunSettings;

  constructor(settings: RunSettings) {
    this.settings = settings;
    this.expected = settings.collection.count;
    const { client, context } = settings;
    this.scheduler = new TaskScheduler(
      (id, signal) => client.statusWithHints(id, { signal }),
      schedulerOptions({
        timeoutMs: settings.timeoutMs,
        schedule: settings.schedule,
        signal: context.signal,
        onUpdate: settings.onSnapshot,
        onTransientError: settings.onTransientError,
      }),
      {
        onFinal: (tag, _snapshot, taskId) => {
          const what = this.unwatch(tag);
          void (what.kind === 'answer' ? this.finishTask(what.row, taskId) : this.finishChunk(what.chunk, taskId));
        },
        onError: (tag, error, taskId) => this.watchFailed(this.unwatch(tag), error, taskId),
        onTimeout: (tag, taskId) => this.timedOut(this.unwatch(tag), taskId),
      },
    );
  }

  /** Follows a task in the run's one polling loop. */
  private watch(taskId: string, what: Watched, options: { firstPollIn: number; weight?: number }): void {
    const tag = this.nextTag++;
    this.watched.set(tag, what);
    this.scheduler.add(taskId, tag, options);
  }

  /** The loop is done with a task (it calls exactly one handler, once): what it was. */
  private unwatch(tag: number): Watched {
    const what = this.watched.get(tag)!;
    this.watched.delete(tag);
    return what;
  }

  /** Sends and follows every answer; resolves when every row is printed. */
  async run(): Promise<RunOutcome> {
    if (this.settings.journal) this.batchMembers = this.settings.journal.batchMembers();
    const done = new Promise<void>((resolve) => {
      this.allEmitted = resolve;
    });
    if (this.expected === 0) this.allEmitted?.();
    return this.runAll(done);
  }

  private async runAll(done: Promise<void>): Promise<RunOutcome> {
    const { collection, context, jobs } = this.settings;
    // at most --jobs answers being read, hashed and sent at once; the next is built only then
    const sending = slots(jobs);
    for (const answer of collection.answers()) {
      if (this.interrupted !== undefined || context.signal.aborted) break;
      await this.settings.writer?.drained();
      const release = await sending.take();
      while (
        this.settings.wait &&
        this.pending() >= (this.settings.maxPending ?? MAX_PENDING) &&
        this.interrupted === undefined &&
        !context.signal.aborted
      )
        await this.aRow();
      if (this.interrupted !== undefined || context.signal.aborted) {
        release();
        break;
      }
      void this.send(answer).finally(release);
    }
    await sending.idle();
    const last = this.filling.take();
    if (this.interrupted === undefined && !context.signal.aborted && last) await this.sendChunk(last);
    this.pumpDone = true;
    for (const [id, chunk] of this.chunks) if (chunk.finalWaiting) void this.finishChunk(id, chunk.taskId as string);
    if (this.interrupted === undefined && !context.signal.aborted) {
      await Promise.race([done, new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }))]);
    }
    if (this.interrupted !== undefined || context.signal.aborted) throw this.interruption();
    return {
      accepted: this.accepted,
      replayed: this.replayed,
      firstTaskId: this.firstTaskId,
      last: this.last,
      sentInBatches: this.sentInBatches,
    };
  }

  /**
   * Answers whose task is accepted and still watched (a batch counts its items). Not counted:
   * the few being sent (--jobs) or read back, and a batch still filling, which waits for more
   * answers: counting it would stop the sending that fills it.
   */
  private pending(): number {
    return this.scheduler.watchedWeight;
  }

  /** Until the next row is printed, or the run is interrupted. */
  private aRow(): Promise<void> {
    return new Promise<void>((resolve) => {
      const { signal } = this.settings.context;
      const done = () => {
        signal.removeEventListener('abort', done);
        this.rowEmitted = undefined;
        resolve();
      };
      this.rowEmitted = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * What kct knows of the tasks so far (for the Ctrl-C message): how many it saw accepted or
   * followed, how many of those it saw finish (their rows printed), and the rest, unfinished as far
   * as it has seen.
   */
  /** Whether the service accepted, or may have accepted, any answer of this run: then running the same command again is the way on. */
  anySent(): boolean {
    return this.accepted > 0 || this.maybeAccepted > 0;
  }

  progress(): { accepted: number; firstTaskId?: string; unfinished: number; finished: number } {
    return { accepted: this.accepted, firstTaskId: this.firstTaskId, unfinished: this.tasked.size, finished: this.tasksFinished };
  }

  /** The exit status of a finished run (docs/commands/kct.md#exit-codes): an error that stopped the run, then refusals, time-outs, failures. */
  throwExitStatus(): void {
    this.tally.throwExitStatus({ anySent: this.anySent(), timeoutMs: this.settings.timeoutMs, again: AGAIN });
  }

  private interruption(): InterruptedError {
    return this.interrupted instanceof InterruptedError
      ? this.interrupted
      : new InterruptedError('interrupted', { cause: this.interrupted });
  }

  /**
   * Reads, keys and sends one answer (or puts it in a batch), or finds it: in the journal, or in
   * the ledger when an earlier run sent it in a batch (sending it again would be a new request).
   */
  private async send(answer: Answer, options: { ignoreLedger?: boolean; onePass?: boolean } = {}): Promise<void> {
    const { client, context, journal, hasher } = this.settings;
    const base: AnswerOutcome = { file: answer.label, student_id: answer.studentId, status: 'NOT_SENT' };
    const fields: OnePassFields = dropUndefined({ ...this.settings.common, paper_content: answer.text, student_id: answer.studentId });
    try {
      // the client reads the answer's small files once, for the key and the request; each file is hashed once
      const hashes = new Map<string, Promise<string>>();
      const once: FileHasher = (file) => {
        let hash = hashes.get(file.path);
        if (!hash) hashes.set(file.path, (hash = hasher(file)));
        return hash;
      };
      const submission = await client.prepareOnePass(this.inputOf(answer, fields), {
        idempotency: this.idempotencyOf(answer),
        hasher: once,
      });
      const key = submission.idempotencyKey as string;
      const fingerprint = await fingerprintOf(answer.text, submission.input.answerFiles ?? [], once);
      this.markDuplicate(answer.index, fingerprint);
      const plan = journal?.plan(answer.label, key) ?? { kind: 'submit' as const, changed: false };
      if (plan.kind === 'done') {
        const row = journal!.row(plan.slot);
        if (row) this.emit(answer.index, outcomeFromRow(base, row));
        else if (this.settings.wait) {
          this.tasked.add(answer.index);
          void this.finishTask(answer.index, plan.taskId);
        } else this.emit(answer.index, { ...base, task_id: plan.taskId, status: plan.status });
        return;
      }
      if (plan.kind === 'attach') {
        err(context.io, `kct: ${answer.label}: following ${plan.taskId} from the last run`);
        this.follow(plan.taskId, answer.index, 0, base);
        return;
      }
      if (plan.kind === 'attach-batch') {
        this.followResumedBatch(plan.batchId, plan.item, answer.index, base);
        return;
      }
      const known = options.ignoreLedger ? undefined : this.settings.ledger?.lookup(key, fingerprint);
      if (known?.route === 'batch') {
        this.ledgerRows.set(answer.index, { key, fingerprint });
        this.replayed += 1;
        this.extra(answer.index).replayed = true;
        this.followResumedBatch(known.batchId, known.item, answer.index, base, true);
        return;
      }
      if (this.tally.fatal !== undefined) throw new NotSent();
      if (plan.changed) err(context.io, `kct: ${answer.label} changed since the last run: submitting it as a new answer`);
      // an answer this machine already sent one-pass goes one-pass again: its own key replays it, free
      const text =
        this.settings.viaBatch && known === undefined && !options.onePass
          ? batchText(answer, submission.input.answerFiles ?? [])
          : undefined;
      if (text !== undefined) {
        // the same submission twice in one run (same key and content): one batch item, two rows, as one-pass replays it
        const same = hash53(`${key}\n${fingerprint}`);
        const first = this.batchedThisRun.get(same);
        if (first !== undefined) {
          const rows = this.mirrors.get(first) ?? [];
          this.mirrors.set(first, [...rows, answer.index]);
          this.tasked.add(answer.index);
          return;
        }
        this.batchedThisRun.set(same, answer.index);
        await this.addToBatch(answer.index, { ...fields, paper_content: text }, key, fingerprint);
        return;
      }
      if (context.signal.aborted) throw new InterruptedError('interrupted before this answer was sent');
      let task: AcceptedTask;
      try {
        task = await submission.send({ signal: this.submitting() });
      } catch (error) {
        throw this.keyConflict(error, answer, key);
      }
      const replayed = task.replayed === true || known !== undefined;
      this.accept(task, replayed);
      if (replayed) this.extra(answer.index).replayed = true;
      this.tasked.add(answer.index);
      this.settings.ledger?.onePassAccepted(key, fingerprint);
      journal?.submitted(answer.label, key, task.task_id, task.status ?? 'QUEUED');
      this.settings.onAccepted?.(task, replayed, 1);
      if (!this.settings.wait) {
        // a replay's acceptance is the stored one: its state now is read, never printed as current
        if (replayed) this.emit(answer.index, await this.currentState(base, task.task_id));
        else this.emit(answer.index, { ...base, task_id: task.task_id, status: task.status ?? 'QUEUED', result: task as EvaluationResult });
        return;
      }
      // a replay may be long finished: looked at at once
      this.follow(task.task_id, answer.index, replayed ? 0 : this.settings.firstPollIn, base);
    } catch (error) {
      this.failed(answer.index, base, undefined, error);
    }
  }

  /** An earlier task's state now, for --no-wait: its result record holds the status, and the score once marked. */
  private async currentState(base: AnswerOutcome, taskId: string): Promise<AnswerOutcome> {
    const record = await this.readResult(() => this.settings.client.result(taskId, { signal: this.settings.context.signal }));
    const outcome = outcomeFromResult({ ...base, task_id: taskId }, record);
    return { ...outcome, credits_charged: typeof record.credits_charged === 'number' ? record.credits_charged : outcome.credits_charged };
  }

  /** Flags an answer whose content (every byte) is the same as an earlier answer's of this run. */
  private markDuplicate(row: number, fingerprint: string): void {
    const content = hash53(fingerprint);
    const first = this.firstWithContent.get(content);
    if (first === undefined) {
      this.firstWithContent.set(content, row);
      return;
    }
    const label = this.settings.collection.answerAt(first)?.label;
    if (label !== undefined && first !== row) this.extra(row).duplicate_of = label;
  }

  /** What a row says beyond its result (a replay, an identical answer), kept until it is printed. */
  private extra(row: number): RowExtras {
    let extras = this.extras.get(row);
    if (!extras) this.extras.set(row, (extras = {}));
    return extras;
  }

  /** What one answer sends: its fields and files, with the rubric and question files every answer shares. */
  private inputOf(answer: Answer, fields: OnePassFields): OnePassInput {
    return { fields, answerFiles: answer.files, rubricFiles: this.settings.rubricFiles, questionFiles: this.settings.questionFiles };
  }

  /** The answer's key: derived from its content, or --idempotency-key joined to its identity. */
  private idempotencyOf(answer: Answer): OnePassIdempotency {
    const rule = this.settings.keyRule;
    return rule.kind === 'base' ? { base: rule.base, identity: answer.identity } : 'derive';
  }

  /** Turns an error into the answer's row, or stops the run (Ctrl-C, a bug). */
  private failed(row: number, base: AnswerOutcome, taskId: string | undefined, error: unknown): void {
    if (error instanceof InterruptedError || this.settings.context.signal.aborted) {
      this.interrupted ??= error;
      return;
    }
    if (error instanceof NotSent) {
      this.emit(row, { ...base, message: `not sent: the run stopped after ${(this.tally.fatal as Error).message}` });
      return;
    }
    if (error instanceof ConnectionError && error.maybeDelivered && taskId === undefined) this.maybeAccepted += 1;
    // a bug: exit 1, after what was already printed
    if (!(error instanceof KctError) && !isLocalFileError(error)) {
      this.tally.firstError ??= error;
      this.emit(row, {
        ...base,
        task_id: taskId,
        status: taskId ? 'ERROR' : 'NOT_SENT',
        message: (error as Error).message ?? String(error),
      });
      return;
    }
    if (stopsTheRun(error) && this.tally.fatal === undefined) this.tally.fatal = error;
    const outcome: AnswerOutcome = {
      ...base,
      task_id: taskId,
      status: taskId ? 'ERROR' : 'NOT_SENT',
      message: (error as Error).message,
      error,
    };
    if (this.tally.fatal !== error) this.tally.firstError ??= error;
    this.emit(row, outcome);
  }

  private follow(taskId: string, row: number, firstPollIn: number, base: AnswerOutcome): void {
    this.tasked.add(row);
    if (!this.settings.wait) {
      // an earlier run's task: its state now, never a guess
      this.currentState(base, taskId).then(
        (outcome) => this.emit(row, outcome),
        (error: unknown) => this.failed(row, base, taskId, error),
      );
      return;
    }
    this.watch(taskId, { kind: 'answer', row }, { firstPollIn });
  }

  /**
   * The signal of a submission: Ctrl-C lets one already under way finish (SUBMIT_GRACE_MS at most),
   * so a task the service accepted is counted and journaled; a second Ctrl-C exits at once (main.ts).
   */
  private submitting(): AbortSignal {
    if (this.submitSignal) return this.submitSignal;
    const { signal } = this.settings.context;
    const grace = new AbortController();
    setMaxListeners(0, grace.signal); // one listener per submission in flight: --jobs may be any number
    const later = () => setTimeout(() => grace.abort(signal.reason), SUBMIT_GRACE_MS).unref();
    if (signal.aborted) later();
    else signal.addEventListener('abort', later, { once: true });
    return (this.submitSignal = grace.signal);
  }

  private accept(task: Task, replayed = false): void {
    this.accepted += 1;
    if (replayed) this.replayed += 1;
    this.firstTaskId ??= task.task_id;
  }

  /** A task is final: its result is read, retried once or twice if the service says so, printed. */
  private async finishTask(row: number, taskId: string): Promise<void> {
    const answer = this.settings.collection.answerAt(row);
    const base: AnswerOutcome = { file: answer?.label ?? taskId, student_id: answer?.studentId, status: 'ERROR' };
    try {
      const result = await this.readResult(() => this.settings.client.result(taskId, { signal: this.settings.context.signal }));
      if (answer && (await this.retried(row, answer, result))) return;
      this.finished(row, outcomeFromResult(base, result), taskId);
    } catch (error) {
      this.failed(row, base, taskId, error);
    }
  }

  /** Records and prints a finished answer. */
  private finished(row: number, outcome: AnswerOutcome, taskId: string): void {
    const label = this.settings.collection.answerAt(row)?.label;
    if (label !== undefined) this.settings.journal?.finished(label, taskId, outcome.status, ndjsonRow(outcome));
    this.emit(row, outcome);
  }

  /** Rows that are the same submission as `row` (mirrors.get): each gets its outcome, under its own name. */
  private emitMirrors(row: number, outcome: AnswerOutcome): void {
    const rows = this.mirrors.get(row);
    if (!rows) return;
    this.mirrors.delete(row);
    for (const mirror of rows) {
      const answer = this.settings.collection.answerAt(mirror);
      const own: AnswerOutcome = {
        ...outcome,
        file: answer?.label ?? outcome.file,
        student_id: answer?.studentId,
        replayed: undefined,
        duplicate_of: undefined,
      };
      if (answer && outcome.task_id && isFinalStatus(outcome.status))
        this.settings.journal?.finished(answer.label, outcome.task_id, outcome.status, ndjsonRow(own));
      this.emit(mirror, own);
    }
  }

  /**
   * A failure the server calls retryable (its own fault, not the answer's) would be replayed
   * forever under the same derived key: it is sent again under a derived follow-up key, at most twice.
   */
  private async retried(row: number, answer: Answer, result: EvaluationResult): Promise<boolean> {
    const attempt = (this.retries.get(row) ?? 0) + 1;
    if (this.settings.keyRule.kind !== 'derived' || attempt > 2 || statusOf(result) !== 'FAILURE' || result.retryable !== true)
      return false;
    const { client, context, hasher } = this.settings;
    err(context.io, `kct: ${answer.label}: ${result.task_id} failed on the service's side and may be retried; submitting it again`);
    const fields: OnePassFields = dropUndefined({ ...this.settings.common, paper_content: answer.text, student_id: answer.studentId });
    const first = await client.prepareOnePass(this.inputOf(answer, fields), { idempotency: 'derive', hasher });
    const key = first.idempotencyKey as string;
    const again = await client.onePass(first.input, { idempotency: { key: `${key}-retry${attempt}` }, signal: context.signal });
    this.retries.set(row, attempt);
    this.accept(again);
    this.settings.journal?.submitted(answer.label, key, again.task_id, again.status ?? 'QUEUED');
    this.watch(again.task_id, { kind: 'answer', row }, { firstPollIn: this.settings.firstPollIn });
    return true;
  }

  private watchFailed(what: Watched, error: unknown, taskId: string): void {
    if (what.kind === 'batch') {
      const chunk = this.chunks.get(what.chunk);
      this.chunks.delete(what.chunk);
      const rows = (chunk?.rows ?? []).filter((row) => row >= 0);
      if (chunk?.fromLedger && this.sendAgain(rows, error)) return;
      for (const row of rows) this.failed(row, this.baseOf(row), taskId, error);
      return;
    }
    this.failed(what.row, this.baseOf(what.row), taskId, error);
  }

  private timedOut(what: Watched, taskId: string): void {
    const rows = what.kind === 'batch' ? (this.chunks.get(what.chunk)?.rows ?? []).filter((row) => row >= 0) : [what.row];
    if (what.kind === 'batch') this.chunks.delete(what.chunk);
    for (const row of rows)
      this.emit(row, { ...this.baseOf(row), task_id: taskId, status: 'TIMEOUT', message: 'still running when --timeout ran out' });
  }

  private baseOf(row: number): AnswerOutcome {
    const answer = this.settings.collection.answerAt(row);
    return { file: answer?.label ?? `answer ${row + 1}`, student_id: answer?.studentId, status: 'ERROR' };
  }

  /** Puts a plain-text answer in the batch being filled; sends the batch when it is full. */
  private async addToBatch(row: number, fields: OnePassFields, key: string, fingerprint: string): Promise<void> {
    const full = this.filling.add(row, fields, key, fingerprint);
    if (full) await this.sendChunk(full);
  }

  /** POST /evaluations/batch of up to 100 answers; the batch is followed as one task. */
  private async sendChunk(chunk: Chunk): Promise<void> {
    const { client, context, journal, keyRule, collection } = this.settings;
    const labels = chunk.rows.map((row) => collection.answerAt(row)?.label ?? `answer ${row + 1}`);
    const body = { evaluations: chunk.fields };
    let task: AcceptedTask;
    try {
      if (this.tally.fatal !== undefined) throw new NotSent();
      // a base key is joined to the request's identity: its answers' identities, never its position
      const identities = chunk.rows.map((row) => collection.answerAt(row)?.identity ?? String(row));
      if (context.signal.aborted) throw new InterruptedError('interrupted before this batch was sent');
      const idempotency = keyRule.kind === 'base' ? { base: keyRule.base, identities } : ('derive' as const);
      task = await client.batch(body, { idempotency, signal: this.submitting() });
    } catch (error) {
      for (const row of chunk.rows) this.failed(row, this.baseOf(row), undefined, error);
      return;
    } finally {
      chunk.fields = []; // the texts are sent: not kept while the batch is marked
    }
    this.accepted += chunk.rows.length;
    if (task.replayed) this.replayed += chunk.rows.length;
    this.firstTaskId ??= task.task_id;
    this.sentInBatches += chunk.rows.length;
    this.settings.onAccepted?.(task, task.replayed === true, chunk.rows.length);
    chunk.rows.forEach((row, item) => {
      this.tasked.add(row);
      if (task.replayed) this.extra(row).replayed = true;
      this.settings.ledger?.batchAccepted(chunk.keys[item], chunk.fingerprints[item], task.task_id, item);
      journal?.submittedInBatch(labels[item], chunk.keys[item], task.task_id, item);
    });
    chunk.keys = [];
    chunk.fingerprints = [];
    if (!this.settings.wait) {
      for (const row of chunk.rows) this.emit(row, { ...this.baseOf(row), task_id: task.task_id, status: task.status ?? 'QUEUED' });
      return;
    }
    const id = this.nextChunk++;
    chunk.taskId = task.task_id;
    this.chunks.set(id, chunk);
    this.watch(task.task_id, { kind: 'batch', chunk: id }, { firstPollIn: this.settings.firstPollIn, weight: chunk.rows.length });
  }

  /**
   * An answer an earlier run sent in a batch (found in the journal, or in the ledger): the batch is
   * followed once for all its answers. One known from the ledger only is found once every answer
   * is read (the ledger does not say how many of them this run holds).
   */
  private followResumedBatch(batchId: string, item: number, row: number, base: AnswerOutcome, fromLedger = false): void {
    this.tasked.add(row);
    if (!this.settings.wait) {
      void this.currentBatchItem(row, base, batchId, item);
      return;
    }
    let id = this.resumedBatches.get(batchId);
    if (id === undefined) {
      id = this.nextChunk++;
      this.resumedBatches.set(batchId, id);
      const expected = fromLedger ? undefined : (this.batchMembers?.get(batchId) ?? 1);
      this.chunks.set(id, { ...emptyChunk(), taskId: batchId, expected, fromLedger });
      const whence = fromLedger ? "an earlier run (this machine's ledger)" : 'the last run';
      err(
        this.settings.context.io,
        `kct: following the batch ${batchId} from ${whence}${expected === undefined ? '' : ` (${expected} answer${expected === 1 ? '' : 's'})`}`,
      );
      this.watch(batchId, { kind: 'batch', chunk: id }, { firstPollIn: 0, weight: expected ?? 1 });
    }
    const chunk = this.chunks.get(id)!;
    while (chunk.rows.length <= item) chunk.rows.push(-1);
    const earlier = chunk.rows[item];
    if (earlier >= 0 && earlier !== row) {
      // a second answer that is the same submission (same key and content): it gets that item's row
      this.mirrors.set(earlier, [...(this.mirrors.get(earlier) ?? []), row]);
      return;
    }
    chunk.rows[item] = row;
    if (chunk.finalWaiting && this.membersFound(chunk)) void this.finishChunk(id, batchId);
  }

  private membersFound(chunk: Chunk): boolean {
    if (chunk.fromLedger) return this.pumpDone;
    return chunk.expected === undefined || this.pumpDone || chunk.rows.filter((row) => row >= 0).length >= chunk.expected;
  }

  /**
   * The batch the ledger recorded for these answers is gone (another account's key, a sandbox
   * started afresh): forgotten, and the answers sent again. True when that is what happened.
   */
  private sendAgain(rows: number[], error: unknown): boolean {
    if (!(error instanceof NotFoundError)) return false;
    for (const row of rows) {
      const entry = this.ledgerRows.get(row);
      const answer = this.settings.collection.answerAt(row);
      if (!entry || !answer) {
        this.failed(row, this.baseOf(row), undefined, error);
        continue;
      }
      this.settings.ledger?.forget(entry.key, entry.fingerprint);
      this.ledgerRows.delete(row);
      this.tasked.delete(row);
      this.replayed -= 1;
      delete this.extra(row).replayed;
      // one-pass: the batches of this run may all be sent already
      void this.send(answer, { ignoreLedger: true, onePass: true });
    }
    return true;
  }

  /** --no-wait: the state now of an answer an earlier run sent in a batch (its item in the batch's record). */
  private async currentBatchItem(row: number, base: AnswerOutcome, batchId: string, item: number): Promise<void> {
    try {
      const record = await this.readResult(() => this.settings.client.result(batchId, { signal: this.settings.context.signal }));
      const sent = [];
      sent[item] = { label: base.file, studentId: base.student_id };
      const [outcome] = (await itemOutcomes(this.settings.client, record, sent, this.settings.context.signal)).slice(item);
      this.emit(row, outcome ?? { ...base, task_id: batchId, status: statusOf(record) });
    } catch (error) {
      this.failed(row, base, batchId, error);
    }
  }

  /** A batch is final: its record holds every item's result; each becomes its answer's row. */
  private async finishChunk(id: number, taskId: string): Promise<void> {
    const chunk = this.chunks.get(id);
    if (!chunk) return;
    if (!this.membersFound(chunk)) {
      chunk.finalWaiting = true;
      return;
    }
    this.chunks.delete(id);
    const { client, collection, context } = this.settings;
    const sent = chunk.rows.map((row) => {
      if (row < 0) return undefined;
      const answer = collection.answerAt(row);
      return { label: answer?.label ?? `answer ${row + 1}`, studentId: answer?.studentId };
    });
    let outcomes: (AnswerOutcome | undefined)[];
    try {
      const record = await this.readResult(() => client.result(taskId, { signal: context.signal }));
      outcomes = await itemOutcomes(client, record, sent, context.signal);
    } catch (error) {
      const rows = chunk.rows.filter((row) => row >= 0);
      if (chunk.fromLedger && this.sendAgain(rows, error)) return;
      for (const row of rows) this.failed(row, this.baseOf(row), taskId, error);
      return;
    }
    await Promise.all(
      chunk.rows.map(async (row, item) => {
        const outcome = outcomes[item];
        if (row < 0 || !outcome) return;
        const answer = collection.answerAt(row);
        try {
          if (answer && outcome.result && (await this.retried(row, answer, outcome.result))) return;
          this.finished(row, outcome, outcome.task_id ?? taskId);
        } catch (error) {
          this.failed(row, outcome, outcome.task_id, error);
        }
      }),
    );
  }

  /** One row: printed, reported, counted for the exit status, then dropped. */
  private emit(row: number, found: AnswerOutcome): void {
    const { writer } = this.settings;
    const extras = this.extras.get(row);
    // a learning platform's download names its students: the row says the name with the id
    const studentName = this.settings.collection.studentNameAt?.(row);
    const named = studentName === undefined ? found : { ...found, student_name: studentName };
    const outcome = extras ? { ...named, ...extras } : named;
    this.extras.delete(row);
    this.ledgerRows.delete(row);
    if (this.tasked.delete(row) && isFinalStatus(outcome.status)) this.tasksFinished += 1;
    if (this.mirrors.size > 0) queueMicrotask(() => this.emitMirrors(row, outcome));
    if (writer) writer.add(outcome, row);
    else this.last = outcome;
    this.settings.onRow?.(outcome);
    this.tally.count(outcome);
    this.emitted += 1;
    this.rowEmitted?.();
    if (this.emitted >= this.expected) this.allEmitted?.();
  }

  /**
   * A 409 for a key reused on a changed answer, told in the user's terms: which file changed, under
   * which key, and the two ways on. With derived keys a changed file gets a new key, so this comes
   * from a base key given with --idempotency-key.
   */
  private keyConflict(error: unknown, answer: Answer, key: string): unknown {
    const rule = this.settings.keyRule;
    if (!(error instanceof ApiError) || refusalOf(error) !== 'idempotency_key_reused' || rule.kind !== 'base') return error;
    return ApiError.from(
      error.status,
      error.body,
      {
        message: `${answer.label === '-' ? 'the answer on standard input' : answer.label === '--text' ? 'the --text answer' : answer.label} changed since it was sent with the key ${key}: the service refused the changed answer (${error.message})`,
        method: error.method,
        url: error.url,
        requestId: error.requestId,
        errorCode: error.errorCode,
        headers: error.headers,
      },
      {
        suggestion: `To mark the new version, run again with a new --idempotency-key (e.g. ${rule.base}-v2), or without one (keys are then derived from each answer's content). To keep the first marks, restore the file.`,
      },
    );
  }
}

function outcomeFromRow(base: AnswerOutcome, row: Record<string, unknown>): AnswerOutcome {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const number = (value: unknown) => (typeof value === 'number' ? value : null);
  return {
    ...base,
    task_id: text(row.task_id),
    status: text(row.status) ?? 'UNKNOWN',
    score: number(row.score),
    max_score: number(row.max_score),
    credits_charged: number(row.credits_charged),
    evaluation: Array.isArray(row.evaluation) ? (row.evaluation as AnswerOutcome['evaluation']) : null,
    message: text(row.message),
    ...(text(row.graded_by) ? { graded_by: text(row.graded_by) } : {}),
  };
}

/** A file that vanished or changed permissions after the checks: that answer fails, not the run. */
function isLocalFileError(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === 'string' && typeof (error as { path?: unknown }).path === 'string';
}

export function dropUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * What an answer is, byte for byte, whatever it is called or how it is sent: the SHA-256 of its
 * text, or of its files' contents in order. Two answers with the same one are identical.
 */
async function fingerprintOf(text: string | undefined, files: readonly LocalFile[], hash: FileHasher): Promise<string> {
  const digest = createHash('sha256');
  if (text !== undefined) digest.update(`text\n${text}`);
  else for (const file of files) digest.update(`file\n${await hash(file)}\n`);
  return digest.digest('hex');
}
