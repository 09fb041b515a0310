// The class run's CSV: a row per answer as it finishes, under a header whose criterion columns come
// from the first marked answer (rows before it wait for it: a few hundred in memory, more on disk).
// A batch's rows, which may be marked on several models, wait for the end: its header has every row's criteria.
import type { IO } from '../core/io.js';
import { outRaw } from '../core/io.js';
import type { AnswerOutcome } from './outcome.js';
import { RowSpool } from './row-spool.js';
import { CSV_OPTIONS, cell } from './rows.js';

/** CSV rows kept in memory while waiting for the first marked answer (which gives the columns); more wait on disk. */
const CSV_PENDING_IN_MEMORY = 500;

export class ClassCsv {
  private header?: string[];
  private pending: CsvRow[] = [];
  private spill?: RowSpool;
  private spilled = 0;
  private stringify?: (rows: unknown[][]) => string;
  /** With `severalModels`: every criterion of the rows so far, in the order first met. */
  private readonly criteria = new Set<string>();

  constructor(
    private readonly io: IO,
    /** The rows name their students (a learning platform's download): a last column, student_name. */
    private readonly studentNames: boolean,
    /** The rows may be marked on several rubrics (a batch's items may name their model): the header waits for them all. */
    private readonly severalModels = false,
  ) {}

  /** With --no-wait no answer is marked: the columns are known at once. */
  async init(waited: boolean): Promise<void> {
    const { stringify } = await import('csv-stringify/sync');
    // A student id or criterion name that begins like a formula (=, +, -, @) is prefixed with '
    // so a spreadsheet opening marks.csv shows it instead of running it (CSV injection).
    this.stringify = (rows) => stringify(rows, CSV_OPTIONS);
    if (!waited) this.writeHeader([]);
  }

  add(outcome: AnswerOutcome): void {
    const scores = (outcome.evaluation ?? []).filter((e) => e.type !== 'error').map((e): [string, unknown] => [e.item as string, e.score]);
    const row: CsvRow = {
      file: outcome.file,
      student_id: outcome.student_id ?? '',
      task_id: outcome.task_id ?? '',
      status: outcome.status,
      score: outcome.score,
      max_score: outcome.max_score,
      message: outcome.message ?? '',
      duplicate_of: outcome.duplicate_of ?? '',
      student_name: outcome.student_name ?? '',
      scores,
    };
    if (this.header) {
      this.writeRows([row]);
      return;
    }
    if (this.severalModels) for (const [item] of scores) if (item) this.criteria.add(item);
    // The criterion columns come from the first marked answer: rows before it wait for it.
    if (outcome.status === 'SUCCESS' && !this.severalModels) {
      this.writeHeader(scores.filter(([item]) => item).map(([item]) => item));
      this.flush(false);
      this.writeRows([row]);
      return;
    }
    if (this.pending.length < CSV_PENDING_IN_MEMORY) {
      this.pending.push(row);
      return;
    }
    this.spill ??= new RowSpool(0);
    this.spill.put(this.spilled++, JSON.stringify(row));
  }

  private writeHeader(criteria: string[]): void {
    this.header = criteria;
    // max_score, message and duplicate_of go last, after the criteria, so the columns scripts already read stay where they were
    // student_name, for a learning platform's download only, after them all
    outRaw(
      this.io,
      this.stringify!([
        [
          'file',
          'student_id',
          'task_id',
          'status',
          'score',
          ...criteria,
          'max_score',
          'message',
          'duplicate_of',
          ...(this.studentNames ? ['student_name'] : []),
        ],
      ]),
    );
  }

  /** Prints the rows held for the header; `final`: the run is over, so a header is printed even with no marked answer. */
  flush(final: boolean): void {
    if (!this.header) {
      if (!final) return;
      this.writeHeader([...this.criteria]);
    }
    this.writeRows(this.pending);
    this.pending = [];
    if (this.spill) {
      for (const line of this.spill.all()) this.writeRows([JSON.parse(line)]);
      this.spill.discard();
      this.spill = undefined;
    }
  }

  private writeRows(rows: CsvRow[]): void {
    if (rows.length === 0) return;
    const criteria = this.header!;
    const lines = rows.map((o) => {
      const byItem = new Map(o.scores);
      return [
        o.file,
        o.student_id,
        o.task_id,
        o.status,
        cell(o.score),
        ...criteria.map((item) => cell(byItem.get(item))),
        cell(o.max_score),
        o.message ?? '',
        o.duplicate_of ?? '',
        ...(this.studentNames ? [o.student_name ?? ''] : []),
      ];
    });
    outRaw(this.io, this.stringify!(lines));
  }

  /** Removes the rows held on disk (also when the run is interrupted). */
  discard(): void {
    this.spill?.discard();
  }
}

/** One CSV row, kept until the header (the first marked answer's criteria) is known. */
interface CsvRow {
  file: string;
  student_id: string;
  task_id: string;
  status: string;
  score: unknown;
  max_score?: unknown;
  message?: string;
  duplicate_of?: string;
  student_name?: string;
  scores: [string, unknown][];
}
