// The class summary a teacher wants: how many were marked, mean/median/range of totals, a small
// histogram, and each criterion's mean against its maximum with the weakest one called out.
import type { LeftOutCounts } from '../answers/answers.js';
import { ClassTally, type ScoredOutcome } from './tally.js';

export type { ScoredOutcome };

export interface CriterionSummary {
  item: string;
  mean: number;
  max?: number;
  /** mean / max, when the maximum is known */
  ratio?: number;
}

export interface Summary {
  total: number;
  marked: number;
  failed: number;
  cancelled: number;
  /** Files that could not be sent, left out under --skip-unsupported. */
  skipped: number;
  /** Student folders with nothing to send. */
  empty: number;
  /** Subfolders not entered (without --recursive). */
  notEntered: number;
  /** Credits charged for the answers this run sent (replays not counted), when the service said. */
  creditsCharged?: number;
  /** Answers sent before (by an earlier run: this machine's ledger, or the service's replay): not charged again; their charge is that run's. */
  replayed: number;
  /** Answers with the same content as another of this run: marked once, charged once. */
  copies: number;
  /** Pairs of answers of the run with the same content (each pair once), and the first hundred of them. */
  identical: { count: number; pairs: [string, string][] };
  /** Answers that ended SUCCESS with no score in the result: not marked, and not failed (exit 1). */
  unscored: number;
  other: number;
  /** Of `other`, the answers this run sent and did not see finished: they may still be charged (not one never accepted, NOT_SENT, nor one marked before). */
  mayBeCharged: number;
  mean?: number;
  median?: number;
  min?: number;
  max?: number;
  maxScore?: number;
  /** The maxima of the totals when there are several (answers marked on different rubrics): then no mean, median or histogram. */
  scales?: number[];
  histogram: { from: number; to: number; count: number }[];
  criteria: CriterionSummary[];
  weakest?: string;
}

export function summarize(outcomes: readonly ScoredOutcome[]): Summary {
  const tally = new ClassTally();
  for (const outcome of outcomes) tally.add(outcome);
  return tally.summary();
}

/** The rows that were answers sent (or meant to be): what "N of M marked" counts. */
export function answersOf(summary: Summary): number {
  return summary.total - summary.skipped - summary.empty - summary.notEntered;
}

/** Rows that are not answers (SKIPPED, EMPTY, a subfolder not entered): students the answers' count leaves out, said beside it. */
export function unsentRowsOf(summary: Summary): number {
  return summary.skipped + summary.empty + summary.notEntered;
}

/** Answers not marked: failed, cancelled, timed out, not sent because of an error. Rows never meant to be sent are not among them. */
export function notMarkedOf(summary: Summary): number {
  return answersOf(summary) - summary.marked;
}

/**
 * The list of rows without a mark, named by what they are: answers not marked, inputs not sent, or
 * both, with the summary's counts (the terminal's list and the report's say the same).
 */
export function withoutMarkHeading(summary: Summary, rows: number): string {
  const notMarked = notMarkedOf(summary);
  const notSent = rows - notMarked;
  if (notSent <= 0) return `Not marked (${rows})`;
  if (notMarked <= 0) return `Not sent (${rows})`;
  return `Not marked (${notMarked}) or not sent (${notSent})`;
}

/** What was found and not sent, in words: rows not sent, then what was left out without a row. */
export function notSentParts(summary: Summary, leftOut?: LeftOutCounts): string[] {
  const parts: string[] = [];
  const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  if (summary.skipped) parts.push(`${count(summary.skipped, 'row')} skipped (cannot be sent)`); // a file, or a student's folder
  // a student folder, or a download's student, that holds nothing to mark
  if (summary.empty) parts.push(`${count(summary.empty, 'student')} with nothing to send (EMPTY)`);
  if (summary.notEntered) parts.push(`${count(summary.notEntered, 'subfolder')} not entered (pass --recursive)`);
  if (leftOut?.ignored)
    parts.push(`${count(leftOut.ignored, 'hidden, system or Markdown file', 'hidden, system or Markdown files')} ignored`);
  if (leftOut?.excluded) parts.push(`${count(leftOut.excluded, 'path')} excluded by --exclude`);
  if (leftOut?.own) parts.push(`${count(leftOut.own, 'file')} this command writes left out`);
  if (leftOut?.emptyFolders) parts.push(`${count(leftOut.emptyFolders, 'empty folder')} inside student folders`);
  return parts;
}

/** What was found twice and so taken once: not "not sent", since its one answer was (or its folder walked). */
export function foundTwiceParts(leftOut?: LeftOutCounts): string[] {
  const parts: string[] = [];
  if (leftOut?.duplicates) parts.push(`${leftOut.duplicates} ${leftOut.duplicates === 1 ? 'file' : 'files'} reached twice (marked once)`);
  if (leftOut?.loops)
    parts.push(`${leftOut.loops} ${leftOut.loops === 1 ? 'folder' : 'folders'} reached again through a link (walked once)`);
  return parts;
}

/** What the run cost: credits charged for what it sent, and the answers whose marks cost it nothing. */
function creditsLine(summary: Summary): string | undefined {
  if (summary.creditsCharged === undefined && summary.replayed === 0 && summary.copies === 0) return undefined;
  const parts = [];
  // answers sent and not seen finished (a run stopped, a server gone) may still be charged: 0 is what is known, not the total
  if (summary.creditsCharged !== undefined)
    parts.push(
      `${summary.creditsCharged} charged by this run${summary.mayBeCharged > 0 ? ` so far (${summary.mayBeCharged} not seen finished may still be)` : ''}`,
    );
  if (summary.replayed > 0) parts.push(`${summary.replayed} answer${summary.replayed === 1 ? '' : 's'} sent before, not charged again`);
  if (summary.copies > 0)
    parts.push(
      `${summary.copies} identical answer${summary.copies === 1 ? '' : 's'} charged once with ${summary.copies === 1 ? 'its' : 'their'} first`,
    );
  return `Credits: ${parts.join('; ')}`;
}

export function renderSummary(summary: Summary, options: { unicode: boolean; leftOut?: LeftOutCounts }): string[] {
  const lines: string[] = [];
  const parts = [`${summary.marked} of ${answersOf(summary)} answer${answersOf(summary) === 1 ? '' : 's'} marked`];
  if (summary.failed) parts.push(`${summary.failed} failed`);
  if (summary.cancelled) parts.push(`${summary.cancelled} cancelled`);
  if (summary.unscored) parts.push(`${summary.unscored} ended SUCCESS with no score`);
  if (summary.other) parts.push(`${summary.other} not finished or not sent`);
  // a row not sent is a student the answers' count leaves out: said in the same line, not only the next
  const unsent = unsentRowsOf(summary);
  if (unsent > 0) parts.push(`${unsent} ${unsent === 1 ? 'row' : 'rows'} not sent`);
  lines.push(`Summary: ${parts.join(', ')}`);
  const notSent = notSentParts(summary, options.leftOut);
  if (notSent.length > 0) lines.push(`Not sent: ${notSent.join(', ')}`);
  const twice = foundTwiceParts(options.leftOut);
  if (twice.length > 0) lines.push(`Found twice: ${twice.join(', ')}`);
  const credits = creditsLine(summary);
  if (credits) lines.push(credits);
  if (summary.scales !== undefined) lines.push(`Totals: ${scalesNote(summary.scales)}`);
  else if (summary.mean === undefined) return lines;
  else totalsLines(summary, options.unicode, lines);
  if (summary.criteria.length > 0) {
    lines.push('Criteria (mean / max):');
    const width = Math.max(...summary.criteria.map((c) => c.item.length));
    for (const criterion of summary.criteria) {
      const pct = criterion.ratio === undefined ? '' : `  ${Math.round(criterion.ratio * 100)}%`;
      const flag = criterion.item === summary.weakest ? '  <- weakest' : '';
      lines.push(
        `  ${criterion.item.padEnd(width)}  ${criterion.mean}${criterion.max === undefined ? '' : ` / ${criterion.max}`}${pct}${flag}`,
      );
    }
  }
  return lines;
}

/** What is said of totals on different scales, in the summary and the report. */
export function scalesNote(scales: readonly number[]): string {
  const named = scales.length > 2 ? `${scales.slice(0, -1).join(', ')} and ${scales.at(-1)}` : scales.join(' and ');
  return `out of ${named}: the answers were marked on different rubrics, so their totals are not averaged together (each row has its total and its maximum)`;
}

/** The mean, median and range of the totals, and their distribution. */
function totalsLines(summary: Summary, unicode: boolean, lines: string[]): void {
  const outOf = summary.maxScore === undefined ? '' : ` / ${summary.maxScore}`;
  lines.push(`Totals: mean ${summary.mean}${outOf}, median ${summary.median}, range ${summary.min}–${summary.max}`);
  const peak = Math.max(...summary.histogram.map((bin) => bin.count));
  const bar = unicode ? '█' : '#';
  const label = (bin: { from: number; to: number }) => `${bin.from}–${bin.to}`;
  const labelWidth = Math.max(...summary.histogram.map((bin) => label(bin).length));
  for (const bin of summary.histogram) {
    const length = peak === 0 ? 0 : Math.round((bin.count / peak) * 30);
    lines.push(`  ${label(bin).padStart(labelWidth)} | ${bar.repeat(length)}${bin.count ? ` ${bin.count}` : ''}`);
  }
}
