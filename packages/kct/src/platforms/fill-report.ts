// What a fill did and what the platform would skip, per student: the same shape for Moodle and
// Canvas so the CLI prints one table and `--json` gives scripts one schema.
import type { Rounding } from './grade-scale.js';

/**
 * - filled: the grade cell (and feedback, when there is a column for it) was written.
 * - refused: the student was marked but kct left the row as it was, because the platform would
 *   skip or misread the grade (`reason`).
 * - not-in-file: marked, but the file has no row for this student.
 * - not-marked: a row of the file that no mark is for; left untouched.
 */
export type FillStatus = 'filled' | 'refused' | 'not-in-file' | 'not-marked';

export type RefusalReason =
  /** The score is outside the rubric's range, so the grade would be outside the column's. */
  | 'out-of-range'
  /** The mark itself is unusable (not a number, a maximum of 0). */
  | 'invalid-mark'
  /** The row gives no usable maximum grade to scale to. */
  | 'no-maximum'
  /** Moodle: "Grade can be changed" is No (locked or released); the importer skips the row. */
  | 'grade-locked'
  /** Canvas: the cell says N/A (the assignment is not assigned to this student). */
  | 'not-assigned'
  /** Canvas: the cell says EX (excused); kct does not lift an excusal. */
  | 'excused'
  /** Canvas: anonymous grading with scores hidden from instructors; the importer skips them. */
  | 'hidden-anonymous';

export type FillWarning =
  /** The row already held a grade, which the fill replaced. The platform skips the row if that grade was changed there after the file was downloaded. */
  | 'overwrites-grade'
  /** Several rows carry this student's id; all were filled. */
  | 'duplicate-row'
  /** A feedback text was given but the file has no feedback column; only the grade was written. */
  | 'feedback-not-written';

export interface FillEntry {
  participantId: string;
  /** The name in the file ("Full name" or "Student"), when the row has one. */
  displayName?: string;
  status: FillStatus;
  /** The grade written (filled) or that would have been (refused, when computable). */
  grade?: string;
  /** The grade cell before the fill, when it was not empty. */
  previousGrade?: string;
  /** Moodle: the row's "Last modified (grade)", the time the importer compares against. */
  lastModified?: string;
  reason?: RefusalReason;
  /** One sentence a teacher can act on, for refusals. */
  detail?: string;
  warnings: FillWarning[];
  /** The 1-based line of the row in the file. */
  line?: number;
}

export interface FillReport {
  platform: 'moodle' | 'canvas';
  /** The column filled and the maximum grades were scaled to. */
  target: { column: string; maximum: number };
  rounding: Rounding;
  entries: FillEntry[];
  counts: Record<FillStatus, number>;
  /** Every marked student has a row and every row was marked (the exit-code question). */
  studentsMatch: boolean;
  /** File-wide facts a teacher should read before importing. */
  notes: string[];
}

export interface FillResult {
  /** The new file: the input's bytes with only the filled cells changed. */
  bytes: Buffer;
  report: FillReport;
}

/** Puts the report together from its entries: counts, and whether the students match. */
export function summarise(base: Omit<FillReport, 'counts' | 'studentsMatch'>): FillReport {
  const counts: Record<FillStatus, number> = { filled: 0, refused: 0, 'not-in-file': 0, 'not-marked': 0 };
  for (const entry of base.entries) counts[entry.status] += 1;
  return { ...base, counts, studentsMatch: counts['not-in-file'] === 0 && counts['not-marked'] === 0 };
}
