// Moodle's offline grading worksheet ("Download grading worksheet", assignfeedback_offline):
// read it exactly, and fill the Grade (and Feedback comments) cells of the marked participants,
// leaving every other byte as Moodle wrote it.
//
// Facts from Moodle's code (moodle/moodle):
// - mod/assign/gradingtable.php writes the worksheet: `Identifier` is get_string('hiddenuser')
//   ("Participant ") plus the participant's unique id for this assignment; `Grade` and `Maximum
//   Grade` are format_float(..., decimals); `Grade can be changed` is Yes/No; `Last modified
//   (grade)` is userdate() or "-"; the feedback columns are named after the plugin's editor field
//   (`Feedback comments`); a scale assignment has a `Scale` column instead of `Maximum Grade`.
// - mod/assign/feedback/offline/importgradeslib.php finds `Identifier`, `Grade` and `Last
//   modified (grade)` by exact name and refuses the file without them; keys each row by what
//   follows "Participant ".
// - mod/assign/feedback/offline/locallib.php (process_import_grades) skips a grade that is empty,
//   negative or above the maximum, a row whose grade is locked, and a row whose grade was changed
//   in Moodle more than 60 s after the row's `Last modified (grade)` (unless the teacher ticks
//   "Allow updating records that have been modified more recently in Moodle than in the spreadsheet").
import { UsageError } from '../api/errors.js';
import { plural } from '../api/numbers.js';
import {
  type CellEdits,
  type CsvDocument,
  isBlankRecord,
  quoteLikePhp,
  readCsvDocument,
  readDecimal,
  writeCsvDocument,
} from './csv-document.js';
import { feedbackAsHtml } from './feedback-html.js';
import { type FillEntry, type FillReport, type FillResult, summarise } from './fill-report.js';
import { DEFAULT_ROUNDING, type Mark, type Rounding, scaleGrade } from './grade-scale.js';
import { otherStudent } from './student-names.js';

/** The worksheet's column headers (English, as Moodle writes them). */
export interface MoodleColumnNames {
  identifier: string;
  fullName: string;
  status: string;
  grade: string;
  maxGrade: string;
  canChange: string;
  lastModified: string;
  feedback: string;
  scale: string;
}

export const MOODLE_COLUMN_NAMES: Readonly<MoodleColumnNames> = {
  identifier: 'Identifier',
  fullName: 'Full name',
  status: 'Status',
  grade: 'Grade',
  maxGrade: 'Maximum Grade',
  canChange: 'Grade can be changed',
  lastModified: 'Last modified (grade)',
  feedback: 'Feedback comments',
  scale: 'Scale',
};

/** Column indexes; the three Moodle's importer needs are always there. */
type MoodleColumns = { identifier: number; grade: number; lastModified: number } & Partial<
  Record<Exclude<keyof MoodleColumnNames, 'identifier' | 'grade' | 'lastModified'>, number>
>;

interface MoodleWorksheetRow {
  /** Index of the row's record in `doc.records`. */
  record: number;
  line: number;
  identifier: string;
  /** The unique id after "Participant "; undefined when the identifier has no number. */
  participantId?: string;
  fullName?: string;
  /** "Submitted for grading", "No submission", ...; undefined without the column. */
  status?: string;
  grade: string;
  maxGrade?: string;
  canChange?: string;
  lastModified: string;
  feedback?: string;
}

export interface MoodleWorksheet {
  doc: CsvDocument;
  header: string[];
  columns: MoodleColumns;
  rows: MoodleWorksheetRow[];
}

export interface ReadMoodleOptions {
  /** Other header names, for a worksheet downloaded in another language. */
  columnNames?: Partial<MoodleColumnNames>;
}

const WHAT = 'The Moodle grading worksheet';
const DOWNLOAD_AGAIN = 'Download it again in Moodle: the assignment, "View all submissions", then "Download grading worksheet".';

/** Reads a worksheet; refuses (UsageError) one Moodle's importer would refuse. */
export function readMoodleWorksheet(bytes: Uint8Array, options: ReadMoodleOptions = {}): MoodleWorksheet {
  const names = { ...MOODLE_COLUMN_NAMES, ...options.columnNames };
  const doc = readCsvDocument(bytes, { delimiter: ',', what: WHAT });
  const headerRecord = doc.records[0];
  if (!headerRecord || isBlankRecord(headerRecord)) throw new UsageError(`${WHAT} is empty.`, { suggestion: DOWNLOAD_AGAIN });
  const header = headerRecord.cells.map((c) => c.value);
  // the importer loops over every column, so the last of two equal headers wins
  const find = (key: keyof MoodleColumnNames): number | undefined => {
    const index = header.lastIndexOf(names[key]);
    return index < 0 ? undefined : index;
  };
  const missing = (['identifier', 'grade', 'lastModified'] as const).filter((key) => find(key) === undefined);
  if (missing.length > 0) {
    const semicolons = header.length === 1 && header[0].includes(';') ? ' It looks separated by semicolons, perhaps by a spreadsheet.' : '';
    const columns = `${missing.map((key) => `"${names[key]}"`).join(', ')} ${missing.length === 1 ? 'column' : 'columns'}`;
    // Canvas's gradebook export starts with its Student and ID columns (as canvas-gradebook.ts tells the other way round)
    if (
      header.length > 3 &&
      /^\uFEFF?(Student|LastName)$/.test(header[0].trim()) &&
      header.slice(1, 3).some((cell) => cell.trim() === 'ID')
    )
      throw new UsageError(`${WHAT} has no "Identifier" column: it looks like Canvas's gradebook export.`, {
        suggestion: 'Fill it with kct grades canvas <saved-run> <export.csv> --assignment <name>.',
      });
    // none of Moodle's English names, in a header of many: a Moodle in another language, whose importer reads its own
    if (missing.length === 3 && !semicolons && header.length >= 4)
      throw new UsageError(
        `${WHAT} has none of the ${columns} kct reads (its header is ${header
          .slice(0, 4)
          .map((name) => `"${name}"`)
          .join(', ')}, ...): perhaps Moodle wrote it in another language.`,
        {
          suggestion:
            "kct reads the worksheet's English column names. Switch your Moodle to English (user menu, Language), download the grading worksheet again, and import the filled file in English too: Moodle's importer reads the column names in the language of the person importing.",
        },
      );
    throw new UsageError(
      `${WHAT} has no ${columns}, and Moodle's importer refuses a file without ${missing.length === 1 ? 'it' : 'them'}.${semicolons}`,
      {
        suggestion: DOWNLOAD_AGAIN,
      },
    );
  }
  const columns: MoodleColumns = { identifier: find('identifier')!, grade: find('grade')!, lastModified: find('lastModified')! };
  for (const key of ['fullName', 'status', 'maxGrade', 'canChange', 'feedback', 'scale'] as const) {
    const index = find(key);
    if (index !== undefined) columns[key] = index;
  }
  const rows: MoodleWorksheetRow[] = [];
  for (const [index, record] of doc.records.entries()) {
    if (index === 0 || isBlankRecord(record)) continue;
    const cell = (column: number | undefined) => (column === undefined ? undefined : (record.cells[column]?.value ?? ''));
    const identifier = cell(columns.identifier)!;
    rows.push({
      record: index,
      line: record.line,
      identifier,
      participantId: /(\d+)\s*$/.exec(identifier)?.[1],
      fullName: cell(columns.fullName),
      status: cell(columns.status),
      grade: cell(columns.grade)!,
      maxGrade: cell(columns.maxGrade),
      canChange: cell(columns.canChange),
      lastModified: cell(columns.lastModified)!,
      feedback: cell(columns.feedback),
    });
  }
  return { doc, header, columns, rows };
}

export interface MoodleFillOptions extends ReadMoodleOptions {
  rounding?: Rounding;
  /** The assignment's maximum grade: needed when the worksheet has no "Maximum Grade" column; overrides it otherwise. */
  maxGrade?: number;
  /** Feedback as HTML (default: Moodle stores feedback comments as HTML), as given, or not written. */
  feedback?: 'html' | 'text' | 'none';
  /** Write the marks' feedback over a comment already in the cell (default: the comment is kept; feedback goes into empty cells only). */
  overwriteFeedback?: boolean;
}

/**
 * Fills the worksheet for `marks` (keyed by participant id, the number after "Participant "):
 * the Grade cell scaled to the row's Maximum Grade, and Feedback comments when that column
 * exists. Rows not marked, and marked rows the importer would skip, are left byte for byte.
 */
export function fillMoodleWorksheet(bytes: Uint8Array, marks: ReadonlyMap<string, Mark>, options: MoodleFillOptions = {}): FillResult {
  const sheet = readMoodleWorksheet(bytes, options);
  const { columns, doc } = sheet;
  const rounding = options.rounding ?? DEFAULT_ROUNDING;
  if (columns.maxGrade === undefined && columns.scale !== undefined) {
    throw new UsageError(`${WHAT} is for an assignment graded with a scale; kct fills point grades only.`, {
      suggestion: 'Grade this assignment in points in Moodle, or enter the scale items by hand.',
    });
  }
  if (columns.maxGrade === undefined && options.maxGrade === undefined) {
    throw new UsageError(`${WHAT} has no "Maximum Grade" column, so kct cannot scale the grades.`, {
      suggestion: "Give the assignment's maximum grade (the wiring's --max-grade), or download the worksheet again.",
    });
  }
  // Moodle reads a grade as out of the assignment's maximum, which the worksheet shows: a grade scaled
  // to another would be imported wrong, so the whole fill is refused, not some rows
  const fileMaximum = readDecimal(sheet.rows.find((r) => r.maxGrade !== undefined)?.maxGrade ?? '');
  if (options.maxGrade !== undefined && fileMaximum !== undefined && fileMaximum !== options.maxGrade) {
    throw new UsageError(
      `--max-grade ${options.maxGrade} is not the worksheet's Maximum Grade ${fileMaximum}: Moodle reads each grade as out of ${fileMaximum}, so grades scaled to ${options.maxGrade} would be imported wrong. Nothing was written.`,
      {
        suggestion: `Leave out --max-grade (kct scales to the worksheet's ${fileMaximum}), or download the worksheet again if the assignment's maximum changed in Moodle.`,
      },
    );
  }
  const feedbackMode = options.feedback ?? 'html';
  const idCount = new Map<string, number>();
  for (const row of sheet.rows) if (row.participantId) idCount.set(row.participantId, (idCount.get(row.participantId) ?? 0) + 1);

  const edits = new Map<number, Map<number, string>>();
  const entries: FillEntry[] = [];
  for (const row of sheet.rows) {
    if (!row.participantId) continue;
    const base = {
      participantId: row.participantId,
      ...(row.fullName !== undefined ? { displayName: row.fullName } : {}),
      ...(row.grade.trim() !== '' ? { previousGrade: row.grade } : {}),
      lastModified: row.lastModified,
      line: row.line,
    };
    const mark = marks.get(row.participantId);
    if (!mark) {
      // "Submitted for grading" and not graded yet (not a draft, not "No submission"): a grade the file still waits for
      const submitted = row.status && /submitted for grading/i.test(row.status) && row.grade.trim() === '' ? { submitted: row.status } : {};
      entries.push({ ...base, status: 'not-marked', warnings: [], ...submitted });
      continue;
    }
    const other = otherStudent(mark.name, row.fullName);
    if (other) {
      entries.push({ ...base, status: 'refused', reason: 'other-student', detail: other, warnings: [] });
      continue;
    }
    const maximum = options.maxGrade ?? readDecimal(row.maxGrade ?? '');
    if (maximum === undefined || !(maximum > 0)) {
      entries.push({
        ...base,
        status: 'refused',
        reason: 'no-maximum',
        detail: `the row's Maximum Grade "${row.maxGrade}" is not a positive number`,
        warnings: [],
      });
      continue;
    }
    const scaled = scaleGrade(mark, maximum, rounding);
    if (!scaled.ok) {
      entries.push({ ...base, status: 'refused', reason: scaled.reason, detail: scaled.detail, warnings: [] });
      continue;
    }
    // --max-grade may differ from the row's: Moodle's importer skips a grade above the assignment's maximum, which the row shows
    const rowMaximum = readDecimal(row.maxGrade ?? '');
    if (rowMaximum !== undefined && scaled.value > rowMaximum) {
      entries.push({
        ...base,
        status: 'refused',
        grade: scaled.text,
        reason: 'out-of-range',
        detail: `above the row's Maximum Grade ${row.maxGrade}, so Moodle would skip it (scaled to ${maximum}: check --max-grade)`,
        warnings: [],
      });
      continue;
    }
    if (row.canChange !== undefined && row.canChange.trim().toLowerCase() === 'no') {
      entries.push({
        ...base,
        status: 'refused',
        grade: scaled.text,
        reason: 'grade-locked',
        detail: 'the worksheet says the grade cannot be changed (locked or already released), so Moodle would skip it',
        warnings: [],
      });
      continue;
    }
    const rowEdits = new Map<number, string>([[columns.grade, quoteLikePhp(scaled.text, ',')]]);
    const warnings: FillEntry['warnings'] = [];
    if (base.previousGrade !== undefined) warnings.push('overwrites-grade');
    if ((idCount.get(row.participantId) ?? 0) > 1) warnings.push('duplicate-row');
    if (mark.feedback !== undefined && feedbackMode !== 'none') {
      if (columns.feedback === undefined) warnings.push('feedback-not-written');
      else {
        const written = feedbackMode === 'html' ? feedbackAsHtml(mark.feedback) : mark.feedback;
        // a comment the teacher wrote is theirs: kept unless asked, since the marks' feedback may be less (a CSV run's scores)
        const typed = holdsComment(row.feedback) && row.feedback !== written;
        if (typed && !options.overwriteFeedback) warnings.push('keeps-feedback');
        else {
          if (typed) warnings.push('overwrites-feedback');
          rowEdits.set(columns.feedback, quoteLikePhp(written, ','));
        }
      }
    }
    edits.set(row.record, rowEdits);
    const previousFeedback =
      warnings.includes('overwrites-feedback') || warnings.includes('keeps-feedback') ? { previousFeedback: row.feedback } : {};
    entries.push({ ...base, status: 'filled', grade: scaled.text, warnings, ...previousFeedback });
  }
  const present = new Set(sheet.rows.map((row) => row.participantId));
  for (const participantId of marks.keys()) {
    if (!present.has(participantId)) entries.push({ participantId, status: 'not-in-file', warnings: [] });
  }

  const notes: string[] = [];
  const overwrites = entries.filter((e) => e.status === 'filled' && e.warnings.includes('overwrites-grade')).length;
  if (overwrites > 0) {
    notes.push(
      `${plural(overwrites, 'filled row')} already held a grade. Moodle skips a row whose grade was changed in Moodle more than a minute after its "Last modified (grade)"; ` +
        'kct cannot see Moodle, so download a fresh worksheet if grades may have changed since, or tick "Allow updating records that have been modified more recently in Moodle than in the spreadsheet" when importing.',
    );
  }
  const kept = entries.filter((e) => e.status === 'filled' && e.warnings.includes('keeps-feedback')).length;
  if (kept > 0)
    notes.push(
      `${plural(kept, 'filled row')} already held a feedback comment, kept as it was: the marks' feedback is written only into empty "Feedback comments" cells (each such row's warnings say keeps-feedback and quote the comment); --overwrite-feedback writes the marks' feedback over them.`,
    );
  const replaced = entries.filter((e) => e.status === 'filled' && e.warnings.includes('overwrites-feedback')).length;
  if (replaced > 0)
    notes.push(
      `${plural(replaced, 'filled row')} already held a feedback comment, replaced by the marks' feedback as --overwrite-feedback asks (each such row's warnings say overwrites-feedback and quote it); without it, the comments are kept.`,
    );
  if (columns.feedback === 0)
    notes.push(
      "The feedback column is the first column, which Moodle's importer ignores (it tests the column index with empty()); the feedback will not be imported.",
    );
  const unreadable = sheet.rows.filter((row) => !row.participantId);
  if (unreadable.length > 0)
    notes.push(
      `${plural(unreadable.length, 'row')} ${unreadable.length === 1 ? 'has' : 'have'} no participant number in "${options.columnNames?.identifier ?? MOODLE_COLUMN_NAMES.identifier}" (lines ${unreadable.map((r) => r.line).join(', ')}); Moodle ignores them and so does kct.`,
    );

  const report: FillReport = summarise({
    platform: 'moodle',
    target: {
      column: sheet.header[columns.grade],
      maximum: options.maxGrade ?? fileMaximum ?? 0,
    },
    rounding,
    entries,
    notes,
  });
  return { bytes: writeCsvDocument(doc, edits as CellEdits), report };
}

/** A cell with words in it: an editor's empty paragraph or line break (<p><br></p>) is no comment. */
function holdsComment(cell: string | undefined): cell is string {
  return cell !== undefined && !/^(?:\s|&nbsp;|&#160;|<br\s*\/?>|<\/?p\b[^>]*>)*$/i.test(cell);
}
