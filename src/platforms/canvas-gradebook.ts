// Canvas's gradebook export (Grades, Export, "Export Entire Gradebook"): read it exactly, and
// fill one assignment's column for the marked students, leaving every other byte as Canvas wrote it.
//
// Facts from Canvas's code (instructure/canvas-lms):
// - lib/gradebook_exporter.rb writes a header `Student, ID, [SIS User ID,] SIS Login ID,
//   [Integration ID, Root Account,] Section`, then custom columns, then one column per assignment
//   headed `<title> (<id>)`, then totals; an optional "Manual Posting" row; a row whose first
//   cell is "    Points Possible"; then one row per student. Scores are I18n.n(score, precision: 2);
//   "N/A" marks an assignment not assigned to the student, "EX" an excused one. The separator is
//   ',' or ';' and a BOM is optional (lib/csv_with_i18n.rb).
// - lib/gradebook_importer.rb matches students by the ID column, reads "Points Possible" and
//   "Manual Posting" rows as non-student rows, turns ',' decimals into '.', refuses a header
//   without Student/ID, and drops columns whose Points Possible cell says "read only".
import { UsageError } from '../api/errors.js';
import {
  type CellEdits,
  type CsvDocument,
  isBlankRecord,
  quoteLikeRuby,
  readCsvDocument,
  readDecimal,
  writeCsvDocument,
} from './csv-document.js';
import { type FillEntry, type FillResult, summarise } from './fill-report.js';
import { DEFAULT_ROUNDING, type Mark, type Rounding, scaleGrade } from './grade-scale.js';
import { otherStudent } from './student-names.js';

export interface CanvasAssignmentColumn {
  index: number;
  /** The whole header, `<name> (<id>)`. */
  header: string;
  name: string;
  id: string;
}

interface CanvasStudentRow {
  record: number;
  line: number;
  /** Canvas user id (the ID column). */
  id: string;
  name: string;
}

export interface CanvasGradebook {
  doc: CsvDocument;
  header: string[];
  /** Where the student's name is (0) and the ID column (1, or 2 after LastName, FirstName). */
  idColumn: number;
  assignments: CanvasAssignmentColumn[];
  pointsPossibleRecord?: number;
  manualPostingRecord?: number;
  students: CanvasStudentRow[];
}

const WHAT = 'The Canvas gradebook export';
const EXPORT_AGAIN = 'Export it again in Canvas: Grades, then Export, then "Export Entire Gradebook".';
/** Header cells that are never assignments (GRADEBOOK_IMPORTER_RESERVED_NAMES and NON_ASSIGNMENT_COLUMN_HEADERS). */
const NOT_ASSIGNMENTS =
  /^(Student|LastName|FirstName|ID|SIS User ID|SIS Login ID|Section|Integration ID|Root Account)$|Current Score|Current Points|Current Grade|Final Score|Final Points|Final Grade|Override Score|Override Grade|Override Status/;
const MANUAL_POSTING_CELL = /^\s*(Muted|Manual Posting.*)?\s*$/i;

/** Reads an export; refuses (UsageError) one Canvas's importer would refuse. */
export function readCanvasGradebook(bytes: Uint8Array): CanvasGradebook {
  const doc = readCsvDocument(bytes, { delimiter: 'auto', what: WHAT });
  const headerRecord = doc.records[0];
  const header = headerRecord && !isBlankRecord(headerRecord) ? headerRecord.cells.map((c) => c.value) : [];
  const firstLast = header.length > 4 && header[0].includes('LastName') && header[1].includes('FirstName') && header[2].includes('ID');
  if (!firstLast && !(header.length > 3 && header[0].includes('Student') && header[1].includes('ID'))) {
    // Moodle's grading worksheet starts with its Identifier column
    const moodle = header.some((cell) => /^\uFEFF?Identifier$/.test(cell.trim()));
    throw new UsageError(
      `${WHAT} does not start with the Student and ID columns Canvas's importer requires${moodle ? ": it looks like Moodle's grading worksheet" : ''}.`,
      { suggestion: moodle ? 'Fill it with kct grades moodle <saved-run> <worksheet.csv>.' : EXPORT_AGAIN },
    );
  }
  const idColumn = firstLast ? 2 : 1;
  const assignments: CanvasAssignmentColumn[] = [];
  for (const [index, cell] of header.entries()) {
    if (index <= idColumn || NOT_ASSIGNMENTS.test(cell)) continue;
    const match = /^([\s\S]*)\s\((\d+)\)$/.exec(cell);
    if (match) assignments.push({ index, header: cell, name: match[1], id: match[2] });
  }
  const gradebook: CanvasGradebook = { doc, header, idColumn, assignments, students: [] };
  for (const [index, record] of doc.records.entries()) {
    if (index === 0 || isBlankRecord(record)) continue;
    const values = record.cells.map((c) => c.value);
    if (values[0]?.includes('Points Possible')) {
      gradebook.pointsPossibleRecord ??= index;
    } else if (values.every((v) => MANUAL_POSTING_CELL.test(v))) {
      gradebook.manualPostingRecord ??= index;
    } else {
      const name = firstLast ? `${values[1] ?? ''} ${values[0] ?? ''}`.trim() : (values[0] ?? '');
      gradebook.students.push({ record: index, line: record.line, id: (values[idColumn] ?? '').trim(), name });
    }
  }
  return gradebook;
}

/** The assignment column for `nameOrId`: its id, its whole header or its exact name. */
export function findCanvasAssignment(gradebook: CanvasGradebook, nameOrId: string): CanvasAssignmentColumn {
  const wanted = nameOrId.trim();
  const byId = gradebook.assignments.filter((a) => a.id === wanted);
  const matches = byId.length > 0 ? byId : gradebook.assignments.filter((a) => a.header === wanted || a.name === wanted);
  const listing = gradebook.assignments.map((a) => `"${a.header}"`).join(', ') || 'none';
  if (matches.length === 0) {
    throw new UsageError(`${WHAT} has no assignment "${wanted}". Its assignments: ${listing}.`, {
      suggestion: 'Give the assignment by its id (the number in brackets) or its exact name.',
    });
  }
  if (matches.length > 1) {
    throw new UsageError(
      `${WHAT} has ${matches.length} assignments named "${wanted}": ${matches.map((a) => `"${a.header}"`).join(', ')}.`,
      {
        suggestion: 'Give the assignment by its id, the number in brackets.',
      },
    );
  }
  return matches[0];
}

export interface CanvasFillOptions {
  /** The assignment: its id, its whole header `<name> (<id>)`, or its exact name. */
  assignment: string;
  rounding?: Rounding;
  /** Points possible, when the export has no Points Possible row (or to override it). */
  pointsPossible?: number;
}

/**
 * Fills one assignment's column for `marks` (keyed by Canvas user id, the ID column), scaled to
 * the column's points possible. Rows not marked, and cells Canvas would not take (N/A, EX), are
 * left byte for byte.
 */
export function fillCanvasGradebook(bytes: Uint8Array, marks: ReadonlyMap<string, Mark>, options: CanvasFillOptions): FillResult {
  const gradebook = readCanvasGradebook(bytes);
  const { doc } = gradebook;
  const column = findCanvasAssignment(gradebook, options.assignment);
  const rounding = options.rounding ?? DEFAULT_ROUNDING;
  const cellOf = (record: number | undefined) => (record === undefined ? '' : (doc.records[record].cells[column.index]?.value ?? ''));
  const pointsCell = cellOf(gradebook.pointsPossibleRecord);
  if (/read\s+only/i.test(pointsCell)) {
    throw new UsageError(`The column "${column.header}" is read only in ${WHAT.toLowerCase()}; Canvas would ignore it.`);
  }
  const maximum = options.pointsPossible ?? readDecimal(pointsCell);
  if (maximum === undefined || !(maximum > 0)) {
    throw new UsageError(
      `${WHAT} gives no points possible for "${column.header}" (found "${pointsCell}"), so kct cannot scale the grades.`,
      {
        suggestion: "Give the assignment's points possible (the wiring's --max-grade), or export the gradebook again.",
      },
    );
  }
  const posting = cellOf(gradebook.manualPostingRecord);
  const hidden = /scores hidden/i.test(posting);
  const idCount = new Map<string, number>();
  for (const row of gradebook.students) idCount.set(row.id, (idCount.get(row.id) ?? 0) + 1);

  const edits = new Map<number, Map<number, string>>();
  const entries: FillEntry[] = [];
  for (const row of gradebook.students) {
    const current = cellOf(row.record).trim();
    const base = {
      participantId: row.id,
      displayName: row.name,
      ...(current !== '' && current !== '-' ? { previousGrade: current } : {}),
      line: row.line,
    };
    const mark = marks.get(row.id);
    if (!mark) {
      entries.push({ ...base, status: 'not-marked', warnings: [] });
      continue;
    }
    const other = otherStudent(mark.name, row.name);
    if (other) {
      entries.push({ ...base, status: 'refused', reason: 'other-student', detail: other, warnings: [] });
      continue;
    }
    const scaled = scaleGrade(mark, maximum, rounding);
    if (!scaled.ok) {
      entries.push({ ...base, status: 'refused', reason: scaled.reason, detail: scaled.detail, warnings: [] });
      continue;
    }
    const refusal = hidden
      ? {
          reason: 'hidden-anonymous' as const,
          detail: 'the assignment is graded anonymously and its scores are hidden from instructors, so Canvas would skip it',
        }
      : current === 'N/A'
        ? { reason: 'not-assigned' as const, detail: 'the cell says N/A: the assignment is not assigned to this student' }
        : /^EX$/i.test(current)
          ? { reason: 'excused' as const, detail: 'the student is excused from this assignment; kct leaves the excusal in place' }
          : undefined;
    if (refusal) {
      entries.push({ ...base, status: 'refused', grade: scaled.text, ...refusal, warnings: [] });
      continue;
    }
    const warnings: FillEntry['warnings'] = [];
    if (base.previousGrade !== undefined) warnings.push('overwrites-grade');
    if ((idCount.get(row.id) ?? 0) > 1) warnings.push('duplicate-row');
    if (mark.feedback !== undefined) warnings.push('feedback-not-written');
    edits.set(row.record, new Map([[column.index, quoteLikeRuby(scaled.text, doc.delimiter)]]));
    entries.push({ ...base, status: 'filled', grade: scaled.text, warnings });
  }
  const present = new Set(gradebook.students.map((row) => row.id));
  for (const participantId of marks.keys()) {
    if (!present.has(participantId)) entries.push({ participantId, status: 'not-in-file', warnings: [] });
  }
  const notes: string[] = [];
  if (/manual posting/i.test(posting) && !hidden)
    notes.push(`"${column.header}" is posted manually: after the import, post the grades in Canvas for students to see them.`);
  if (entries.some((e) => e.warnings.includes('feedback-not-written')))
    notes.push('A Canvas gradebook import carries scores only; feedback was not written.');
  if (entries.some((e) => e.status === 'not-in-file' && e.participantId.startsWith('anon_'))) {
    notes.push('Anonymous submissions ("anon_…") cannot be matched to gradebook rows; grade them in SpeedGrader.');
  }
  const report = summarise({ platform: 'canvas', target: { column: column.header, maximum }, rounding, entries, notes });
  return { bytes: writeCsvDocument(doc, edits as CellEdits), report };
}
