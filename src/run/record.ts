// A marking run is one record: an append-only sequence of events per input (found, unsent, sent,
// accepted, reused, final). The --resume journal is that record on disk (journal.ts); this machine's
// ledger indexes its identities across runs (ledger.ts), from the same events: each task accepted,
// and each that ended without marking its answer (FAILURE, CANCEL: the next run sends it again). Every output is a view of the record: the
// rows (table, CSV, NDJSON, JSON), the summary, the class report, the progress line and the exit
// status all read the final rows it hands out and the one tally it keeps, so their counts cannot
// disagree.

import { isUnsuccessfulFinal } from '../api/status.js';
import { type AnswerOutcome, ndjsonRow } from '../cli/render/outcome.js';
import { ClassTally } from '../cli/render/tally.js';
import { ExitTally } from './exit-tally.js';
import type { Journal } from './journal.js';
import type { Ledger, Marked } from './ledger.js';

/** A view of the run: told every final row, in the order rows end, with its place in the run and its printed form (ndjsonRow). */
export interface RecordView {
  row(outcome: AnswerOutcome, index: number, printed: Record<string, unknown>): void;
}

export class RunRecord {
  /** The run's figures: every count a view prints comes from here. */
  readonly tally = new ClassTally();
  /** What the exit status is made of. */
  readonly exit = new ExitTally();
  private readonly views: RecordView[] = [];
  private ended = 0;

  constructor(
    private readonly journal?: Journal,
    private readonly ledger?: Ledger,
  ) {}

  /** Adds a view; views are told rows in the order they were added. */
  view(view: RecordView | undefined): void {
    if (view) this.views.push(view);
  }

  /** Rows ended so far. */
  get rowsEnded(): number {
    return this.ended;
  }

  begin(rows: number): void {
    this.journal?.write({ e: 'run', at: now(), rows });
  }

  found(row: number, answer: { label: string; studentId?: string }, identity: string): void {
    this.journal?.write({
      e: 'found',
      row,
      answer: answer.label,
      identity,
      ...(answer.studentId !== undefined ? { student_id: answer.studentId } : {}),
    });
  }

  sent(row: number, identity: string, key: string | undefined): void {
    this.journal?.write({ e: 'sent', row, identity, ...(key !== undefined ? { key } : {}) });
  }

  accepted(row: number, identity: string, marked: Marked, status: string, replayed: boolean): void {
    const where = 'taskId' in marked ? { task_id: marked.taskId } : { batch_id: marked.batchId, item: marked.item };
    this.journal?.write({ e: 'accepted', row, identity, ...where, status, ...(replayed ? { replayed: true } : {}) });
    this.ledger?.accepted(identity, marked);
  }

  /** An earlier mark reused, named as `accepted` names one: its task, or its batch and item (never the batch as a task). */
  reused(row: number, identity: string, from: string, marked?: Marked): void {
    const where =
      marked === undefined ? {} : 'taskId' in marked ? { task_id: marked.taskId } : { batch_id: marked.batchId, item: marked.item };
    this.journal?.write({ e: 'reused', row, identity, from, ...where });
  }

  /**
   * The row of one input: recorded (its printed row last on the line), counted, and handed to every
   * view. `outcome.copy`: the row is another's copy (its identity's first row was sent or reused):
   * both name each other in duplicate_of, so only the run knows which one it sent.
   */
  final(row: number, identity: string | undefined, outcome: AnswerOutcome): void {
    const copy = outcome.copy === true;
    const printed = ndjsonRow(outcome);
    if (identity === undefined || identity === '')
      this.journal?.write({ e: 'unsent', row, answer: outcome.file, status: outcome.status, reason: outcome.message ?? '', out: printed });
    else
      this.journal?.write({
        e: 'final',
        row,
        identity,
        task_id: outcome.task_id ?? null,
        status: outcome.status,
        at: now(),
        ...(copy ? { copy: true } : {}),
        out: printed,
      });
    if (!copy && identity && outcome.task_id && isUnsuccessfulFinal(outcome.status))
      this.ledger?.accepted(identity, { taskId: outcome.task_id, failed: true });
    this.tally.add({
      status: outcome.status,
      score: outcome.score,
      maxScore: outcome.max_score,
      evaluation: outcome.evaluation,
      creditsCharged: printed.credits_charged as number | null,
      replayed: outcome.replayed,
      copy,
      file: outcome.file,
      duplicateOf: outcome.duplicate_of,
    });
    this.exit.count(outcome);
    this.ended += 1;
    for (const view of this.views) view.row(outcome, row, printed);
  }
}

const now = () => new Date().toISOString();
