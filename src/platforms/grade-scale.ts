// From a rubric's score to the number a platform's grade column takes: scaled to the column's
// maximum, rounded as the teacher chooses, written with '.' as the decimal point.
//
// '.' is safe on both platforms whatever their language: Moodle's importer reads the cell with
// unformat_float (lib/moodlelib.php), which only swaps the language's decimal separator for '.'
// and so leaves '.' alone; Canvas's importer turns ',' into '.' (gradebook_importer.rb,
// decimal_comma_to_period) and leaves '.' alone.

/** How a scaled grade is rounded: to a whole number, to halves, to one or to two decimals. */
export type Rounding = 'integer' | 'half' | 'one-decimal' | 'two-decimals';

export const ROUNDINGS: readonly Rounding[] = ['integer', 'half', 'one-decimal', 'two-decimals'];

/** Two decimals: what Moodle's worksheet shows by default and what Canvas's export keeps. */
export const DEFAULT_ROUNDING: Rounding = 'two-decimals';

/** What a student earned on the rubric. */
export interface Mark {
  score: number;
  maxScore: number;
  /** Feedback for the student (plain text). */
  feedback?: string;
  /** The student's name as the run has it, to check against the file's row (student-names.ts). */
  name?: string;
}

export type ScaledGrade =
  | { ok: true; value: number; text: string }
  | { ok: false; reason: 'invalid-mark' | 'out-of-range'; detail: string };

/**
 * `mark` scaled to `maximum` and rounded. A score outside 0..maxScore is out of range (the
 * platforms skip or misread it); a grade that rounding alone lifts above the maximum is rounded
 * down instead, since the teacher's intent was a grade within range.
 */
export function scaleGrade(mark: Pick<Mark, 'score' | 'maxScore'>, maximum: number, rounding: Rounding): ScaledGrade {
  const { score, maxScore } = mark;
  if (!Number.isFinite(score) || !Number.isFinite(maxScore) || maxScore <= 0) {
    return { ok: false, reason: 'invalid-mark', detail: `the mark ${score} out of ${maxScore} is not a usable score` };
  }
  if (score < 0 || score > maxScore) {
    return { ok: false, reason: 'out-of-range', detail: `the score ${score} is outside 0 to ${maxScore}` };
  }
  // multiply first: 17 * 100 / 20 is exact where 17 / 20 * 100 is not
  const exact = (score * maximum) / maxScore;
  let value = roundTo(exact, rounding, 'nearest');
  if (value > maximum) value = roundTo(exact, rounding, 'down');
  return { ok: true, value, text: value.toFixed(DECIMALS[rounding]) };
}

const DECIMALS: Record<Rounding, number> = { integer: 0, half: 1, 'one-decimal': 1, 'two-decimals': 2 };
const STEPS: Record<Rounding, number> = { integer: 1, half: 2, 'one-decimal': 10, 'two-decimals': 100 };

/** Rounds half up on the decimal value (1.005 to 1.01), not on its binary approximation. */
function roundTo(value: number, rounding: Rounding, direction: 'nearest' | 'down'): number {
  const perUnit = STEPS[rounding];
  // 12 significant digits remove the binary noise of the division without changing a real digit
  const scaled = Number((value * perUnit).toPrecision(12));
  return (direction === 'nearest' ? Math.round(scaled) : Math.floor(scaled)) / perUnit;
}
