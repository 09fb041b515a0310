// Output of a run over many answers, in memory that does not grow with their number. NDJSON
// and CSV stream a line per answer as it finishes (in the order answers finish); `--json` streams
// one array in the order the answers were found, each row printed as soon as the rows before it
// are (rows that finish early wait on disk, RowSpool); the table comes at the end, read back from
// disk in the order found. The summary keeps figures, not rows (ClassTally), and the list of
// answers not marked keeps the first hundred. stdout holds only results: with a machine format,
// the summary goes to stderr.
import { once } from 'node:events';
import type { EvaluationEntry, EvaluationResult } from '../../api/schemas.js';
import { statusOf } from '../../api/status.js';
import type { LeftOutCounts } from '../answers/answers.js';
import { err, type IO, out, outRaw, safeText } from '../core/io.js';
import { fitColumns, keepEnd, keepStart } from './fit.js';
import { markedBy, printResult } from './result.js';
import { RowSpool } from './row-spool.js';
import { CSV_OPTIONS, cell, displayWidth, type OutputFormat, renderTableInChunks } from './rows.js';
import { formatNumber, statusColor } from './style.js';
import { renderSummary } from './summary.js';
import { ClassTally } from './tally.js';

export interface AnswerOutcome {
  file: string;
  student_id?: string;
  /** The student's name, when a learning platform's download gives one (student_id is then the platform's participant id). */
  student_name?: string;
  task_id?: string;
  /** Task status, or ERROR when it was never accepted / could not be followed. */
  status: string;
  score?: number | null;
  max_score?: number | null;
  /** What the service charged (from the result record, or a saved row). */
  credits_charged?: number | null;
  evaluation?: EvaluationEntry[] | null;
  /** Why it failed or was not sent. */
  message?: string;
  /** The first answer of the run with the very same content (every byte), when this one has it too. */
  duplicate_of?: string;
  /** The task is an earlier submission's (the service replayed it, or this machine sent it before): no new charge. */
  replayed?: boolean;
  /** Who marked it, when the result says (the sandbox does: its offline grader, or a language model). */
  graded_by?: string;
  result?: EvaluationResult;
  /** The error behind an ERROR / NOT_SENT outcome (not printed as such). */
  error?: unknown;
}

/** An answer's outcome from its result record. */
export function outcomeFromResult(base: AnswerOutcome, result: EvaluationResult): AnswerOutcome {
  const errorEntry = (result.evaluation ?? []).find((entry) => entry.type === 'error');
  return {
    ...base,
    task_id: result.task_id || undefined,
    status: statusOf(result),
    score: result.score,
    max_score: result.max_score,
    evaluation: result.evaluation,
    message: errorEntry?.comment ?? undefined,
    ...(typeof result.graded_by === 'string' && result.graded_by.trim() !== '' ? { graded_by: result.graded_by } : {}),
    result,
  };
}

export interface WriterOptions {
  /** How many rows the run prints (rows are numbered 0 to rows - 1 in the order answers were found). */
  rows?: number;
  /** False for --no-wait: nothing is marked yet, so no summary, and CSV has no criterion columns. */
  waited?: boolean;
  /** What the run found and left out without a row, for the summary's "Not sent" line. */
  leftOut?: LeftOutCounts;
  /** The rows name their students (a learning platform's download): CSV gets a last column, student_name. */
  studentNames?: boolean;
  /** --json is one object, the rows under "rows" and what finish() is given beside them, instead of the array of rows. */
  envelope?: boolean;
  /** The run's own tally (run/record.ts): the summary prints its figures, not a count of its own. */
  tally?: ClassTally;
}

/** Statuses of rows found and not sent: a file that cannot be sent, a student folder with nothing, a subfolder not entered. */
const UNSENT_STATUSES: ReadonlySet<string> = new Set(['SKIPPED', 'EMPTY', 'NOT_ENTERED']);

/** How many answers not marked are listed by name at the end (all are in the rows). */
const LISTED_PROBLEMS = 100;
/** CSV rows kept in memory while waiting for the first marked answer (which gives the columns); more wait on disk. */
const CSV_PENDING_IN_MEMORY = 500;

export class OutcomeWriter {
  private readonly tally: ClassTally;
  private readonly sharedTally: boolean;
  /** Who marked the results, as their records say (the sandbox names its grader). */
  private readonly gradedBy = new Set<string>();
  private readonly waited: boolean;
  private readonly leftOut?: LeftOutCounts;
  private readonly studentNames: boolean;
  private readonly envelope: boolean;
  private added = 0;
  /** Rows of things found and not sent (SKIPPED, EMPTY, NOT_ENTERED). */
  private unsent = 0;
  private accepted = 0;
  /** The first answers not marked, by row (a few, never all). */
  private problems: { index: number; line: string }[] = [];
  private problemCount = 0;
  private spool?: RowSpool;
  private jsonRows = 0;
  private csvHeader?: string[];
  private csvPending: CsvRow[] = [];
  private csvSpill?: RowSpool;
  private csvSpilled = 0;
  private stringify?: (rows: unknown[][]) => string;
  /** Display width of a cell, as the table measures it (wide characters count double). */
  private strlen?: (text: string) => number;
  private readonly table = { widths: [0, 0, 0, 0, 0], folder: undefined as string[] | undefined, flat: false };

  constructor(
    private readonly io: IO,
    private readonly format: OutputFormat,
    options: WriterOptions = {},
  ) {
    this.waited = options.waited !== false;
    this.tally = options.tally ?? new ClassTally();
    this.sharedTally = options.tally !== undefined;
    this.leftOut = options.leftOut;
    this.studentNames = options.studentNames === true;
    this.envelope = options.envelope === true && format === 'json';
    if (format === 'json' || format === 'table') this.spool = new RowSpool(options.rows ?? 0);
  }

  async init(): Promise<void> {
    if (this.format === 'csv') {
      const { stringify } = await import('csv-stringify/sync');
      // A student id or criterion name that begins like a formula (=, +, -, @) is prefixed with '
      // so a spreadsheet opening marks.csv shows it instead of running it (CSV injection).
      this.stringify = (rows) => stringify(rows, CSV_OPTIONS);
      // with --no-wait no answer is marked: the columns are known now
      if (!this.waited) this.writeCsvHeader([]);
    }
    if (this.format === 'table') this.strlen = await displayWidth();
  }

  /** Rows printed (or kept to print) so far. */
  get count(): number {
    return this.added;
  }

  /** One answer's row; `index` is its row in the order found (default: the order rows are added). */
  add(outcome: AnswerOutcome, index: number = this.added): void {
    this.added += 1;
    if (UNSENT_STATUSES.has(outcome.status)) this.unsent += 1;
    if (outcome.task_id && outcome.status !== 'ERROR' && outcome.status !== 'NOT_SENT') this.accepted += 1;
    if (!this.sharedTally)
      this.tally.add({
        file: outcome.file,
        duplicateOf: outcome.duplicate_of,
        status: outcome.status,
        score: outcome.score,
        maxScore: outcome.max_score,
        evaluation: outcome.evaluation,
        creditsCharged: creditsOf(outcome),
        replayed: outcome.replayed,
      });
    if (outcome.graded_by) this.gradedBy.add(outcome.graded_by);
    const refused = !outcome.task_id || outcome.status === 'ERROR' || outcome.status === 'NOT_SENT';
    if (this.waited ? outcome.status !== 'SUCCESS' : refused) this.noteProblem(index, outcome);
    if (this.format === 'ndjson') out(this.io, JSON.stringify(ndjsonRow(outcome)));
    else if (this.format === 'csv') this.addCsv(outcome);
    else if (this.format === 'json') this.addJson(index, outcome);
    else if (this.format === 'table') this.addTableRow(index, outcome);
  }

  /** A row that will never be added (it was printed elsewhere) no longer holds back those after it. */
  skip(index: number): void {
    if (this.format === 'json') for (const row of this.spool!.skip(index)) this.writeJsonRow(row);
    else this.spool?.skip(index);
  }

  /** Resolves when stdout can take more (a slow reader of a pipe must not make kct buffer rows). */
  async drained(): Promise<void> {
    const stdout = this.io.stdout as NodeJS.WritableStream & { writableNeedDrain?: boolean };
    if (stdout.writableNeedDrain) await once(stdout, 'drain');
  }

  /** Ends the CSV (a header even when no row was marked); for a single record, no summary. */
  flush(): void {
    if (this.format === 'csv') this.flushCsv(true);
  }

  /**
   * Prints what comes at the end: the rest of the array, the table, the summary and what was not
   * marked. `beside`: with `envelope`, what --json's object holds beside the rows (the import report).
   */
  async finish(beside?: Record<string, unknown>): Promise<void> {
    try {
      if (this.format === 'csv') this.flushCsv(true);
      if (this.format === 'json' && !this.envelope) outRaw(this.io, this.jsonRows === 0 ? '[]\n' : '\n]\n');
      if (this.envelope) {
        // as JSON.stringify({ rows, ...beside }, null, 2) would print it, the rows already out
        const more = Object.entries(beside ?? {})
          .map(([key, value]) => `,\n  ${JSON.stringify(key)}: ${JSON.stringify(value, null, 2).replaceAll('\n', '\n  ')}`)
          .join('');
        outRaw(this.io, `${this.jsonRows === 0 ? '{\n  "rows": []' : '\n  ]'}${more}\n}\n`);
      }
      if (this.format === 'table') await this.printTable();
    } finally {
      this.discard();
    }
    const problems = this.problems.sort((a, b) => a.index - b.index).slice(0, LISTED_PROBLEMS);
    const more = this.problemCount - problems.length;
    const andMore = more > 0 ? [`  ... and ${more} more (every one is in the rows, with its status and message)`] : [];
    if (!this.waited) {
      // --no-wait: nothing was meant to be marked yet; say what was accepted, list what was not
      (this.format === 'table' ? out : err)(
        this.io,
        `Submitted: ${this.accepted} of ${this.added - this.unsent} answers accepted; follow them with kct status <task_id> --watch`,
      );
      for (const problem of [...problems.map((p) => p.line), ...andMore]) err(this.io, problem);
      this.printDuplicates();
      return;
    }
    const summary = renderSummary(this.tally.summary(), {
      unicode: this.format === 'table' ? this.io.stdoutIsTTY : this.io.stderrIsTTY,
      leftOut: this.leftOut,
    });
    for (const line of summary) (this.format === 'table' ? out : err)(this.io, line);
    const by = markedBy([...this.gradedBy]);
    if (by && this.format === 'table') out(this.io, safeText(this.io, by));
    if (this.problemCount > 0) {
      err(this.io, `Not marked (${this.problemCount}):`);
      for (const line of [...problems.map((p) => p.line), ...andMore]) err(this.io, line);
    }
    this.printDuplicates();
  }

  /** Answers with the very same bytes as another: copied work, or a file handed in twice. */
  private printDuplicates(): void {
    const { count, pairs } = this.tally.summary().identical;
    if (count === 0) return;
    err(this.io, `Identical answers (${count}; every byte the same, duplicate_of in the rows):`);
    for (const [file, other] of pairs) err(this.io, `  ${safeText(this.io, file, 'stderr')} = ${safeText(this.io, other, 'stderr')}`);
    if (count > pairs.length) err(this.io, `  ... and ${count - pairs.length} more`);
  }

  /** Removes the temporary files (also when the run is interrupted). */
  discard(): void {
    this.spool?.discard();
    this.csvSpill?.discard();
  }

  private noteProblem(index: number, o: AnswerOutcome): void {
    this.problemCount += 1;
    this.problems.push({ index, line: `  ${o.file}: ${o.status}${o.message ? ` — ${safeText(this.io, o.message, 'stderr')}` : ''}` });
    // keep the first hundred by row, whatever order they come in
    if (this.problems.length >= 2 * LISTED_PROBLEMS)
      this.problems = this.problems.sort((a, b) => a.index - b.index).slice(0, LISTED_PROBLEMS);
  }

  private addJson(index: number, outcome: AnswerOutcome): void {
    for (const row of this.spool!.arrive(index, JSON.stringify(ndjsonRow(outcome), null, 2))) this.writeJsonRow(row);
  }

  /** Rows of the one array, as JSON.stringify(rows, null, 2) would print them, one at a time. */
  private writeJsonRow(row: string): void {
    if (this.envelope) outRaw(this.io, `${this.jsonRows === 0 ? '{\n  "rows": [\n' : ',\n'}    ${row.replaceAll('\n', '\n    ')}`);
    else outRaw(this.io, `${this.jsonRows === 0 ? '[\n' : ',\n'}  ${row.replaceAll('\n', '\n  ')}`);
    this.jsonRows += 1;
  }

  private addTableRow(index: number, o: AnswerOutcome): void {
    const cells = [
      safeText(this.io, o.file),
      safeText(this.io, o.student_id ?? ''),
      o.task_id ?? '',
      o.status,
      o.score === undefined || o.score === null
        ? ''
        : `${formatNumber(o.score)}${typeof o.max_score === 'number' ? ` / ${formatNumber(o.max_score)}` : ''}`,
    ];
    this.spool!.put(index, JSON.stringify(cells));
    cells.forEach((text, i) => {
      this.table.widths[i] = Math.max(this.table.widths[i], this.strlen!(text));
    });
    this.table.folder = commonFolder(this.table.folder, cells[0], this.table.flat);
    if (this.table.folder === undefined) this.table.flat = true;
  }

  private async printTable(): Promise<void> {
    // The folder all files share is said once above the table. On a terminal the table fits its
    // width: the task ids go first (every other format has them), then the wider of path and
    // student is cut (a path from the left, keeping the end that names the file); piped, every cell is whole.
    const shared = this.table.folder?.join('') ?? '';
    const folder = shared === '' || shared === '/' || shared === './' ? '' : shared;
    const strlen = this.strlen!;
    const head = ['File', 'Student', 'Task', 'Status', 'Score'];
    const natural = this.table.widths.map((width, i) => Math.max(width - (i === 0 ? strlen(folder) : 0), head[i].length));
    const fit = this.io.stdoutIsTTY
      ? fitColumns(natural, this.io.columns, { dropFirst: [2], shrink: [0, 1], least: 12 })
      : { shown: [0, 1, 2, 3, 4], widths: natural, dropped: [] };
    const rows = (function* (spool: RowSpool, io: IO) {
      for (const line of spool.all()) {
        const cells = JSON.parse(line) as string[];
        cells[0] = cells[0].slice(folder.length);
        yield fit.shown.map((i, at) =>
          i === 0
            ? keepEnd(cells[0], fit.widths[at], strlen)
            : i === 1
              ? keepStart(cells[1], fit.widths[at], strlen)
              : i === 3
                ? statusColor(io, cells[3])
                : cells[i],
        );
      }
    })(this.spool!, this.io);
    if (folder) out(this.io, `Files in ${safeText(this.io, folder)}`);
    await renderTableInChunks(
      this.io,
      fit.shown.map((i) => head[i]),
      fit.widths,
      rows,
      (text) => outRaw(this.io, text),
    );
    if (fit.dropped.includes(2)) out(this.io, '(task ids left out to fit the terminal: --output csv or ndjson has them)');
  }

  private addCsv(outcome: AnswerOutcome): void {
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
    if (this.csvHeader) {
      this.writeCsvRows([row]);
      return;
    }
    // The criterion columns come from the first marked answer: rows before it wait for it.
    if (outcome.status === 'SUCCESS') {
      this.writeCsvHeader(scores.filter(([item]) => item).map(([item]) => item));
      this.flushCsv(false);
      this.writeCsvRows([row]);
      return;
    }
    if (this.csvPending.length < CSV_PENDING_IN_MEMORY) {
      this.csvPending.push(row);
      return;
    }
    this.csvSpill ??= new RowSpool(0);
    this.csvSpill.put(this.csvSpilled++, JSON.stringify(row));
  }

  private writeCsvHeader(criteria: string[]): void {
    this.csvHeader = criteria;
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

  private flushCsv(final: boolean): void {
    if (!this.csvHeader) {
      if (!final) return;
      this.writeCsvHeader([]);
    }
    this.writeCsvRows(this.csvPending);
    this.csvPending = [];
    if (this.csvSpill) {
      for (const line of this.csvSpill.all()) this.writeCsvRows([JSON.parse(line)]);
      this.csvSpill.discard();
      this.csvSpill = undefined;
    }
  }

  private writeCsvRows(rows: CsvRow[]): void {
    if (rows.length === 0) return;
    const criteria = this.csvHeader!;
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

/** The folder segments every path so far shares (never a file name), or undefined when none can be. */
function commonFolder(shared: string[] | undefined, path: string, flat: boolean): string[] | undefined {
  if (flat) return undefined;
  const parts = path.split(/(?<=[/\\])/).slice(0, -1); // keep each separator on its segment; never the file name
  if (parts.length === 0) return undefined;
  if (shared === undefined) return parts;
  let same = 0;
  while (same < shared.length && same < parts.length && shared[same] === parts[same]) same += 1;
  return same === 0 ? undefined : shared.slice(0, same);
}

/** The credits charged for an answer: its row's, else its result record's, else unknown (null). */
function creditsOf(outcome: AnswerOutcome): number | null {
  if (typeof outcome.credits_charged === 'number') return outcome.credits_charged;
  return typeof outcome.result?.credits_charged === 'number' ? outcome.result.credits_charged : null;
}

/** The row of an answer in every machine format (docs/guides/marking-a-class.md, "Output shapes"). */
export function ndjsonRow(outcome: AnswerOutcome): Record<string, unknown> {
  return {
    file: outcome.file === '' ? null : outcome.file, // a task read back by id (kct result) has no file
    student_id: outcome.student_id ?? null,
    ...(outcome.student_name ? { student_name: outcome.student_name } : {}),
    task_id: outcome.task_id ?? null,
    status: outcome.status,
    score: outcome.score ?? null,
    max_score: outcome.max_score ?? null,
    credits_charged: creditsOf(outcome),
    ...(outcome.message ? { message: outcome.message } : {}),
    ...(outcome.duplicate_of ? { duplicate_of: outcome.duplicate_of } : {}),
    ...(outcome.replayed ? { replayed: true } : {}),
    ...(outcome.graded_by ? { graded_by: outcome.graded_by } : {}),
    evaluation: outcome.evaluation ?? null,
  };
}

/**
 * One finished task in the chosen format: the score table, the record as received (json), or
 * the same line/row a class run prints (ndjson, csv), so pipelines see one shape.
 */
export async function printOneResult(io: IO, format: OutputFormat, result: EvaluationResult, label = ''): Promise<void> {
  if (format === 'table') {
    await printResult(io, result);
    return;
  }
  if (format === 'json') {
    out(io, JSON.stringify(result, null, 2));
    return;
  }
  const studentId = typeof result.student_id === 'string' ? result.student_id : undefined;
  const writer = new OutcomeWriter(io, format);
  await writer.init();
  writer.add(outcomeFromResult({ file: label, student_id: studentId, status: 'UNKNOWN' }, result));
  writer.flush();
}
