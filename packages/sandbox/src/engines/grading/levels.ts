// The level a criterion's score reaches, and the band of scores each level covers. A rubric's
// level covers the scores up to its own ("3-4: ..." is stored as 4 and covers 3 and 4); the
// sandbox's own bands, for a criterion without descriptors, start at theirs (40%, 70%...). The
// level named is the one the evidence fits (claims.ts), and the score is kept inside its band, so
// the score, the level and the feedback say the same thing.
import { type Clause, contradicted, type Facts, readClaims } from './claims.js';
import { roundHalf } from './text.js';

export interface Level {
  score: number;
  descriptor: string;
  /** One of the sandbox's own bands, for a criterion without level descriptors. */
  generic?: boolean;
}

/** Bands for a criterion whose rubric gives no level descriptors, at the seeded rubrics' thresholds. */
function genericLevels(max: number): Level[] {
  return [
    { score: max, descriptor: 'fully meets the criterion', generic: true },
    { score: roundHalf(max * 0.7), descriptor: 'meets most of the criterion', generic: true },
    { score: roundHalf(max * 0.4), descriptor: 'meets parts of the criterion', generic: true },
    { score: 0, descriptor: 'meets little of the criterion yet', generic: true },
  ];
}

const ceilHalf = (x: number) => Math.ceil(x * 2 - 1e-9) / 2;
const floorHalf = (x: number) => Math.floor(x * 2 + 1e-9) / 2;

export interface Band {
  level: Level;
  low: number;
  high: number;
}

/** The levels, highest first, each with the scores (in steps of 0.5) that reach it. */
export function bands(levels: Level[] | undefined, max: number): Band[] {
  const own = levels && levels.length > 0;
  const sorted = [...(own ? levels : genericLevels(max))].sort((a, b) => b.score - a.score);
  const scores = [...new Set(sorted.map((l) => l.score))];
  return sorted.map((level) => {
    const at = scores.indexOf(level.score);
    if (!own) {
      // The sandbox's bands start at their score.
      const above = at > 0 ? scores[at - 1] : undefined;
      return {
        level,
        low: at === scores.length - 1 ? 0 : ceilHalf(level.score),
        high: above === undefined ? max : Math.max(ceilHalf(level.score), ceilHalf(above) - 0.5),
      };
    }
    // A rubric's level ends at its score: "3-4" is stored as 4 and covers everything above 2.
    const below = at < scores.length - 1 ? scores[at + 1] : undefined;
    const high = at === 0 ? max : Math.min(max, floorHalf(level.score));
    const low = below === undefined ? 0 : Math.min(high, floorHalf(below) + 0.5);
    return { level, low, high };
  });
}

/** The band a score falls in (the lowest for a score below every band). */
function bandAt(all: Band[], score: number): number {
  const i = all.findIndex((b) => score >= b.low && score <= b.high);
  if (i >= 0) return i;
  return score > all[0].high ? 0 : all.length - 1;
}

/** The next level up from a band: the nearest band above with a higher score. */
function nextUp(all: Band[], index: number): Level | undefined {
  return all
    .slice(0, index)
    .reverse()
    .find((b) => b.level.score > all[index].level.score)?.level;
}

/** What a level's descriptor claims about an answer (nothing for the sandbox's own bands). */
export function levelClaims(level: Level): Clause[] {
  return level.generic ? [] : readClaims(level.descriptor);
}

/** How the level named relates to the evidence: it fits; none fits and it is the nearest; or the score was held there (off the topic). */
export type Fit = 'fits' | 'nearest' | 'held';

export interface Judged {
  level: Level;
  next: Level | undefined;
  score: number;
  fit: Fit;
}

/**
 * The level the evidence fits, nearest the measured score, and the score kept within its band.
 * A level fits when none of its descriptor's claims goes against the facts ("no real
 * counter-argument" for an answer that has one). When none fits, the one with fewest misfits,
 * nearest the score, moving the way the misfits point (up when the descriptor denies what the
 * answer has). Bands above `ceiling` are not offered unless the score is already there. With
 * `hold`, the score's own level is kept whatever the evidence (an answer held down as off the topic).
 */
export function judgeLevel(
  levels: Level[] | undefined,
  max: number,
  score: number,
  facts: Facts,
  options: { ceiling?: number; hold?: boolean } = {},
): Judged {
  const ceiling = options.ceiling ?? max;
  const all = bands(levels, max);
  const at = bandAt(all, score);
  const misfit = all.map((b) => levelClaims(b.level).filter((c) => contradicted(c, facts)));
  if (options.hold) return { level: all[at].level, next: nextUp(all, at), score, fit: misfit[at].length === 0 ? 'fits' : 'held' };
  const direction = (i: number) => misfit[i].reduce((n, c) => n + (c.every((x) => !x.holds) ? 1 : c.every((x) => x.holds) ? -1 : 0), 0);
  const pull = Math.sign(direction(at));
  const offered = all.map((b, i) => i === at || b.low <= ceiling);
  let best = at;
  for (let i = 0; i < all.length; i++) {
    if (!offered[i]) continue;
    const better =
      misfit[i].length - misfit[best].length ||
      Math.abs(i - at) - Math.abs(best - at) ||
      // Equally near: the way the misfits point (a lower index is a higher level).
      (pull > 0 ? i - best : pull < 0 ? best - i : best - i);
    if (better < 0) best = i;
  }
  const band = all[best];
  const kept = Math.min(band.high, Math.max(band.low, score));
  return { level: band.level, next: nextUp(all, best), score: kept, fit: misfit[best].length === 0 ? 'fits' : 'nearest' };
}
