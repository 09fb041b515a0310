// The level a score is at, by the rubric's own points: the level whose points are the score, or
// nearest it. The score is never moved to fit a level: it is what the measurements gave, and the
// level follows from it. A criterion without level descriptors gets the sandbox's own, at 100%,
// 70%, 40% and 0 of its maximum.
import { roundHalf } from './text.js';

export interface Level {
  score: number;
  descriptor: string;
  /** One of the sandbox's own levels, for a criterion without level descriptors. */
  generic?: boolean;
}

/** Levels for a criterion whose rubric gives no level descriptors, at the seeded rubrics' shares. */
function genericLevels(max: number): Level[] {
  return [
    { score: max, descriptor: 'fully meets the criterion', generic: true },
    { score: roundHalf(max * 0.7), descriptor: 'meets most of the criterion', generic: true },
    { score: roundHalf(max * 0.4), descriptor: 'meets parts of the criterion', generic: true },
    { score: 0, descriptor: 'meets little of the criterion yet', generic: true },
  ];
}

/** Where a score stands among the levels. */
export interface Standing {
  /** The level named: its points are the score, or nearest it (the lower of two as near). */
  level: Level;
  /** The score is exactly the level's points. */
  exact: boolean;
  /** Set when the score is as near a higher level's points as the level's: halfway between them. */
  between: Level | undefined;
  /** The nearest level whose points are above both the score and the level's; undefined at the top. */
  next: Level | undefined;
}

/** The levels, highest first, one per distinct number of points (the first listed at those points). */
export function levelsOf(levels: Level[] | undefined, max: number): Level[] {
  const all = levels && levels.length > 0 ? levels : genericLevels(max);
  const seen = new Set<number>();
  return [...all]
    .sort((a, b) => b.score - a.score)
    .filter((l) => {
      if (seen.has(l.score)) return false;
      seen.add(l.score);
      return true;
    });
}

export function standing(levels: Level[] | undefined, max: number, score: number): Standing {
  const all = levelsOf(levels, max);
  const distance = (l: Level) => Math.abs(l.score - score);
  const nearest = Math.min(...all.map(distance));
  // Highest first, so the last as near is the lower of two.
  const near = all.filter((l) => Math.abs(distance(l) - nearest) < 1e-9);
  const level = near[near.length - 1];
  const between = near.length > 1 ? near[near.length - 2] : undefined;
  const floor = Math.max(score, level.score);
  const above = all.filter((l) => l.score > floor + 1e-9);
  return { level, exact: nearest < 1e-9, between, next: above[above.length - 1] };
}
