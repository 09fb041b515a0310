// Output of a run over many answers. NDJSON and CSV stream a line per answer as it finishes;
// JSON is one array at the end; the table and the summary come at the end. stdout holds only
// results: with a machine format, the summary goes to stderr.
import type { EvaluationEntry, EvaluationResult } from '../../api/schemas.js';
import { statusOf } from '../../api/status.js';
import { err, out, outRaw, safeText, type IO } from '../io.js';
import { renderSummary, summarize } from '../summary.js';
import { printResult } from './result.js';
import { cell, renderTable, type OutputFormat } from './rows.js';
import { formatNumber, statusColor } from './style.js';

export interface AnswerOutcome {
  file: string;
  student_id?: string;
  task_id?: string;
  /** Task status, or ERROR when it was never accepted / could not be followed. */
  status: string;
  score?: number | null;
  max_score?: number | null;
  evaluation?: EvaluationEntry[] | null;
  /** Why it failed or was not sent. */
  message?: string;
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
    result,
  };
}

export class OutcomeWriter {
  private readonly outcomes: AnswerOutcome[] = [];
  private csvHeader?: string[];
  private csvPending: AnswerOutcome[] = [];
  private stringify?: (rows: unknown[][]) => string;

  constructor(private readonly io: IO, private readonly format: OutputFormat) {}

  async init(): Promise<void> {
    if (this.format === 'csv') {
      const { stringify } = await import('csv-stringify/sync');
      // A student id or criterion name that begins like a formula (=, +, -, @) is prefixed with '
      // so a spreadsheet opening marks.csv shows it instead of running it (CSV injection).
      this.stringify = (rows) => stringify(rows, { escape_formulas: true });
    }
  }

  add(outcome: AnswerOutcome): void {
    this.outcomes.push(outcome);
    if (this.format === 'ndjson') out(this.io, JSON.stringify(ndjsonRow(outcome)));
    if (this.format === 'csv') this.addCsv(outcome);
  }

  /** Ends the CSV (a header even when no row was marked); for a single record, no summary. */
  flush(): void {
    if (this.format === 'csv') this.flushCsv(true);
  }

  /** Prints what comes at the end; returns the outcomes in the order they finished. */
  async finish(order: (outcome: AnswerOutcome) => number, options: { waited?: boolean } = {}): Promise<AnswerOutcome[]> {
    const sorted = [...this.outcomes].sort((a, b) => order(a) - order(b));
    if (this.format === 'csv') this.flushCsv(true);
    if (this.format === 'json') out(this.io, JSON.stringify(sorted.map(ndjsonRow), null, 2));
    if (this.format === 'table') await this.printTable(sorted);
    if (options.waited === false) {
      // --no-wait: nothing was meant to be marked yet; say what was accepted, list what was not
      const refused = sorted.filter((o) => !o.task_id || o.status === 'ERROR' || o.status === 'NOT_SENT');
      (this.format === 'table' ? out : err)(this.io, `Submitted: ${sorted.length - refused.length} of ${sorted.length} accepted; follow them with kct status <task_id> --watch`);
      for (const o of refused) err(this.io, `  ${o.file}: ${o.status}${o.message ? ` — ${o.message}` : ''}`);
      return sorted;
    }
    const summary = renderSummary(summarize(sorted.map((o) => ({ status: o.status, score: o.score, maxScore: o.max_score, evaluation: o.evaluation }))), {
      unicode: this.format === 'table' ? this.io.stdoutIsTTY : this.io.stderrIsTTY,
    });
    for (const line of summary) (this.format === 'table' ? out : err)(this.io, line);
    const problems = sorted.filter((o) => o.status !== 'SUCCESS');
    if (problems.length > 0) {
      err(this.io, `Not marked (${problems.length}):`);
      for (const o of problems) err(this.io, `  ${o.file}: ${o.status}${o.message ? ` — ${safeText(this.io, o.message, 'stderr')}` : ''}`);
    }
    return sorted;
  }

  private async printTable(sorted: AnswerOutcome[]): Promise<void> {
    // The part of a path that names the student is never cut or wrapped: the folder all files
    // share is said once above the table, and the rest is shown whole (the table may then be wider
    // than the terminal; piped, there is no width to keep to).
    const { folder, names } = relativeToCommonFolder(sorted.map((o) => o.file));
    const body = sorted.map((o, i) => [
      safeText(this.io, names[i]),
      safeText(this.io, o.student_id ?? ''),
      o.task_id ?? '',
      statusColor(this.io, o.status),
      o.score === undefined || o.score === null ? '' : `${formatNumber(o.score)}${typeof o.max_score === 'number' ? ` / ${formatNumber(o.max_score)}` : ''}`,
    ]);
    if (folder) out(this.io, `Files in ${safeText(this.io, folder)}`);
    out(this.io, await renderTable(this.io, ['File', 'Student', 'Task', 'Status', 'Score'], body, [], { compact: true }));
  }

  private addCsv(outcome: AnswerOutcome): void {
    this.csvPending.push(outcome);
    // The criterion columns come from the first marked answer: wait for one before the header.
    if (!this.csvHeader && outcome.status === 'SUCCESS') this.flushCsv(false);
    else if (this.csvHeader) this.flushCsv(false);
  }

  private flushCsv(final: boolean): void {
    if (!this.csvHeader) {
      const first = this.csvPending.find((o) => o.status === 'SUCCESS');
      if (!first && !final) return;
      const criteria = (first?.evaluation ?? []).filter((e) => e.type !== 'error' && e.item).map((e) => e.item as string);
      this.csvHeader = criteria;
      outRaw(this.io, this.stringify!([['file', 'student_id', 'task_id', 'status', 'score', ...criteria]]));
    }
    const criteria = this.csvHeader;
    const rows = this.csvPending.map((o) => {
      const byItem = new Map((o.evaluation ?? []).filter((e) => e.type !== 'error').map((e) => [e.item, e.score]));
      return [o.file, o.student_id ?? '', o.task_id ?? '', o.status, cell(o.score), ...criteria.map((item) => cell(byItem.get(item)))];
    });
    if (rows.length > 0) outRaw(this.io, this.stringify!(rows));
    this.csvPending = [];
  }
}

/** The folder every path shares (with its separator), and each path without it; none for one path or none shared. */
export function relativeToCommonFolder(paths: string[]): { folder?: string; names: string[] } {
  const split = paths.map((path) => path.split(/(?<=[/\\])/)); // keep each separator on its segment
  if (paths.length === 0 || split.some((parts) => parts.length < 2)) return { names: paths };
  let shared = 0;
  const shortest = Math.min(...split.map((parts) => parts.length - 1)); // never the file name itself
  while (shared < shortest && split.every((parts) => parts[shared] === split[0][shared])) shared += 1;
  if (shared === 0) return { names: paths };
  const folder = split[0].slice(0, shared).join('');
  if (folder === '/' || folder === './') return { names: paths };
  return { folder, names: split.map((parts) => parts.slice(shared).join('')) };
}

function ndjsonRow(outcome: AnswerOutcome): Record<string, unknown> {
  return {
    file: outcome.file,
    student_id: outcome.student_id ?? null,
    task_id: outcome.task_id ?? null,
    status: outcome.status,
    score: outcome.score ?? null,
    max_score: outcome.max_score ?? null,
    credits_charged: typeof outcome.result?.credits_charged === 'number' ? outcome.result.credits_charged : null,
    ...(outcome.message ? { message: outcome.message } : {}),
    evaluation: outcome.evaluation ?? null,
  };
}

/**
 * One finished task in the chosen format: the score table, the record as received (json), or
 * the same line/row a class run prints (ndjson, csv), so pipelines see one shape.
 */
export async function printOneResult(io: IO, format: OutputFormat, result: EvaluationResult, label = result.task_id): Promise<void> {
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
