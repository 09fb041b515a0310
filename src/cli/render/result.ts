// The score table a teacher reads: total first, then each criterion with score and feedback.
// A batch's record has no scores of its own: it is read as its items, one row each.
import type { EvaluationEntry, EvaluationResult } from '../../api/schemas.js';
import { isFinalSnapshot, isUnsuccessfulFinal, statusOf } from '../../api/status.js';
import { batchItemsOf } from '../../client/records.js';
import { type IO, out, safeText } from '../core/io.js';
import { failureReason } from './outcome.js';
import { type Column, renderRows } from './rows.js';
import { formatNumber, paint, plural, statusColor } from './style.js';

/**
 * "Marked by the sandbox's offline grader": the line said under a result that names who marked it
 * (the sandbox does; the service does not), so a sandbox score is not taken for the service's.
 */
export function markedBy(values: unknown[]): string | undefined {
  const named = [...new Set(values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim()))];
  return named.length === 0 ? undefined : `Marked by ${named.join('; ')}`;
}

/** A reused mark sent under another student id (row-names.ts): the same answer from two students, or one renamed. */
export function printEarlierStudent(io: IO, student: unknown): void {
  if (typeof student !== 'string') return;
  out(
    io,
    paint(io).yellow(`Marked before under student id ${safeText(io, student)}: if that is another student, the two answers are the same.`),
  );
}

export async function printResult(io: IO, result: EvaluationResult): Promise<void> {
  const c = paint(io);
  const status = safeText(io, statusOf(result));
  const header = [`Task ${safeText(io, result.task_id)}`, statusColor(io, status)];
  if (result.model_id !== undefined) header.push(`model ${safeText(io, String(result.model_id))}`);
  if (typeof result.student_id === 'string' && result.student_id) header.push(`student ${safeText(io, result.student_id)}`);
  out(io, header.join('  '));
  printEarlierStudent(io, result.earlier_student_id);

  const items = batchItemsOf(result);
  if (items) {
    await printBatchItems(io, items);
    const by = markedBy(items.map((item) => item.graded_by));
    if (by) out(io, safeText(io, by));
    printFailedCallback(io, result);
    if (isUnsuccessfulFinal(status) && typeof result.message === 'string') out(io, `${c.red('Reason:')} ${safeText(io, result.message)}`);
    return;
  }
  if (isUnsuccessfulFinal(status)) {
    const reason = failureReason(result);
    if (reason) out(io, `${c.red('Reason:')} ${safeText(io, reason)}`);
    return;
  }
  if (!isFinalSnapshot(result) && (result.evaluation ?? []).length === 0) {
    // what to do is the caller's error to say (on stderr): stdout holds the record, not advice
    out(io, 'Not finished yet: no result to show.');
    return;
  }
  const entries = (result.evaluation ?? []).filter((entry) => entry.type !== 'error');
  const max = result.max_score ?? sumMax(entries);
  // a SUCCESS with no score is said as such (and exits 1), not as an empty total
  const total = typeof result.score === 'number' ? formatNumber(result.score) : 'none in the result';
  out(io, c.bold(`Total: ${total}${max !== undefined ? ` / ${formatNumber(max)}` : ''}`));
  const by = markedBy([result.graded_by]);
  if (by) out(io, c.dim(safeText(io, by)));
  if (entries.length === 0) return;
  out(io, await renderRows(io, entries, CRITERION_COLUMNS, { lines: true }));
}

/**
 * "Callback to hooks.example.org failed after 7 attempts: connect ECONNREFUSED …": a batch's
 * callback that gave up, from the record's `callback` (what --json prints); nothing while it is
 * pending or once delivered, or from a service that does not report it (spec 4.9: not shown).
 */
export function printFailedCallback(io: IO, record: Record<string, unknown>): void {
  const callback = record.callback as { url?: unknown; status?: unknown; attempts?: unknown; last_error?: unknown } | undefined;
  if (typeof callback !== 'object' || callback === null || callback.status !== 'failed') return;
  let host = '';
  try {
    host = typeof callback.url === 'string' ? ` to ${new URL(callback.url).host}` : '';
  } catch {
    // a URL the record holds but that does not parse: the line still says the callback failed
  }
  const attempts = typeof callback.attempts === 'number' ? ` after ${plural(callback.attempts, 'attempt')}` : '';
  const error = typeof callback.last_error === 'string' && callback.last_error ? `: ${callback.last_error}` : '';
  out(io, `${paint(io).red('Callback')}${safeText(io, `${host} failed${attempts}${error}`)}`);
}

/** A criterion's score, "4 / 5" when its maximum is known. */
function scoreOf(item: { score?: unknown; max_score?: unknown }): string {
  return `${formatNumber(item.score)}${typeof item.max_score === 'number' ? ` / ${formatNumber(item.max_score)}` : ''}`;
}

const CRITERION_COLUMNS: Column<EvaluationEntry>[] = [
  { name: 'item', header: 'Criterion', value: (entry) => entry.item ?? '' },
  { name: 'score', header: 'Score', value: (entry) => entry.score, show: scoreOf },
  { name: 'feedback', header: 'Feedback', value: (entry) => entry.feedback ?? entry.comment ?? '', wrap: true },
];

const ITEM_COLUMNS: Column<Record<string, unknown>>[] = [
  { name: 'index', header: '#', value: (item) => item.index, show: (item) => (typeof item.index === 'number' ? item.index + 1 : '') },
  // as in the class table, the task ids are what a narrow terminal gives up first
  { name: 'task_id', header: 'Task', value: (item) => item.task_id ?? '', leaveOut: 1 },
  { name: 'student_id', header: 'Student', value: (item) => item.student_id ?? item.label ?? item.file ?? '' },
  { name: 'status', header: 'Status', value: (item) => statusOf(item), paint: (text, io) => statusColor(io, text) },
  { name: 'score', header: 'Score', value: (item) => item.score, show: (item) => (typeof item.score === 'number' ? scoreOf(item) : '') },
];

function sumMax(entries: EvaluationEntry[]): number | undefined {
  if (entries.length === 0 || entries.some((entry) => typeof entry.max_score !== 'number')) return undefined;
  return entries.reduce((sum, entry) => sum + (entry.max_score as number), 0);
}

async function printBatchItems(io: IO, items: Record<string, unknown>[]): Promise<void> {
  // an item without its index is numbered by its place
  const numbered = items.map((item, position) => (typeof item.index === 'number' ? item : { ...item, index: position }));
  if (items.length > 0) out(io, await renderRows(io, numbered, ITEM_COLUMNS));
  const counts = { succeeded: 0, failed: 0, cancelled: 0, unfinished: 0 };
  for (const item of items) {
    const status = statusOf(item).toUpperCase();
    if (status === 'CANCEL' || status === 'CANCELLED') counts.cancelled += 1;
    else if (isUnsuccessfulFinal(status)) counts.failed += 1;
    else if (isFinalSnapshot(item)) counts.succeeded += 1;
    else counts.unfinished += 1;
  }
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([word, n]) => `${n} ${word}`);
  out(io, `${plural(items.length, 'item')}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`);
}
