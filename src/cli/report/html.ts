// The pieces of the class report's HTML. Everything that comes from the data (student ids, file
// names, criteria, feedback, reasons) goes through escapeHtml: it is untrusted text.
import { createHash } from 'node:crypto';
import type { EvaluationEntry } from '../../api/schemas.js';
import { isMarked, isUnfinishedTaskStatus } from '../../api/status.js';
import type { LeftOutCounts } from '../answers/answers.js';
import {
  answersOf,
  foundTwiceParts,
  notMarkedOf,
  notSentParts,
  type Summary,
  unsentRowsOf,
  withoutMarkHeading,
} from '../render/summary.js';
import { SCRIPT, STYLE } from './assets.js';
import { criteriaChart, distributionChart } from './charts.js';
import { escapeHtml, formatScore } from './text.js';

/** One answer's line of a saved run: the ndjson row of `kct one-pass` / `kct batch`, or an outcome in flight. */
export interface ReportRow {
  file?: string;
  student_id?: string | null;
  /** The student's name, when a learning platform's download gives one. */
  student_name?: string | null;
  task_id?: string | null;
  status: string;
  score?: number | null;
  max_score?: number | null;
  message?: string | null;
  /** The first answer of the run with the very same bytes. */
  duplicate_of?: string | null;
  evaluation?: EvaluationEntry[] | null;
  /** Who marked it, when the result says (a row of a saved run, or the result record of this run). */
  graded_by?: string | null;
  result?: { graded_by?: unknown } | null;
}

/** Who marked a row, if its record says. */
export function gradedByOf(row: ReportRow): string | undefined {
  const by = row.graded_by ?? row.result?.graded_by;
  return typeof by === 'string' && by.trim() !== '' ? by : undefined;
}

export interface PageInfo {
  title: string;
  /** where the answers came from: a folder, a saved run */
  source?: string;
  generated: Date;
  version: string;
  /** What the run found and left out without a row (a report made from a saved run does not know). */
  leftOut?: LeftOutCounts;
  /** Pairs of identical answers: the first pairs [file, the other file], and how many. */
  identical?: { pairs: [string, string][]; count: number };
  /** "Marked by …", when the results name who marked them: a sandbox's marks are not the service's. */
  markedBy?: string;
}

/** Text made safe for HTML content and quoted attributes (control characters dropped: HTML has no place for them). */
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** No network at all, and no script or style but the report's own (by hash). */
export const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; img-src data:; base-uri 'none'; form-action 'none'`;

/** Who the row is about: the student id, else the file's name. */
function studentOf(row: ReportRow): string {
  if (row.student_name) return row.student_name;
  if (row.student_id) return row.student_id;
  const file = row.file ?? row.task_id ?? '';
  return file.split(/[\\/]/).pop() || file;
}

/** Why a row was not marked: the server's comment, else kct's message; a task still under way has not ended. */
function reasonOf(row: ReportRow): string {
  const errorEntry = (row.evaluation ?? []).find((entry) => entry.type === 'error');
  const fallback =
    row.status === 'SUCCESS'
      ? 'marked without a score'
      : isUnfinishedTaskStatus(row.status)
        ? 'not finished when this run was saved: the same command again, without --no-wait, prints its mark (nothing is charged again)'
        : `ended ${row.status}`;
  return errorEntry?.comment || row.message || fallback;
}

/** Everything before the rows of the students' table. */
export function pageStart(info: PageInfo, summary: Summary, failureCount: number): string {
  const title = escapeHtml(info.title);
  const subtitle = [
    info.source ? escapeHtml(info.source) : undefined,
    `${answersOf(summary)} ${answersOf(summary) === 1 ? 'answer' : 'answers'}`,
    `made ${escapeHtml(info.generated.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }))} by kct ${escapeHtml(info.version)}`,
  ]
    .filter(Boolean)
    .join(' · ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="generator" content="kct ${escapeHtml(info.version)}">
<title>${title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header><h1>${title}</h1><p>${subtitle}</p>${info.markedBy ? `<p class="marked-by">${escapeHtml(info.markedBy)}</p>` : ''}</header>
${cards(summary)}
${notSentNote(summary, info.leftOut)}${identicalPanel(info.identical)}<div class="charts">
<section class="panel"><h2>Score distribution</h2><p class="note">Answers per band of total score; a band holds its lower bound, the last one the maximum too.</p>${distributionChart(summary)}</section>
<section class="panel"><h2>Criteria</h2><p class="note">${criteriaNote(summary)}</p>${criteriaChart(summary)}</section>
</div>
${failureCount > 0 ? `<section class="panel failures" id="failures"><h2>${withoutMarkHeading(summary, failureCount)}</h2><ul>\n` : ''}`;
}

/** Between the failures and the students' table. */
export function tableStart(failureCount: number): string {
  return `${failureCount > 0 ? '</ul></section>\n' : ''}<section class="panel">
<div class="toolbar"><div><h2>Students</h2><p class="note">Click a column heading to sort; open a row for its feedback.</p></div><button type="button" id="toggle-feedback" aria-pressed="false">Open all feedback</button></div>
<table class="students" id="students" role="table">
<thead role="rowgroup"><tr role="row"><th role="columnheader" aria-sort="none"><button type="button">Student</button></th><th role="columnheader" aria-sort="none" data-type="number"><button type="button">Total</button></th><th role="columnheader" aria-sort="none" data-type="number"><button type="button">%</button></th><th role="columnheader" aria-sort="none"><button type="button">Status</button></th><th role="columnheader" class="plain">Feedback</th></tr></thead>
<tbody role="rowgroup">
`;
}

export function pageEnd(): string {
  return `</tbody>
</table>
</section>
<footer>Made by kct. This file is self-contained: it loads nothing from the network and can be opened anywhere.</footer>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

export function studentRow(row: ReportRow): string {
  const marked = isMarked(row);
  const score = marked ? (row.score as number) : undefined;
  const max = typeof row.max_score === 'number' && row.max_score > 0 ? row.max_score : undefined;
  const total =
    score === undefined
      ? '—'
      : `<span class="total">${formatScore(score)}${max === undefined ? '' : ` / ${formatScore(max)}`}</span>${max === undefined ? '' : `<meter min="0" max="${max}" value="${Math.min(score, max)}"></meter>`}`;
  const percent = score !== undefined && max !== undefined ? Math.round((score / max) * 1000) / 10 : undefined;
  const status = escapeHtml(row.status);
  const statusClass = `s-${row.status.toLowerCase().replace(/[^a-z_]/g, '')}`;
  // explicit roles: the rows are laid out as a grid, which may hide the table from screen readers
  return (
    `<tr role="row"${marked ? '' : ' data-unmarked=""'}><td role="cell" class="who">${escapeHtml(studentOf(row))}${marked && row.message ? `<span class="row-note">${escapeHtml(row.message)}</span>` : ''}</td>` +
    `<td role="cell" class="num" data-v="${score ?? ''}">${total}</td>` +
    `<td role="cell" class="num" data-v="${percent ?? ''}">${percent === undefined ? '' : `${Math.round(percent)}%`}</td>` +
    `<td role="cell"><span class="status ${statusClass}">${status}</span></td>` +
    `<td role="cell" class="fb"><details><summary>${marked ? 'Feedback' : 'Reason'}</summary>${feedback(row, marked)}</details></td></tr>\n`
  );
}

export function failureItem(row: ReportRow): string {
  const file = row.file && row.file !== studentOf(row) ? ` <span class="file">${escapeHtml(row.file)}</span>` : '';
  return `<li><strong>${escapeHtml(studentOf(row))}</strong>${file} <span class="status s-${row.status.toLowerCase().replace(/[^a-z_]/g, '')}">${escapeHtml(row.status)}</span><span class="why">${escapeHtml(reasonOf(row))}</span></li>\n`;
}

function feedback(row: ReportRow, marked: boolean): string {
  const file = row.file ? `<p class="file">${escapeHtml(row.file)}${row.task_id ? ` · ${escapeHtml(row.task_id)}` : ''}</p>` : '';
  if (!marked) return `${file}<p class="why">${escapeHtml(reasonOf(row))}</p>`;
  const criteria = (row.evaluation ?? []).filter((entry) => entry.type !== 'error');
  if (criteria.length === 0) return `${file}<p class="why">No feedback was given.</p>`;
  return (
    file +
    criteria
      .map((entry) => {
        const score =
          typeof entry.score === 'number'
            ? `${formatScore(entry.score)}${typeof entry.max_score === 'number' ? ` / ${formatScore(entry.max_score)}` : ''}`
            : '';
        const text = entry.feedback ?? entry.comment ?? '';
        return `<div class="crit"><h3><span>${escapeHtml(entry.item ?? 'Feedback')}</span><span>${score}</span></h3>${text ? `<p>${escapeHtml(text)}</p>` : ''}</div>`;
      })
      .join('')
  );
}

/** What the criteria chart shows: a saved CSV run, say, holds no criterion's maximum, so no share and no weakest. */
function criteriaNote(summary: Summary): string {
  if (summary.weakest !== undefined) return 'Mean score against the maximum; the weakest criterion is marked.';
  if (summary.criteria.some((criterion) => criterion.max !== undefined)) return 'Mean score against the maximum.';
  return 'Mean score of each criterion: the saved run does not give their maximum, so no share is drawn.';
}

/** Answers with the very same bytes as an earlier one: copied work, or a file handed in twice. */
function identicalPanel(identical?: { pairs: [string, string][]; count: number }): string {
  if (!identical || identical.count === 0) return '';
  const items = identical.pairs
    .map(([file, first]) => `<li><strong>${escapeHtml(file)}</strong> <span class="why">is identical to ${escapeHtml(first)}</span></li>`)
    .join('\n');
  const more = identical.count > identical.pairs.length ? `\n<li>… and ${identical.count - identical.pairs.length} more</li>` : '';
  return `<section class="panel failures" id="identical"><h2>Identical answers (${identical.count})</h2><p class="note">Every byte the same as another answer of the run: marked once and charged once, unless the run marked each on its own (kct one-pass --mark-copies).</p><ul>\n${items}${more}</ul></section>\n`;
}

/** Everything found and not sent, in one line: the rows are listed under "Not marked", the rest only counted. */
function notSentNote(summary: Summary, leftOut?: LeftOutCounts): string {
  const parts = notSentParts(summary, leftOut);
  const twice = foundTwiceParts(leftOut);
  return [
    parts.length === 0 ? '' : `<p class="note" id="not-sent">Not sent: ${escapeHtml(parts.join(', '))}.</p>\n`,
    twice.length === 0 ? '' : `<p class="note" id="found-twice">Found twice: ${escapeHtml(twice.join(', '))}.</p>\n`,
  ].join('');
}

function cards(summary: Summary): string {
  const card = (key: string, value: string, extra = '', valueClass = '') =>
    `<div class="card${extra}"><span class="k">${key}</span><span class="v${valueClass}">${value}</span></div>`;
  const notMarked = notMarkedOf(summary);
  const outOf = summary.maxScore === undefined ? '' : ` <small>/ ${formatScore(summary.maxScore)}</small>`;
  const list = [card('Marked', `${summary.marked} <small>of ${answersOf(summary)} answer${answersOf(summary) === 1 ? '' : 's'}</small>`)];
  if (summary.mean !== undefined) {
    list.push(card('Mean', `${formatScore(summary.mean)}${outOf}`));
    list.push(card('Median', `${formatScore(summary.median as number)}${outOf}`));
    list.push(card('Range', `${formatScore(summary.min as number)}–${formatScore(summary.max as number)}`));
  }
  if (summary.weakest !== undefined) list.push(card('Weakest criterion', escapeHtml(summary.weakest), '', ' text'));
  list.push(card('Not marked', String(notMarked), notMarked > 0 ? ' bad' : ''));
  // students whose rows were not sent (SKIPPED, EMPTY): beside "Not marked", which counts answers only
  const unsent = unsentRowsOf(summary);
  if (unsent > 0) list.push(card('Not sent', String(unsent), ' bad'));
  return `<section class="cards">${list.join('')}</section>`;
}
