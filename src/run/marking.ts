// A marking run over any number of answers, in memory that does not grow with their number beyond
// a few numbers each: the plan (plan.ts) says what becomes of every answer; at most --jobs answers
// are read and sent at once (one-pass, or 100 to a batch: batches.ts); every task is followed by
// one polling loop; each row goes to the run's record (record.ts), and from there to every view,
// as soon as it is known. An answer whose identity this run already sends (a copy) or that was
// marked before (reused) is not sent: it gets that mark under its own labels.
import { AuthenticationError, ConnectionError, InterruptedError, KctError, NotFoundError, PermissionError } from '../api/errors.js';
import type { EvaluationResult, OnePassFields, Task } from '../api/schemas.js';
import { isFinalStatus } from '../api/status.js';
import type { Answer } from '../cli/answers/answers.js';
import { err } from '../cli/core/io.js';
import { type AnswerOutcome, copyOutcome } from '../cli/render/outcome.js';
import type { AcceptedTask, OnePassInput } from '../client/client.js';
import { slots } from '../client/limit.js';
import { Batches } from './batches.js';
import { EarlierTasks } from './earlier-tasks.js';
import { Follower } from './follow.js';
import type { JournalKnown } from './journal.js';
import { keyConflict, keyOf } from './keys.js';
import type { Marked } from './ledger.js';
import { markedOf, type Plan, planOf, taskOf } from './plan.js';
import { Resends, ResentTally } from './resends.js';
import { namedRow } from './row-names.js';
import { dropUndefined, graceAfter, isLocalFileError, NotSent, outcomeFromRow, type RunSettings, stopsTheRun } from './settings.js';
import { type LeftWithService, TaskedRows } from './tasked-rows.js';

/** How long a submission under way when Ctrl-C lands may still take to be answered. */
const SUBMIT_GRACE_MS = 10_000;
/**
 * Tasks unfinished at once, at most, in a waiting run (a batch counts its answers): past this, sending
 * waits for tasks to end, so memory holds this many tasks' state whatever the class size.
 */
const MAX_PENDING = 10_000;

export interface RunOutcome {
  accepted: number;
  /** Answers whose task the service replayed: an earlier submission's, no new charge. */
  replayed: number;
  firstTaskId?: string;
  /** The only row, for a run of one answer. */
  last?: AnswerOutcome;
  sentInBatches: number;
  /** Answers this machine's ledger had marked that the service did not know (another account, a reset server), sent again and charged. */
  sentAgain: number;
}

export class MarkingRun {
  accepted = 0;
  /** Submissions whose connection broke after the body was sent: the service may have accepted them. */
  private maybeAccepted = 0;
  replayed = 0;
  /** Rows tied to a task kct knows exists (accepted or followed), by task: the Ctrl-C message counts and names them. */
  readonly tasked = new TaskedRows();
  /** Rows the ledger named a task for that the service did not know: charged if their new request is not a replay. */
  private readonly unknownToService = new Set<number>();
  private sentAgain = 0;
  readonly resent = new ResentTally();
  /** Answers marked before, reused: sent after all if their task turns out gone or failed (ledger only). */
  readonly reusedFromLedger = new Set<number>();
  /** Rows whose mark is another submission's (reused, or replayed by the service), until printed. */
  private readonly notCharged = new Set<number>();
  private submitSignal?: AbortSignal;
  firstTaskId?: string;
  private last?: AnswerOutcome;
  private interrupted?: unknown;
  private emitted = 0;
  private finishedRows = 0;
  private rowEmitted?: () => void;
  private readonly expected: number;
  private allEmitted?: () => void;
  /** Rows sent in place of a task that did not mark them, and retries: each under a key of its own. */
  readonly resends = new Resends();
  readonly batches: Batches;
  readonly follower: Follower;
  private readonly earlier = new EarlierTasks(this);

  constructor(readonly settings: RunSettings) {
    this.expected = settings.collection.count;
    this.batches = new Batches(this);
    this.follower = new Follower(this);
  }

  /** Sends and follows every answer the plan says to; resolves when every row is printed. */
  async run(): Promise<RunOutcome> {
    const done = new Promise<void>((resolve) => {
      this.allEmitted = resolve;
    });
    if (this.expected === 0) this.allEmitted?.();
    const { collection, context, jobs, plan } = this.settings;
    // every answer reused from the same batch is known now: the batch is followed once for all of them
    for (const [row, step] of plan.plans) if (step.kind === 'reuse' && 'batchId' in step.known) this.reuseBatchItem(row, step);
    this.batches.followReused();
    // at most --jobs answers being read, hashed and sent at once; the next is built only then
    const sending = slots(jobs);
    for (const answer of collection.answers()) {
      if (this.stopped()) break;
      const step = planOf(plan, answer.index);
      if (step.kind === 'copy' || (step.kind === 'reuse' && 'batchId' in step.known)) continue;
      await this.settings.drained?.();
      if (step.kind === 'reuse') {
        this.reuse(answer, step);
        continue;
      }
      const release = await sending.take();
      while (this.settings.wait && this.follower.pending >= (this.settings.maxPending ?? MAX_PENDING) && !this.stopped()) await this.aRow();
      if (this.stopped()) {
        release();
        break;
      }
      void this.send(answer, step.kind === 'again' ? { onePass: true, replacing: step.task } : {}).finally(release);
    }
    await sending.idle();
    if (!this.stopped()) await this.batches.sendLast();
    this.settings.sentAll?.();
    if (!this.stopped()) {
      await Promise.race([done, new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }))]);
    }
    if (this.stopped()) throw this.interruption();
    const { accepted, replayed, firstTaskId, last, sentAgain } = this;
    return { accepted, replayed, firstTaskId, last, sentInBatches: this.batches.sent, sentAgain };
  }

  private stopped(): boolean {
    return this.interrupted !== undefined || this.settings.context.signal.aborted;
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

  /** Whether the service accepted, or may have accepted, any answer of this run: then running the same command again is the way on. */
  anySent(): boolean {
    return this.accepted > 0 || this.maybeAccepted > 0;
  }

  /** What kct knows of the answers so far, copies with them (for the Ctrl-C message): each is accepted, refused, or never sent. */
  progress(): LeftWithService & { firstTaskId?: string; finished: number; notSent: number } {
    const left = this.tasked.left((row) => 1 + (this.settings.plan.copies.get(row)?.length ?? 0));
    return {
      ...left,
      firstTaskId: this.firstTaskId,
      finished: this.finishedRows,
      notSent: Math.max(0, this.expected - this.emitted - left.unprinted),
    };
  }

  /** The exit status of a finished run (docs/commands/kct.md#exit-codes). */
  throwExitStatus(): void {
    const { record, timeoutMs, markAgain } = this.settings;
    record.exit.throwExitStatus({ anySent: this.anySent(), timeoutMs, markAgain, ownKeys: this.settings.keyRule.kind === 'base' });
  }

  private interruption(): InterruptedError {
    return this.interrupted instanceof InterruptedError
      ? this.interrupted
      : new InterruptedError('interrupted', { cause: this.interrupted });
  }

  /** An answer marked before: its saved row, or its task followed (journal and ledger alike). */
  private reuse(answer: Answer, step: Extract<Plan, { kind: 'reuse' }>): void {
    const row = answer.index;
    const base = this.baseOf(row);
    const known = step.known as JournalKnown | Marked;
    this.found(row, answer);
    this.settings.record.reused(row, this.identityOf(row), step.from, markedOf(known));
    this.notCharged.add(row);
    if (step.from === 'ledger') this.reusedFromLedger.add(row);
    if ('kind' in known && known.kind === 'final') {
      const saved = this.settings.journal?.savedRow(known.slot);
      if (saved) {
        this.emit(row, outcomeFromRow(base, saved));
        return;
      }
    }
    const taskId = taskOf(known);
    if (taskId === undefined) {
      this.notCharged.delete(row);
      void this.send(answer);
      return;
    }
    this.follower.follow(taskId, row, 0);
  }

  private reuseBatchItem(row: number, step: Extract<Plan, { kind: 'reuse' }>): void {
    const known = step.known as { batchId: string; item: number };
    const answer = this.settings.collection.answerAt(row);
    if (answer) this.found(row, answer);
    this.settings.record.reused(row, this.identityOf(row), step.from, { batchId: known.batchId, item: known.item });
    this.notCharged.add(row);
    if (step.from === 'ledger') this.reusedFromLedger.add(row);
    this.tasked.add(row, known.batchId);
    this.batches.reuse(known.batchId, known.item, row);
  }

  /**
   * An answer whose mark was to be another task's, sent after all, once: a task the ledger named that the service does not know
   * (after its earlier ones: earlier-tasks.ts) or that did not mark it (FAILURE, CANCEL), or a task the service replayed, or the
   * journal named, that did not mark it (`endedAs`, its id). False otherwise.
   */
  sendAfterAll(row: number, error?: unknown, endedAs?: string): boolean {
    const derived = this.settings.keyRule.kind === 'derived'; // the caller's key would replay a failure, not replace it
    const fromLedger = this.reusedFromLedger.has(row) && ((error === undefined && derived) || error instanceof NotFoundError);
    // a replay in place of a failure may itself be one (another machine went this way): followed down the chain
    const replayed =
      endedAs !== undefined && error === undefined && this.notCharged.has(row) && derived && this.resends.mayReplace(row, endedAs);
    const answer = this.settings.collection.answerAt(row);
    if (!(fromLedger || replayed) || !answer) return false;
    if (fromLedger && error instanceof NotFoundError && this.earlier.follow(row)) return true;
    this.reusedFromLedger.delete(row);
    this.notCharged.delete(row);
    this.tasked.delete(row);
    const step = planOf(this.settings.plan, row); // under a key of its own: the same key would bring back that task
    // a task unknown here is kept: the service that knows it may be back at this address; one that did not mark
    // the answer is the latest, marked failed, and the history behind it (other servers' tasks) stays
    const ended = endedAs !== undefined ? { taskId: endedAs } : step.kind === 'reuse' ? (step.known as Marked) : undefined;
    if (fromLedger && !(error instanceof NotFoundError) && ended)
      this.settings.ledger?.accepted(this.identityOf(row), { ...ended, failed: true });
    if (step.kind === 'reuse') this.resent.add(row, answer.files.length, step.from === 'ledger');
    if (error instanceof NotFoundError) this.unknownToService.add(row);
    else err(this.settings.context.io, `kct: ${answer.label}: ${endedAs ?? 'its earlier task'} did not mark it: sent again, as a new task`);
    void this.send(answer, { onePass: true, replacing: endedAs ?? (step.kind === 'reuse' ? taskOf(step.known) : undefined) });
    return true;
  }

  /** The answer and its copies are recorded as found, so that a run stopped before their rows still names them (its journal, its report). */
  private found(row: number, answer: Answer): void {
    const { record, collection, plan } = this.settings;
    record.found(row, answer, this.identityOf(row));
    for (const copy of plan.copies.get(row) ?? []) {
      const named = collection.answerAt(copy);
      if (named) record.found(copy, named, this.identityOf(copy));
    }
  }

  identityOf(row: number): string {
    return this.settings.plan.identities.get(row);
  }

  /** Reads, keys and sends one answer (or puts it in the batch being filled); `replacing`: the task it was sent as before, that did not mark it. */
  private async send(answer: Answer, options: { onePass?: boolean; replacing?: string } = {}): Promise<void> {
    const { client, context, record } = this.settings;
    const row = answer.index;
    const base: AnswerOutcome = { file: answer.label, student_id: answer.studentId, status: 'NOT_SENT' };
    const identity = this.identityOf(row);
    const fields: OnePassFields = dropUndefined({ ...this.settings.common, paper_content: answer.text, student_id: answer.studentId });
    try {
      if (record.exit.fatal !== undefined) throw new NotSent();
      this.found(row, answer);
      if (this.settings.viaBatch && !options.onePass && (await this.batches.add(answer, fields))) return;
      const input = this.inputOf(answer, fields);
      const key = keyOf(this.settings, answer, this.identityOf(row), input, options.replacing);
      if (options.replacing) this.resends.replacing(row, options.replacing);
      const submission = await client.prepareOnePass(input, { idempotency: { key } });
      if (context.signal.aborted) throw new InterruptedError('interrupted before this answer was sent');
      record.sent(row, identity, key);
      let task: AcceptedTask;
      try {
        // Ctrl-C: a submission still waiting for its turn is not sent; one under way gets its grace
        task = await submission.send({ signal: this.submitting(), turnSignal: context.signal, patient: true });
      } catch (error) {
        throw keyConflict(this.settings.keyRule, error, answer, key);
      }
      const replayed = task.replayed === true;
      if (this.unknownToService.delete(row) && !replayed) this.sentAgain += 1;
      this.accept(task, replayed);
      if (replayed) this.notCharged.add(row);
      this.tasked.add(row, task.task_id);
      record.accepted(row, identity, { taskId: task.task_id }, task.status ?? 'QUEUED', replayed);
      this.settings.onAccepted?.(task, replayed, 1, answer.files.length);
      if (!this.settings.wait) {
        // a replay's acceptance is the stored one: its state now is read, never printed as current
        if (replayed) this.emit(row, await this.follower.currentState(base, task.task_id), answer);
        else this.emit(row, { ...base, task_id: task.task_id, status: task.status ?? 'QUEUED', result: task as EvaluationResult }, answer);
        return;
      }
      // a replay may be long finished: looked at at once
      this.follower.follow(task.task_id, row, replayed ? 0 : this.settings.firstPollIn);
    } catch (error) {
      this.failed(row, base, undefined, error);
    }
  }

  /** What one answer sends: its fields and files, with the rubric and question files every answer shares. */
  inputOf(answer: Answer, fields: OnePassFields): OnePassInput {
    return { fields, answerFiles: answer.files, rubricFiles: this.settings.rubricFiles, questionFiles: this.settings.questionFiles };
  }

  baseOf(row: number, known?: Answer): AnswerOutcome {
    const answer = known ?? this.settings.collection.answerAt(row);
    return { file: answer?.label ?? `answer ${row + 1}`, student_id: answer?.studentId, status: 'ERROR' };
  }

  accept(task: Task, replayed = false, answers = 1): void {
    this.accepted += answers;
    if (replayed) this.replayed += answers;
    this.firstTaskId ??= task.task_id;
  }

  /** Turns an error into the answer's row, or stops the run (Ctrl-C, a bug). */
  failed(row: number, base: AnswerOutcome, found: string | undefined, error: unknown): void {
    const { record } = this.settings;
    if (error instanceof InterruptedError || this.settings.context.signal.aborted) {
      this.interrupted ??= error;
      return;
    }
    // a task marked before that the service will not show this key (401, 403) is not this run's to claim: never sent, no replay
    const refused =
      (error instanceof AuthenticationError || error instanceof PermissionError) && planOf(this.settings.plan, row).kind === 'reuse';
    if (refused) this.notCharged.delete(row);
    const taskId = refused ? undefined : found;
    if (error instanceof NotSent) {
      this.emit(row, { ...base, message: `not sent: the run stopped after ${(record.exit.fatal as Error).message}` });
      return;
    }
    if (error instanceof ConnectionError && error.maybeDelivered && taskId === undefined) this.maybeAccepted += 1;
    const status = taskId ? 'ERROR' : 'NOT_SENT';
    // a bug: exit 1, after what was already printed
    if (!(error instanceof KctError) && !isLocalFileError(error)) {
      record.exit.firstError ??= error;
      this.emit(row, { ...base, task_id: taskId, status, message: (error as Error).message ?? String(error) });
      return;
    }
    if (stopsTheRun(error) && record.exit.fatal === undefined) record.exit.fatal = error;
    if (record.exit.fatal !== error) record.exit.firstError ??= error;
    this.emit(row, { ...base, task_id: taskId, status, message: (error as Error).message, error });
  }

  /** The signal of a submission: Ctrl-C lets one already under way finish (graceAfter), so a task the service accepted is counted. */
  submitting(): AbortSignal {
    this.submitSignal ??= graceAfter(this.settings.context.signal, SUBMIT_GRACE_MS);
    return this.submitSignal;
  }

  /**
   * One answer's row, and its copies' (the same identity, their own labels): recorded, and from the
   * record printed, reported and counted. Identical answers each name another in duplicate_of.
   */
  emit(row: number, found: AnswerOutcome, answerOfRow?: Answer): void {
    const { collection, plan, record } = this.settings;
    const copies = plan.copies.get(row) ?? [];
    const named = (at: number, outcome: AnswerOutcome, known?: Answer) => namedRow(collection, at, outcome, known);
    const replayed = this.notCharged.delete(row);
    const twin = copies[0] ?? plan.twins.get(row);
    const outcome = named(
      row,
      {
        ...found,
        ...(replayed ? { replayed: true } : {}),
        ...(twin !== undefined ? { duplicate_of: collection.answerAt(twin)?.label } : {}),
      },
      answerOfRow,
    );
    this.tasked.printed(row, outcome, 1 + copies.length);
    this.reusedFromLedger.delete(row);
    this.earlier.settled(row, outcome);
    if (this.settings.single) this.last = outcome;
    record.final(row, this.identityOf(row), outcome);
    for (const copy of copies) {
      const answer = collection.answerAt(copy);
      // its name is recorded too: a copy edited before the next --resume run is said to have changed
      if (answer) record.found(copy, answer, this.identityOf(copy));
      const own = copyOutcome(found, { file: answer?.label ?? found.file, student_id: answer?.studentId }, outcome.file);
      record.final(copy, this.identityOf(copy), named(copy, own, answer));
    }
    this.emitted += 1 + copies.length;
    if (isFinalStatus(outcome.status)) this.finishedRows += 1 + copies.length;
    this.rowEmitted?.();
    if (this.emitted >= this.expected) this.allEmitted?.();
  }
}
