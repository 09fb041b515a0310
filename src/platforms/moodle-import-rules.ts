// What Moodle's importer would take from a grading worksheet, following its code step by step
// (moodle/moodle): csv_import_reader::load_csv_content (lib/csvlib.class.php) strips the BOM,
// turns "\r\n" and "\r" into "\n" and trims the file; assignfeedback_offline_grade_importer
// (mod/assign/feedback/offline/importgradeslib.php) finds the columns by exact name and keys each
// row by what follows "Participant "; assign_feedback_offline::process_import_grades
// (mod/assign/feedback/offline/locallib.php) reads the grade with unformat_float
// (lib/moodlelib.php) and skips it when empty, negative, above the maximum or locked.
//
// It shares no code with the writer on purpose: tests use it as the oracle that a filled worksheet
// imports as intended. What it cannot know without Moodle (the grade's current value and time,
// which users exist) is left out or passed in.
import { parse } from 'csv-parse/sync';
import { MOODLE_COLUMN_NAMES, type MoodleColumnNames } from './moodle-worksheet.js';

interface MoodleImport {
  participantId: string;
  grade: number;
  /** Text of the feedback column, when the worksheet has one the importer reads. */
  feedback?: string;
}

type MoodleSkipReason = 'no-participant' | 'empty' | 'negative' | 'above-maximum' | 'locked';

export interface MoodleImportResult {
  /** Every grade the importer would set, by participant id (a later row overrides an earlier one). */
  imports: Map<string, MoodleImport>;
  skipped: { participantId?: string; reason: MoodleSkipReason }[];
}

export interface MoodleImportOptions {
  /** The assignment's maximum grade (Moodle knows it; the importer does not read the column). */
  maxGrade?: number;
  /** The language's decimal separator (langconfig `decsep`). */
  decimalSeparator?: string;
  /** Participants whose grade Moodle has locked (grading_disabled). */
  locked?: ReadonlySet<string>;
  columnNames?: Partial<MoodleColumnNames>;
}

const HIDDEN_USER = 'Participant '; // get_string('hiddenuser', 'assign')

/** The grades Moodle would import from `bytes`; throws when Moodle would refuse the file. */
export function readAsMoodleImports(bytes: Uint8Array, options: MoodleImportOptions = {}): MoodleImportResult {
  const names = { ...MOODLE_COLUMN_NAMES, ...options.columnNames };
  let content = Buffer.from(bytes).toString('utf8');
  if (content.startsWith('\uFEFF')) content = content.slice(1);
  content = content.replace(/\r\n?/g, '\n').trim();
  const records = parse(content, { relax_column_count: true, skip_empty_lines: false }) as string[][];
  const columns = records[0] ?? [];
  let idIndex = -1;
  let gradeIndex = -1;
  let modifiedIndex = -1;
  let feedbackIndex: number | undefined;
  for (const [index, column] of columns.entries()) {
    if (column === names.grade) gradeIndex = index;
    if (column === names.identifier) idIndex = index;
    if (column === names.lastModified) modifiedIndex = index;
    if (column === names.feedback) feedbackIndex = index;
  }
  if (idIndex < 0 || gradeIndex < 0 || modifiedIndex < 0) {
    throw new Error('Moodle could not read the uploaded worksheet (invalidgradeimport)');
  }
  const result: MoodleImportResult = { imports: new Map(), skipped: [] };
  for (const record of records.slice(1)) {
    const id = (record[idIndex] ?? '').slice(HIDDEN_USER.length);
    if (!/^\d+$/.test(id)) {
      result.skipped.push({ reason: 'no-participant' });
      continue;
    }
    const grade = unformatFloat(record[gradeIndex], options.decimalSeparator ?? '.');
    const reason: MoodleSkipReason | undefined =
      grade === null
        ? 'empty'
        : grade < 0
          ? 'negative'
          : options.locked?.has(id)
            ? 'locked'
            : options.maxGrade !== undefined && grade > options.maxGrade
              ? 'above-maximum'
              : undefined;
    if (reason) {
      result.skipped.push({ participantId: id, reason });
      continue;
    }
    // `!empty($details['index'])`: a feedback column at index 0 is never read
    const feedback = feedbackIndex ? (record[feedbackIndex] ?? '') : undefined;
    result.imports.set(id, { participantId: id, grade: grade!, ...(feedback !== undefined ? { feedback } : {}) });
  }
  return result;
}

/** unformat_float: null when blank; spaces removed; the decimal separator made '.'; then PHP's (float). */
function unformatFloat(cell: string | undefined, decimalSeparator: string): number | null {
  if (cell === undefined) return null;
  const trimmed = cell.trim();
  if (trimmed === '') return null;
  return phpFloat(trimmed.replaceAll(' ', '').replaceAll(decimalSeparator, '.'));
}

/** PHP's (float) cast of a string: its leading number, or 0 when it has none. */
function phpFloat(text: string): number {
  const match = /^[ \t\n\r\v\f]*([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)/.exec(text);
  return match ? Number(match[1]) : 0;
}
