// A class's figures kept as answers arrive, in memory that does not grow with their number:
// counts, a count per distinct total (for the median and the histogram) and a sum per
// criterion. The terminal summary and the HTML report both read their figures from it.
import type { EvaluationEntry } from '../../api/schemas.js';
import { isFinalStatus, isMarked, isUnscoredSuccess } from '../../api/status.js';
import { isUnsentRow } from './outcome.js';
import type { Summary } from './summary.js';

export interface ScoredOutcome {
  status: string;
  score?: number | null;
  maxScore?: number | null;
  evaluation?: EvaluationEntry[] | null;
  /** Credits the service charged for this answer; a replay's are those of the run that sent it. */
  creditsCharged?: number | null;
  /** Its mark is another submission's: an earlier run's (reused), or, with `copy`, another answer's of this run. */
  replayed?: boolean;
  /** The same content as another answer of this run, which was charged for both. */
  copy?: boolean;
  /** The row's answer, and the other answer of the run with the same content (duplicate_of), for the list of identical answers. */
  file?: string | null;
  duplicateOf?: string | null;
}

/** How many identical answers are named in the list (all are in the rows). */
const LISTED_PAIRS = 100;
/** Different maxima kept to name them: past a few, the run is on different scales whatever they are. */
const MAX_SCALES = 5;

// A rogue server could name a new criterion in every answer: past this many, new ones are not kept.
const MAX_CRITERIA = 100;
// Marks come in steps (halves, at most thousandths), so a class has few distinct totals; past
// this many, totals are counted to a coarser step (tenfold each time): the memory stays bounded
// and the median exact to that step.
const MAX_DISTINCT_TOTALS = 4096;

export class ClassTally {
  private total = 0;
  private failed = 0;
  private cancelled = 0;
  private skipped = 0;
  private empty = 0;
  private notEntered = 0;
  private mayBeCharged = 0;
  private marked = 0;
  /** Answers that ended SUCCESS with no score: no mark, and no failure. */
  private unscored = 0;
  private credits?: number;
  /** A row this run marked whose charge the service did not say: the run's credits are then not known. */
  private creditsUnknown = false;
  private replayed = 0;
  private copies = 0;
  private sum = 0;
  private min = Infinity;
  private max = -Infinity;
  private maxScore?: number;
  /** The maxima of the totals marked (a few at most): more than one, and the totals are on different scales. */
  private readonly scales = new Set<number>();
  /** how many answers got each total, keyed by the total to `step` (scores are marks, not measurements) */
  private totals = new Map<number, number>();
  private step = 0.001;
  private readonly criteria = new Map<string, { sum: number; n: number; max?: number }>();
  /** Pairs of identical answers, each once whichever of the two names the other. */
  private readonly pairsSeen = new Set<string>();
  private readonly identical = { count: 0, pairs: [] as [string, string][] };

  /** Rows so far that are answers (not SKIPPED, EMPTY or NOT_ENTERED), and those of them marked: the progress line's figures. */
  answersSoFar(): { answers: number; marked: number } {
    return { answers: this.total - this.skipped - this.empty - this.notEntered, marked: this.marked };
  }

  add(outcome: ScoredOutcome): void {
    this.total += 1;
    if (outcome.status === 'FAILURE') this.failed += 1;
    if (outcome.status === 'CANCEL') this.cancelled += 1;
    if (outcome.status === 'SKIPPED') this.skipped += 1;
    if (outcome.status === 'EMPTY') this.empty += 1;
    if (outcome.status === 'NOT_ENTERED') this.notEntered += 1;
    // a charge still to come: sent by this run, accepted (or maybe), and not seen finished
    if (!isFinalStatus(outcome.status) && outcome.status !== 'NOT_SENT' && !isUnsentRow(outcome.status) && !outcome.replayed)
      this.mayBeCharged += 1;
    if (outcome.file && outcome.duplicateOf) this.pair(outcome.file, outcome.duplicateOf);
    if (outcome.replayed && outcome.copy) this.copies += 1;
    // a replay that did not mark it (a failure sent before, and not again) was sent before, not marked
    else if (outcome.replayed) this.replayed += isMarked(outcome) ? 1 : 0;
    else if (typeof outcome.creditsCharged === 'number') this.credits = (this.credits ?? 0) + outcome.creditsCharged;
    else if (outcome.status === 'SUCCESS') this.creditsUnknown = true;
    if (isUnscoredSuccess(outcome)) this.unscored += 1;
    if (!isMarked(outcome)) return;
    const score = outcome.score;
    this.marked += 1;
    this.sum += score;
    this.min = Math.min(this.min, score);
    this.max = Math.max(this.max, score);
    if (typeof outcome.maxScore === 'number') {
      this.maxScore = Math.max(this.maxScore ?? -Infinity, outcome.maxScore);
      if (this.scales.size < MAX_SCALES) this.scales.add(outcome.maxScore);
    }
    const key = this.keyOf(score);
    this.totals.set(key, (this.totals.get(key) ?? 0) + 1);
    if (this.totals.size > MAX_DISTINCT_TOTALS) this.coarsen();
    for (const entry of outcome.evaluation ?? []) {
      if (entry.type === 'error' || !entry.item || typeof entry.score !== 'number') continue;
      let slot = this.criteria.get(entry.item);
      if (!slot) {
        if (this.criteria.size >= MAX_CRITERIA) continue;
        slot = { sum: 0, n: 0 };
        this.criteria.set(entry.item, slot);
      }
      slot.sum += entry.score;
      slot.n += 1;
      if (typeof entry.max_score === 'number') slot.max = entry.max_score;
    }
  }

  /** The figures so far, with totals counted in equal bands from 0 to the maximum score (bandCount: the terminal and the report draw the same). */
  summary(): Summary {
    const summary: Summary = {
      total: this.total,
      marked: this.marked,
      failed: this.failed,
      cancelled: this.cancelled,
      skipped: this.skipped,
      empty: this.empty,
      notEntered: this.notEntered,
      // nothing of its own charged (all reused, copies or not sent) is 0, not unknown
      ...(this.credits !== undefined || !this.creditsUnknown ? { creditsCharged: this.credits ?? 0 } : {}),
      replayed: this.replayed,
      copies: this.copies,
      identical: { count: this.identical.count, pairs: [...this.identical.pairs] },
      unscored: this.unscored,
      other: this.total - this.marked - this.unscored - this.failed - this.cancelled - this.skipped - this.empty - this.notEntered,
      mayBeCharged: this.mayBeCharged,
      histogram: [],
      criteria: [],
    };
    if (this.marked === 0) return summary;
    summary.criteria = [...this.criteria].map(([item, slot]) => {
      const mean = round(slot.sum / slot.n);
      return { item, mean, max: slot.max, ratio: slot.max ? mean / slot.max : undefined };
    });
    const rated = summary.criteria.filter((c) => c.ratio !== undefined);
    // a criterion is the weakest only when it is below another: all at 0 % (or all alike) have none
    const lowest = Math.min(...rated.map((c) => c.ratio as number));
    if (rated.length > 1 && rated.some((c) => (c.ratio as number) > lowest)) summary.weakest = rated.find((c) => c.ratio === lowest)!.item;
    // totals out of 20 and out of 10 (answers marked on different rubrics) have no one mean, median or distribution
    if (this.scales.size > 1) {
      summary.scales = [...this.scales].sort((a, b) => b - a);
      return summary;
    }
    summary.mean = round(this.sum / this.marked);
    summary.median = round(this.median());
    summary.min = this.min;
    summary.max = this.max;
    summary.maxScore = this.maxScore;
    const upper = this.maxScore ?? this.max;
    const bins = bandCount(this.maxScore);
    const width = upper / bins > 0 ? upper / bins : 1; // a maximum so small its bands underflow to 0 gets bands of 1
    summary.histogram = Array.from({ length: bins }, (_, i) => ({ from: round(i * width), to: round((i + 1) * width), count: 0 }));
    for (const [score, count] of this.totals) {
      const index = Math.min(bins - 1, Math.max(0, Math.floor(score / width)));
      summary.histogram[index].count += count;
    }
    return summary;
  }

  private pair(file: string, other: string): void {
    const key = file < other ? `${file}\u0000${other}` : `${other}\u0000${file}`;
    if (this.pairsSeen.has(key)) return;
    this.pairsSeen.add(key);
    this.identical.count += 1;
    if (this.identical.pairs.length < LISTED_PAIRS) this.identical.pairs.push([file, other]);
  }

  private keyOf(score: number): number {
    return Number((Math.round(score / this.step) * this.step).toFixed(Math.max(0, -Math.floor(Math.log10(this.step)))));
  }

  private coarsen(): void {
    while (this.totals.size > MAX_DISTINCT_TOTALS) {
      this.step *= 10;
      const coarser = new Map<number, number>();
      for (const [score, count] of this.totals) {
        const key = this.keyOf(score);
        coarser.set(key, (coarser.get(key) ?? 0) + count);
      }
      this.totals = coarser;
    }
  }

  private median(): number {
    const sorted = [...this.totals].sort(([a], [b]) => a - b);
    const at = (rank: number): number => {
      let seen = 0;
      for (const [score, count] of sorted) {
        seen += count;
        if (seen > rank) return score;
      }
      return sorted[sorted.length - 1][0];
    };
    const mid = Math.floor(this.marked / 2);
    return this.marked % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** How many bands a maximum score's histogram gets: one per mark up to 10 marks, else ten equal ones. */
export function bandCount(maxScore: number | undefined): number {
  if (maxScore !== undefined && Number.isInteger(maxScore) && maxScore >= 1 && maxScore <= 10) return maxScore;
  return 10;
}
