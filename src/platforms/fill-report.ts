// What a fill did and what the platform would skip, per student: the same shape for Moodle and
// Canvas so the CLI prints one table and `--json` gives scripts one schema.
import { KctError, type KctErrorOptions } from '../api/errors.js';
import { plural } from '../api/numbers.js';
import type { Rounding } from './grade-scale.js';
import { isPlatformId } from './submissions.js';

/**
 * - filled: the grade cell (and feedback, when there is a column for it) was written.
 * - refused: the student was marked but kct left the row as it was, because the platform would
 *   skip or misread the grade (`reason`).
 * - not-in-file: marked, but the file has no row for this student.
 * - not-marked: a row of the file that no mark is for; left untouched.
 */
type FillStatus = 'filled' | 'refused' | 'not-in-file' | 'not-marked';

type RefusalReason =
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
  | 'hidden-anonymous'
  /** The row's name is not the mark's student's: another class's or assignment's file, whose ids recur. */
  | 'other-student'
  /** Not marked: the file says the student submitted, and the saved run (named alone) has no row for them. */
  | 'not-in-run';

type FillWarning =
  /** The row already held a grade, which the fill replaced. The platform skips the row if that grade was changed there after the file was downloaded. */
  | 'overwrites-grade'
  /** Moodle, with overwriteFeedback: the row's feedback cell held a comment, which the marks' feedback replaced (in `previousFeedback`). */
  | 'overwrites-feedback'
  /** Moodle: the row's feedback cell held a comment, kept as it was (in `previousFeedback`); the marks' feedback was not written. */
  | 'keeps-feedback'
  /** Several rows carry this student's id; all were filled. */
  | 'duplicate-row'
  /** A feedback text was given but the file has no feedback column; only the grade was written. */
  | 'feedback-not-written'
  /** The run's row of the student says something about the mark (say, a file of the submission left out): in `note`. */
  | 'row-note';

export interface FillEntry {
  participantId: string;
  /** The name in the file ("Full name" or "Student"), when the row has one. */
  displayName?: string;
  status: FillStatus;
  /** The grade written (filled) or that would have been (refused, when computable). */
  grade?: string;
  /** The grade cell before the fill, when it was not empty. */
  previousGrade?: string;
  /** Moodle: the comment the feedback cell held, when it was not the marks' feedback: kept (keeps-feedback) or replaced (overwrites-feedback). */
  previousFeedback?: string;
  /** Moodle: the row's "Last modified (grade)", the time the importer compares against. */
  lastModified?: string;
  reason?: RefusalReason;
  /** One sentence a teacher can act on, for refusals. */
  detail?: string;
  warnings: FillWarning[];
  /** With 'row-note': what the run's row said (its message). */
  note?: string;
  /** The 1-based line of the row in the file. */
  line?: number;
  /** What became of the student in the download that was marked (compareWithDownload); absent when the student is not in it. */
  download?: DownloadOutcome;
  /** Moodle: the row's Status when it says the student submitted ("Submitted for grading") and no grade is in the row yet. */
  submitted?: string;
}

/** A student's outcome in the download: the row's status (SUCCESS, EMPTY, SKIPPED, FAILURE, ...) and why, when not marked. */
interface DownloadOutcome {
  status: string;
  reason?: string;
}

export interface FillReport {
  platform: 'moodle' | 'canvas';
  /** The column filled and the maximum grades were scaled to. */
  target: { column: string; maximum: number };
  rounding: Rounding;
  entries: FillEntry[];
  counts: Record<FillStatus, number>;
  /**
   * The students on both sides are the same: every marked student has a row and every row was
   * marked; after compareWithDownload, every student of the download has a row (a row whose student
   * handed nothing in is a note: a class has such students, and their rows need no grade).
   */
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
  return { ...base, counts, studentsMatch: counts['not-in-file'] === 0 && counts['not-marked'] === 0 && !namesOther(base.entries) };
}

/** The detail of a row whose student handed nothing in. */
const NO_SUBMISSION = 'not in the download: no submission to grade';

/** A row of the file whose student has no submission in the download (handed nothing in): a note, not a mismatch. */
export const hasNoSubmission = (entry: FillEntry): boolean =>
  entry.status === 'not-marked' && entry.download === undefined && entry.reason !== 'not-in-run';

/** A row the grade file says was submitted, that a saved run named alone (no --download) has no row for: a run stopped, or cut. */
export const isMissingFromRun = (entry: FillEntry): boolean => entry.reason === 'not-in-run';

/** A student of the download that was marked, and what became of them. */
export interface DownloadStudent {
  participantId: string;
  displayName?: string;
  status: string;
  reason?: string;
}

/**
 * The report set against the whole download, not only the marks: a row not marked whose student
 * is in the download (an empty or failed submission) is told apart from a row of a student with
 * no submission at all, and a student of the download with no row in the file is listed even when
 * not marked. Students match when every student of the download has a row: a row with no
 * submission (a student who handed nothing in) is said in the notes, and is no mismatch.
 */
export function compareWithDownload(report: FillReport, students: readonly DownloadStudent[], runOnly?: string): FillReport {
  const byId = new Map(students.map((student) => [student.participantId, student]));
  const outcome = (student: DownloadStudent): DownloadOutcome => ({
    status: student.status,
    ...(student.reason ? { reason: student.reason } : {}),
  });
  const entries: FillEntry[] = report.entries.map((entry) => {
    const student = byId.get(entry.participantId);
    // why the row was left as it was, in the entry itself: every format says it (the text, --json, CSV's detail)
    if (!student) {
      if (entry.status !== 'not-marked' || entry.detail !== undefined) return entry;
      // the students are the saved run's (no --download): a row the file says was submitted is missing from it, not empty
      if (runOnly !== undefined && entry.submitted !== undefined)
        return { ...entry, reason: 'not-in-run' as const, detail: `no row in ${runOnly}, though the file says "${entry.submitted}"` };
      return { ...entry, detail: NO_SUBMISSION };
    }
    const displayName = entry.displayName ?? student.displayName;
    return { ...entry, ...(displayName !== undefined ? { displayName } : {}), download: outcome(student) };
  });
  const listed = new Set(entries.map((entry) => entry.participantId));
  for (const student of students) {
    if (listed.has(student.participantId)) continue;
    entries.push({
      participantId: student.participantId,
      ...(student.displayName !== undefined ? { displayName: student.displayName } : {}),
      status: 'not-in-file',
      warnings: [],
      download: outcome(student),
    });
  }
  const notes = [...report.notes];
  const noSubmission = entries.filter(hasNoSubmission);
  const noRow = entries.filter((entry) => entry.status === 'not-in-file');
  // an id that is no platform's (a name from a file: a plain folder marked) never has a row: no student joined late
  const fromFiles = noRow.filter((entry) => !isPlatformId(report.platform, entry.participantId));
  const joined = noRow.filter((entry) => isPlatformId(report.platform, entry.participantId));
  const names = (list: FillEntry[]) =>
    `${list
      .slice(0, 5)
      .map((entry) => entry.displayName ?? entry.participantId)
      .join(', ')}${list.length > 5 ? `, and ${list.length - 5} more` : ''}`;
  if (joined.length > 0) {
    notes.push(
      `${plural(joined.length, 'student')} of the download ${joined.length === 1 ? 'has' : 'have'} no row in the file (${names(joined)}), so the platform has nowhere to put their grade. ` +
        'Download the file again (a student who joined after it was downloaded has no row in it), or enter these grades by hand.',
    );
  }
  if (fromFiles.length > 0) {
    notes.push(
      `${plural(fromFiles.length, 'mark')} of the saved run ${fromFiles.length === 1 ? 'has' : 'have'} no row in the file: ${fromFiles.length === 1 ? 'its student id' : 'their student ids'} ${idsFromFiles(
        report.platform,
        fromFiles.map((entry) => entry.participantId),
      )}`,
    );
  }
  if (noSubmission.length > 0) {
    notes.push(
      `${plural(noSubmission.length, 'row')} of the file ${noSubmission.length === 1 ? 'is a student' : 'are students'} with no submission in the download (${names(noSubmission)}); their rows are left as they were.`,
    );
  }
  const base = summarise({ ...report, entries, notes });
  return { ...base, studentsMatch: noRow.length === 0 && !namesOther(entries) && !entries.some(isMissingFromRun) };
}

/**
 * Why student ids that are not the platform's (isPlatformId) have no row, and what to do: they are
 * names from files (a plain folder was marked), which no grade file holds. Follows "its student ids".
 */
export function idsFromFiles(platform: 'moodle' | 'canvas', ids: readonly string[]): string {
  const name = platform === 'moodle' ? 'Moodle' : 'Canvas';
  const listed = `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', …' : ''}`;
  return `(${listed}) ${ids.length === 1 ? 'is a name from a file' : 'are names from files'}, not ${name}'s ids: mark the submissions as ${name} downloads them (kct one-pass <the download's zip or folder>), whose rows carry them.`;
}

/** A row of the file names another student than the mark with its id (student-names.ts). */
const namesOther = (entries: readonly FillEntry[]): boolean => entries.some((entry) => entry.reason === 'other-student');

/** A grade file was filled, but some students of the download have no row in it: their grades cannot be imported. */
export class StudentsMismatchError extends KctError {
  constructor(message: string, options: KctErrorOptions = {}) {
    super('students_mismatch', message, options);
  }
}
