// The class summary a teacher wants: how many were marked, mean/median/range of totals, a small
// histogram, and each criterion's mean against its maximum with the weakest one called out.
import type { EvaluationEntry } from '../api/schemas.js';

export interface ScoredOutcome {
  status: string;
  score?: number | null;
  maxScore?: number | null;
  evaluation?: EvaluationEntry[] | null;
}

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
  other: number;
  mean?: number;
  median?: number;
  min?: number;
  max?: number;
  maxScore?: number;
  histogram: { from: number; to: number; count: number }[];
  criteria: CriterionSummary[];
  weakest?: string;
}

export function summarize(outcomes: readonly ScoredOutcome[], bins = 5): Summary {
  const successes = outcomes.filter((o) => o.status === 'SUCCESS' && typeof o.score === 'number');
  const scores = successes.map((o) => o.score as number).sort((a, b) => a - b);
  const summary: Summary = {
    total: outcomes.length,
    marked: successes.length,
    failed: outcomes.filter((o) => o.status === 'FAILURE').length,
    cancelled: outcomes.filter((o) => o.status === 'CANCEL').length,
    skipped: outcomes.filter((o) => o.status === 'SKIPPED').length,
    other: 0,
    histogram: [],
    criteria: [],
  };
  summary.other = summary.total - summary.marked - summary.failed - summary.cancelled - summary.skipped;
  if (scores.length === 0) return summary;
  summary.mean = round(scores.reduce((a, b) => a + b, 0) / scores.length);
  const mid = Math.floor(scores.length / 2);
  summary.median = scores.length % 2 ? scores[mid] : round((scores[mid - 1] + scores[mid]) / 2);
  summary.min = scores[0];
  summary.max = scores[scores.length - 1];
  const maxScores = successes.map((o) => o.maxScore).filter((m): m is number => typeof m === 'number');
  summary.maxScore = maxScores.length ? Math.max(...maxScores) : undefined;
  const upper = summary.maxScore ?? summary.max;
  const width = upper > 0 ? upper / bins : 1;
  summary.histogram = Array.from({ length: bins }, (_, i) => ({ from: round(i * width), to: round((i + 1) * width), count: 0 }));
  for (const score of scores) {
    const index = Math.min(bins - 1, Math.max(0, Math.floor(score / width)));
    summary.histogram[index].count += 1;
  }
  const byItem = new Map<string, { sum: number; n: number; max?: number }>();
  for (const outcome of successes) {
    for (const entry of outcome.evaluation ?? []) {
      if (entry.type === 'error' || !entry.item || typeof entry.score !== 'number') continue;
      const slot = byItem.get(entry.item) ?? { sum: 0, n: 0 };
      slot.sum += entry.score;
      slot.n += 1;
      if (typeof entry.max_score === 'number') slot.max = entry.max_score;
      byItem.set(entry.item, slot);
    }
  }
  summary.criteria = [...byItem].map(([item, slot]) => {
    const mean = round(slot.sum / slot.n);
    return { item, mean, max: slot.max, ratio: slot.max ? mean / slot.max : undefined };
  });
  const rated = summary.criteria.filter((c) => c.ratio !== undefined);
  if (rated.length > 1) summary.weakest = rated.reduce((a, b) => ((b.ratio as number) < (a.ratio as number) ? b : a)).item;
  return summary;
}

export function renderSummary(summary: Summary, options: { unicode: boolean }): string[] {
  const lines: string[] = [];
  const parts = [`${summary.marked} of ${summary.total} marked`];
  if (summary.failed) parts.push(`${summary.failed} failed`);
  if (summary.cancelled) parts.push(`${summary.cancelled} cancelled`);
  if (summary.skipped) parts.push(`${summary.skipped} skipped (cannot be sent)`);
  if (summary.other) parts.push(`${summary.other} not finished or not sent`);
  lines.push(`Summary: ${parts.join(', ')}`);
  if (summary.mean === undefined) return lines;
  const outOf = summary.maxScore === undefined ? '' : ` / ${summary.maxScore}`;
  lines.push(`Totals: mean ${summary.mean}${outOf}, median ${summary.median}, range ${summary.min}–${summary.max}`);
  const peak = Math.max(...summary.histogram.map((bin) => bin.count));
  const bar = options.unicode ? '█' : '#';
  const label = (bin: { from: number; to: number }) => `${bin.from}–${bin.to}`;
  const labelWidth = Math.max(...summary.histogram.map((bin) => label(bin).length));
  for (const bin of summary.histogram) {
    const length = peak === 0 ? 0 : Math.round((bin.count / peak) * 30);
    lines.push(`  ${label(bin).padStart(labelWidth)} | ${bar.repeat(length)}${bin.count ? ` ${bin.count}` : ''}`);
  }
  if (summary.criteria.length > 0) {
    lines.push('Criteria (mean / max):');
    const width = Math.max(...summary.criteria.map((c) => c.item.length));
    for (const criterion of summary.criteria) {
      const pct = criterion.ratio === undefined ? '' : `  ${Math.round(criterion.ratio * 100)}%`;
      const flag = criterion.item === summary.weakest ? '  <- weakest' : '';
      lines.push(`  ${criterion.item.padEnd(width)}  ${criterion.mean}${criterion.max === undefined ? '' : ` / ${criterion.max}`}${pct}${flag}`);
    }
  }
  return lines;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
