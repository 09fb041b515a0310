// The rows of a run over many answers, in memory that does not grow with their number. NDJSON and
// CSV stream a line per answer as it finishes (in the order answers finish; class-csv.ts); `--json`
// streams one array in the order the answers were found, each row printed as soon as the rows before
// it are (rows that finish early wait on disk, RowSpool); the table comes at the end, read back from
// disk in the order found (class-table.ts). The summary prints the figures of the run's tally, and
// the list of answers not marked keeps the first hundred. stdout holds only results: with a machine
// format, the summary goes to stderr.
import { once } from 'node:events';
import type { EvaluationResult } from '../../api/schemas.js';
import { isMarked } from '../../api/status.js';
import type { LeftOutCounts } from '../answers/answers.js';
import { err, type IO, notice, out, outRaw, safeText } from '../core/io.js';
import { ClassCsv } from './class-csv.js';
import { ClassTable } from './class-table.js';
import type { OutputFormat } from './format.js';
import { type AnswerOutcome, creditsOf, isUnsentRow, ndjsonRow, outcomeFromResult } from './outcome.js';
import { markedBy, printResult } from './result.js';
import { RowSpool } from './row-spool.js';
import { answersOf, notMarkedOf, renderSummary, type Summary, unsentRowsOf, withoutMarkHeading } from './summary.js';
import { ClassTally } from './tally.js';

export interface WriterOptions {
  /** How many rows the run prints (rows are numbered 0 to rows - 1 in the order answers were found). */
  rows?: number;
  /** False for --no-wait: nothing is marked yet, so no summary, and CSV has no criterion columns. */
  waited?: boolean;
  /** What the run found and left out without a row, for the summary's "Not sent" line. */
  leftOut?: LeftOutCounts;
  /** The rows name their students (a learning platform's download): CSV gets a last column, student_name. */
  studentNames?: boolean;
  /** The run's own tally (run/record.ts): the summary prints its figures, not a count of its own. */
  tally?: ClassTally;
  /** The rows may be marked on several models (a batch's items may name theirs): CSV's header waits for every row. */
  severalModels?: boolean;
}

/** How many answers not marked are listed by name at the end (all are in the rows). */
const LISTED_PROBLEMS = 100;

export class OutcomeWriter {
  private readonly tally: ClassTally;
  private readonly sharedTally: boolean;
  /** Who marked the results, as their records say (the sandbox names its grader). */
  private readonly gradedBy = new Set<string>();
  private readonly waited: boolean;
  private readonly leftOut?: LeftOutCounts;
  private added = 0;
  /** Rows of things found and not sent (SKIPPED, EMPTY, NOT_ENTERED). */
  private unsent = 0;
  private accepted = 0;
  /** Of those, the answers sent before (a replay, a reuse or a copy): this run did not submit them. */
  private sentBefore = 0;
  /** The first answers not marked, by row (a few, never all). */
  private readonly problems = new FirstRows();
  /** The first answers marked with a note in their row (a file of theirs not sent, say): a mark to check. */
  private readonly noted = new FirstRows();
  /** --json: rows held until those found before them are printed. */
  private spool?: RowSpool;
  private jsonRows = 0;
  /** stop() was called: rows added after it are not printed. */
  private stopped = false;
  private readonly csv?: ClassCsv;
  private readonly table?: ClassTable;

  constructor(
    private readonly io: IO,
    private readonly format: OutputFormat,
    options: WriterOptions = {},
  ) {
    this.waited = options.waited !== false;
    this.tally = options.tally ?? new ClassTally();
    this.sharedTally = options.tally !== undefined;
    this.leftOut = options.leftOut;
    if (format === 'json') this.spool = new RowSpool(options.rows ?? 0);
    if (format === 'table') this.table = new ClassTable(io, options.rows ?? 0);
    if (format === 'csv') this.csv = new ClassCsv(io, options.studentNames === true, options.severalModels === true);
  }

  async init(): Promise<void> {
    await this.csv?.init(this.waited);
    await this.table?.init();
  }

  /** Rows printed (or kept to print) so far. */
  get count(): number {
    return this.added;
  }

  /**
   * One answer's row; `index` is its row in the order found (default: the order rows are added);
   * `printed`, its NDJSON row when the run's record already made it (record.ts).
   */
  add(outcome: AnswerOutcome, index: number = this.added, printed?: Record<string, unknown>): void {
    if (this.stopped) return; // the output is closed (stop): a row ending after it would follow the closing bracket
    this.added += 1;
    if (isUnsentRow(outcome.status)) this.unsent += 1;
    if (outcome.task_id && outcome.status !== 'ERROR' && outcome.status !== 'NOT_SENT') {
      this.accepted += 1;
      if (outcome.replayed) this.sentBefore += 1;
    }
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
        copy: outcome.copy,
      });
    if (outcome.graded_by) this.gradedBy.add(outcome.graded_by);
    const refused = !outcome.task_id || outcome.status === 'ERROR' || outcome.status === 'NOT_SENT';
    if (this.waited ? !isMarked(outcome) : refused) this.problems.add(index, outcome, this.io);
    else if (outcome.status === 'SUCCESS' && outcome.message) this.noted.add(index, outcome, this.io);
    if (this.format === 'ndjson') out(this.io, JSON.stringify(printed ?? ndjsonRow(outcome)));
    else if (this.format === 'json') this.addJson(index, printed ?? ndjsonRow(outcome));
    this.csv?.add(outcome);
    this.table?.add(index, outcome);
  }

  /** A row that will never be added (it was printed elsewhere) no longer holds back those after it. */
  skip(index: number): void {
    if (this.spool) for (const row of this.spool.skip(index)) this.writeJsonRow(row);
    this.table?.skip(index);
  }

  /** Resolves when stdout can take more (a slow reader of a pipe must not make kct buffer rows). */
  async drained(): Promise<void> {
    const stdout = this.io.stdout as NodeJS.WritableStream & { writableNeedDrain?: boolean };
    if (stdout.writableNeedDrain) await once(stdout, 'drain');
  }

  /** Ends the CSV (a header even when no row was marked); for a single record, no summary. */
  flush(): void {
    this.csv?.flush(true);
  }

  /** Prints what comes at the end: the rest of the array, the table, the summary and what was not marked. */
  async finish(): Promise<void> {
    try {
      this.csv?.flush(true);
      if (this.format === 'json') outRaw(this.io, this.jsonRows === 0 ? '[]\n' : '\n]\n');
      await this.table?.print();
    } finally {
      this.discard();
    }
    const problems = this.problems.first();
    const andMore = this.problems.andMore();
    if (!this.waited) {
      // --no-wait: nothing was meant to be marked yet; say what was accepted, list what was not
      // answers marked before come back marked: only the others are still to follow
      const { marked } = this.tally.answersSoFar();
      const follow = 'kct status <task_id> --watch';
      const then =
        this.accepted === 0
          ? 'none to follow'
          : marked === 0
            ? `follow them with ${follow}`
            : marked >= this.accepted
              ? 'all of them marked already: their rows hold the marks'
              : `${marked} marked already; follow the others with ${follow}`;
      const answers = this.added - this.unsent;
      const submitted =
        this.sentBefore === 0
          ? `Submitted: ${this.accepted} of ${answers} answers accepted; ${then}`
          : this.sentBefore === this.accepted
            ? `Nothing new submitted: ${this.accepted} of ${answers} answers were sent before; ${then}`
            : `Submitted: ${this.accepted - this.sentBefore} of ${answers} answers accepted, and ${this.sentBefore} not charged again (marked before, or identical to another answer of the run); ${then}`;
      if (this.io.stderrJson) return this.endNotice(submitted, problems);
      for (const line of [submitted, ...problemLines(problems), ...andMore]) this.say(line);
      this.printNoted();
      this.printDuplicates();
      return;
    }
    const figures = this.tally.summary();
    if (this.io.stderrJson) return this.endNotice(renderSummary(figures, { unicode: false })[0], problems, figures);
    const summary = renderSummary(figures, {
      unicode: this.format === 'table' ? this.io.stdoutIsTTY : this.io.stderrIsTTY,
      leftOut: this.leftOut,
    });
    for (const line of summary) this.say(line);
    const by = markedBy([...this.gradedBy]);
    if (by && this.format === 'table') out(this.io, safeText(this.io, by));
    if (this.problems.count > 0)
      for (const line of [`${withoutMarkHeading(figures, this.problems.count)}:`, ...problemLines(problems), ...andMore]) this.say(line);
    this.printNoted();
    this.printDuplicates();
  }

  /**
   * The run stopped early (Ctrl-C, a fatal error): what was printed is made whole, so stdout stays
   * well formed for whatever reads it. --json's array gets the rows that waited on an earlier one
   * and its closing bracket (`[]` when no row was seen finished), CSV the rows held for its header
   * (a header alone when there were none), the table the rows so far. The temporary files go either way.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    try {
      if (this.spool) for (const row of this.spool.rest()) this.writeJsonRow(row);
      if (this.format === 'json') outRaw(this.io, this.jsonRows === 0 ? '[]\n' : '\n]\n');
      this.csv?.flush(true);
      if (this.added > 0) await this.table?.print();
    } finally {
      this.discard();
    }
  }

  /**
   * --json: the end of the run as one notice a script reads, not the drawing made for people: the
   * summary's first line, its figures, the answers not marked (the first hundred) and the identical pairs.
   */
  private endNotice(message: string, problems: readonly Problem[], figures?: Summary): void {
    const { count, pairs } = (figures ?? this.tally.summary()).identical;
    const listed = (unsent: boolean) =>
      problems
        .filter(({ status }) => isUnsentRow(status) === unsent)
        .map(({ file, status, message: why }) => ({ file, status, ...(why ? { message: why } : {}) }));
    notice(this.io, 'info', message, {
      ...(figures ? { summary: summaryFields(figures) } : {}),
      // answers not marked, and rows never meant to be sent (SKIPPED, EMPTY, NOT_ENTERED), as the summary's lines count them
      not_marked_count: figures ? notMarkedOf(figures) : this.problems.count - this.problems.unsent,
      not_marked: listed(false),
      not_sent_count: figures ? unsentRowsOf(figures) : this.problems.unsent,
      not_sent: listed(true),
      marked_with_note_count: this.noted.count,
      marked_with_note: this.noted.first().map(({ file, message: why }) => ({ file, message: why })),
      identical_count: count,
      identical: pairs.map(([file, other]) => ({ file, duplicate_of: other })),
      // what the summary says beside the rows: found and not sent, or found twice and taken once
      ...(this.leftOut
        ? {
            left_out: {
              ignored: this.leftOut.ignored,
              excluded: this.leftOut.excluded,
              own: this.leftOut.own,
              empty_folders: this.leftOut.emptyFolders,
            },
            found_twice: { files: this.leftOut.duplicates, folders: this.leftOut.loops },
          }
        : {}),
    });
  }

  /** Marks whose rows say something to check (a file of the student's not sent): the table has no room for it. */
  private printNoted(): void {
    if (this.noted.count === 0) return;
    this.say(`Marked, with a note to read first (${this.noted.count}; the note is the row's message):`);
    for (const { file, message } of this.noted.first()) this.say(`  ${file}: ${message}`);
    for (const line of this.noted.andMore()) this.say(line);
  }

  /** Answers with the very same bytes as another: copied work, or a file handed in twice. */
  private printDuplicates(): void {
    const { count, pairs } = this.tally.summary().identical;
    if (count === 0) return;
    this.say(`Identical answers (${count}; the same text or bytes, duplicate_of in the rows):`);
    for (const [file, other] of pairs) this.say(`  ${file} = ${other}`);
    if (count > pairs.length) this.say(`  ... and ${count - pairs.length} more`);
  }

  /** A line of the run's end: with the table on stdout (the report a person reads, whole in a file), else on stderr beside the rows. */
  private say(line: string): void {
    (this.format === 'table' ? out : err)(this.io, line);
  }

  /** Removes the temporary files (also when the run is interrupted). */
  discard(): void {
    this.spool?.discard();
    this.csv?.discard();
    this.table?.discard();
  }

  private addJson(index: number, printed: Record<string, unknown>): void {
    for (const row of this.spool!.arrive(index, JSON.stringify(printed, null, 2))) this.writeJsonRow(row);
  }

  /** Rows of the one array, as JSON.stringify(rows, null, 2) would print them, one at a time. */
  private writeJsonRow(row: string): void {
    outRaw(this.io, `${this.jsonRows === 0 ? '[\n' : ',\n'}  ${row.replaceAll('\n', '\n  ')}`);
    this.jsonRows += 1;
  }
}

/**
 * One finished task in the chosen format: the score table, the record as received (json), or the
 * row a class run prints (ndjson, csv), so pipelines see one shape; named by the answer's label, and
 * flagged `replayed` when its task is an earlier submission's (no new charge).
 */
export async function printOneResult(
  io: IO,
  format: OutputFormat,
  result: EvaluationResult,
  { label = '', replayed = false }: { label?: string; replayed?: boolean } = {},
): Promise<void> {
  if (format === 'table') {
    await printResult(io, result);
    return;
  }
  if (format === 'json') {
    out(io, JSON.stringify(replayed ? { ...result, replayed: true } : result, null, 2));
    return;
  }
  const studentId = typeof result.student_id === 'string' ? result.student_id : undefined;
  const writer = new OutcomeWriter(io, format);
  await writer.init();
  writer.add(outcomeFromResult({ file: label, student_id: studentId, status: 'UNKNOWN', ...(replayed ? { replayed } : {}) }, result));
  writer.flush();
}

/** An answer the end of the run lists: not marked, or marked with a note. */
interface Problem {
  index: number;
  file: string;
  status: string;
  /** The first line of its reason. */
  message?: string;
}

/** The first rows of one list at the end of the run, by row, whatever order they come in (a few, never all). */
class FirstRows {
  private rows: Problem[] = [];
  count = 0;
  /** Of them, rows never meant to be sent (SKIPPED, EMPTY, NOT_ENTERED). */
  unsent = 0;

  add(index: number, o: AnswerOutcome, io: IO): void {
    this.count += 1;
    if (isUnsentRow(o.status)) this.unsent += 1;
    // one line each: a message of several lines (an error and its hint) is cut to its first
    const message = o.message ? safeText(io, o.message.split('\n')[0], 'stderr') : undefined;
    this.rows.push({ index, file: o.file, status: o.status, ...(message ? { message } : {}) });
    if (this.rows.length >= 2 * LISTED_PROBLEMS) this.rows = this.first();
  }

  first(): Problem[] {
    return this.rows.sort((a, b) => a.index - b.index).slice(0, LISTED_PROBLEMS);
  }

  andMore(): string[] {
    const more = this.count - Math.min(this.rows.length, LISTED_PROBLEMS);
    return more > 0 ? [`  ... and ${more} more (every one is in the rows, with its status and message)`] : [];
  }
}

/** A line per answer not marked, grouped by status and reason in the order each first appears: from three answers on (a server gone, say), a group is one line. */
function problemLines(problems: readonly Problem[]): string[] {
  const groups = new Map<string, string[]>();
  for (const { file, status, message } of problems) {
    const what = `${status}${message ? ` — ${message}` : ''}`;
    groups.set(what, [...(groups.get(what) ?? []), file]);
  }
  const lines: string[] = [];
  for (const [what, files] of groups) {
    if (files.length < 3) lines.push(...files.map((file) => `  ${file}: ${what}`));
    else lines.push(`  ${files.length} answers: ${what} (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''})`);
  }
  return lines;
}

/** The summary's figures for --json, by the names the rows use. */
function summaryFields(s: Summary): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    answers: answersOf(s),
    marked: s.marked,
    failed: s.failed,
    cancelled: s.cancelled,
    // only when there are some: a service that leaves a score out is rare, and its rows are the ones to look at
    ...(s.unscored > 0 ? { no_score: s.unscored } : {}),
    skipped: s.skipped,
    empty: s.empty,
    not_entered: s.notEntered,
    credits_charged: s.creditsCharged,
    // answers sent and not seen finished: credits_charged is what is known so far, not the total
    ...(s.mayBeCharged > 0 ? { may_be_charged: s.mayBeCharged } : {}),
    marked_before: s.replayed,
    copies: s.copies,
    mean: s.mean,
    median: s.median,
    min: s.min,
    max: s.max,
    max_score: s.maxScore,
    ...(s.scales !== undefined ? { scales: s.scales } : {}),
    criteria: s.criteria.map(({ item, mean, max }) => ({ item, mean, ...(max !== undefined ? { max } : {}) })),
    weakest: s.weakest,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
