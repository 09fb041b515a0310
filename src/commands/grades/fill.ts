// kct grades moodle|canvas: a platform's grade file filled from a saved run, so the teacher can
// review the marks between marking and uploading. Nothing is sent anywhere and no key is needed.
// Every check comes before anything is written: the grade file (format, columns, the file kct
// will write), the saved run (its rows, one mark per student), and the class (the download's
// students, or the run's) against the file's rows. The report names each student on one side
// only, and kct exits 10 when there are any.
import { readFileSync } from 'node:fs';
import { InterruptedError, UsageError } from '../../api/errors.js';
import { readDownloadStudents } from '../../cli/answers/download.js';
import { sameFile } from '../../cli/answers/file-id.js';
import type { Context } from '../../cli/core/context.js';
import { out, safeText } from '../../cli/core/io.js';
import { exporterFor } from '../../cli/render/export.js';
import type { Column } from '../../cli/render/rows.js';
import { plural } from '../../cli/render/style.js';
import { checkSavedRun, readSavedRun } from '../../cli/report/saved-run.js';
import { type CanvasAssignmentColumn, readCanvasGradebook } from '../../platforms/canvas-gradebook.js';
import type { FillEntry, FillReport } from '../../platforms/fill-report.js';
import { GradeFile, type GradeFileOptions } from './grade-file.js';
import { importHint, mismatchError, reportLines } from './import-report.js';
import { MarkBook } from './mark-book.js';

/** The command's arguments: how the grade file is filled (GradeFileOptions), and from which run. */
export interface FillRequest extends Omit<GradeFileOptions, 'path' | 'via'> {
  savedRun: string;
  /** The grade file: Moodle's worksheet, Canvas's gradebook export. */
  file: string;
  download?: string;
  output?: unknown;
  json?: unknown;
}

const NOTHING = 'nothing was written';

export async function fillGrades(request: FillRequest, context: Context): Promise<void> {
  const exporter = await exporterFor(request, context);
  const via = `kct grades ${request.platform}`;
  checkArguments(request, context);
  // the saved run first: a run that is not there says so, not that the grade file would be in the way
  if (request.savedRun !== '-') checkSavedRun(request.savedRun);
  const file = GradeFile.open({ ...request, path: request.file, via });
  const runName = request.savedRun === '-' ? 'stdin' : request.savedRun;
  const book = await readMarks(request.savedRun, runName, context);
  const download = request.download === undefined ? undefined : await readDownloadStudents(request.download, '--download');
  if (download) file.checkPlatform({ input: request.download!, platform: download.platform }, NOTHING);
  const roster = download?.students ?? book.roster();
  const source = request.download ?? runName;
  file.checkStudents(source, roster, NOTHING);

  // without --download the students are the saved run's: a row the file says was submitted and the run lacks is a mismatch
  const filled = file.fill(
    book.marks,
    book.students(roster, { status: 'NOT_SENT', reason: `no row in ${runName}` }),
    download ? undefined : runName,
  );
  // a grade whose row said something (a file of the submission left out) is one to check before importing
  for (const entry of filled.report.entries) {
    const note = entry.status === 'filled' ? book.notes.get(entry.participantId) : undefined;
    if (note !== undefined) Object.assign(entry, { warnings: [...entry.warnings, 'row-note'], note });
  }
  const writesFeedback = request.platform === 'moodle' && request.feedback !== 'none';
  const feedbackNotes = writesFeedback ? { overwrite: request.overwriteFeedback === true } : undefined;
  const report: FillReport = { ...filled.report, notes: [...runNotes(book, runName, roster, feedbackNotes), ...filled.report.notes] };
  const output = report.counts.filled > 0 ? file.target : null;
  // what the platform would import and skip, said before the file is written
  const record = { file: file.path, output, savedRun: runName, download: request.download ?? null, ...report };
  if (exporter.format === 'csv') await exporter.list(report.entries, ENTRY_COLUMNS);
  else
    await exporter.record(record, () => {
      for (const line of reportLines(file, report, output)) out(context.io, safeText(context.io, line, 'stdout'));
    });
  if (output !== null) {
    file.write(filled.bytes);
    context.note(`kct: wrote ${output}: ${plural(report.counts.filled, 'grade')} filled; ${importHint(file.platform)}`);
  }
  if (!report.studentsMatch) throw mismatchError(file, report, source, exporter.format);
}

/** Arguments a teacher may mix up, refused before anything is read. */
function checkArguments(request: FillRequest, context: Context): void {
  if (request.platform === 'canvas' && request.assignment === undefined) {
    const columns = assignmentsOf(request.file);
    throw new UsageError(
      `kct grades canvas needs --assignment: the column of the gradebook to fill${columns.length > 0 ? `. ${request.file} has ${columns.map((c) => `"${c.header}"`).join(', ')}` : ''}`,
      {
        suggestion: `Give its name as in the export's header, or its id (the number in brackets), e.g. --assignment ${columns[0]?.id ?? '"Essay 1"'}.`,
      },
    );
  }
  if (request.overwriteFeedback && request.feedback === 'none')
    throw new UsageError(
      "--overwrite-feedback writes the marks' feedback over the comments, and --feedback none writes no feedback: give one",
      {
        suggestion:
          '--feedback none keeps every comment and writes the grades alone; --overwrite-feedback replaces the comments with the feedback.',
      },
    );
  if (request.savedRun !== '-' && sameFile(request.savedRun, request.file))
    throw new UsageError(`${request.file} is given as both the saved run and the grade file`, {
      suggestion: `kct grades ${request.platform} <saved-run> <${request.platform === 'moodle' ? 'worksheet' : 'gradebook'}.csv>: the run first, then the file to fill.`,
    });
  if (/\.(ndjson|jsonl|json|journal)$/i.test(request.file)) {
    throw new UsageError(`${request.file} looks like a saved run, not the grade file: the saved run comes first`, {
      suggestion: `kct grades ${request.platform} <saved-run> <${request.platform === 'moodle' ? 'worksheet' : 'gradebook'}.csv>`,
    });
  }
  if (request.savedRun === '-' && context.io.stdinIsTTY) {
    throw new UsageError('- reads a saved run from stdin, but stdin is a terminal', {
      suggestion: `Pipe a run into it: kct one-pass submissions.zip --output ndjson | kct grades ${request.platform} - <file>`,
    });
  }
}

/** The saved run's rows, read into marks and outcomes per student; refused when a student's marks disagree, or no row names a student. */
async function readMarks(path: string, name: string, context: Context): Promise<MarkBook> {
  const book = new MarkBook();
  for await (const row of readSavedRun(path, context.io.stdin)) {
    if (context.signal.aborted) throw new InterruptedError(`interrupted; ${NOTHING}`);
    book.add(row);
  }
  if (book.roster().length === 0) {
    throw new UsageError(`no row of ${name} names a student (student_id): its marks have nowhere to go in a grade file`, {
      suggestion:
        "Mark the Moodle or Canvas download itself (its zip, or the folder it unzips to): each row then carries the platform's id.",
    });
  }
  if (book.conflicts.length > 0) {
    const shown = book.conflicts
      .slice(0, 5)
      .map(
        (c) =>
          `${c.participantId}: ${c.scores.join(', ')}${new Set(c.scores).size === 1 ? ', the same total with other criteria or feedback' : ''}`,
      );
    throw new UsageError(
      `${plural(book.conflicts.length, 'student')} of ${name} ${book.conflicts.length === 1 ? 'has' : 'have'} marked rows that disagree (${shown.join('; ')}${book.conflicts.length > 5 ? '; ...' : ''}): kct cannot tell which grade to fill; ${NOTHING}`,
      { suggestion: 'Keep one row per student: mark the download (each student is one row), or remove the rows you do not want.' },
    );
  }
  return book;
}

/** What the saved run says that a teacher should know before importing: rows with no student, tasks not final, students not in the download. */
function runNotes(
  book: MarkBook,
  name: string,
  roster: readonly { participantId: string }[],
  feedback: { overwrite: boolean } | undefined,
): string[] {
  const notes: string[] = [];
  if (feedback && book.withoutFeedback > 0)
    notes.push(
      `${plural(book.withoutFeedback, 'marked row')} of ${name} ${book.withoutFeedback === 1 ? 'holds' : 'hold'} no feedback, only scores (a CSV saved run has no feedback): the feedback written for ${book.withoutFeedback === 1 ? 'it' : 'them'} is each criterion's score, ${feedback.overwrite ? 'over any comment already there (--overwrite-feedback)' : 'and only into empty "Feedback comments" cells (a comment already there is kept)'}. Save the run with --output ndjson or --json to hand back the marker's comments, or give --feedback none.`,
    );
  const notFinal = book.notFinal();
  if (notFinal.size > 0) {
    const count = [...notFinal.values()].reduce((a, b) => a + b, 0);
    const statuses = [...notFinal].map(([status, n]) => `${status} ${n}`).join(', ');
    notes.push(
      `${plural(count, 'student')} of ${name} ${count === 1 ? 'has' : 'have'} only rows not final when the run was saved (${statuses}): run the same kct one-pass again (nothing is charged twice) and save its rows to fill them.`,
    );
  }
  if (book.rowsWithoutId > 0) notes.push(`${plural(book.rowsWithoutId, 'row')} of ${name} name no student (no student_id): not filled.`);
  const inClass = new Set(roster.map((student) => student.participantId));
  const strangers = book.roster().filter((student) => !inClass.has(student.participantId));
  if (strangers.length > 0)
    notes.push(
      `${plural(strangers.length, 'student')} of ${name} ${strangers.length === 1 ? 'is' : 'are'} not in the download (${strangers
        .slice(0, 5)
        .map((s) => s.name ?? s.participantId)
        .join(', ')}${strangers.length > 5 ? ', ...' : ''}): their grades are filled where the file has their row.`,
    );
  return notes;
}

/** --output csv: one row per student or row of the file. */
const ENTRY_COLUMNS: Column<FillEntry>[] = [
  { name: 'participant_id', header: 'participant_id', value: (e) => e.participantId },
  { name: 'name', header: 'name', value: (e) => e.displayName },
  { name: 'status', header: 'status', value: (e) => e.status },
  { name: 'grade', header: 'grade', value: (e) => e.grade },
  { name: 'previous_grade', header: 'previous_grade', value: (e) => e.previousGrade },
  { name: 'reason', header: 'reason', value: (e) => e.reason },
  { name: 'detail', header: 'detail', value: (e) => e.detail },
  { name: 'line', header: 'line', value: (e) => e.line },
  { name: 'warnings', header: 'warnings', value: (e) => e.warnings.join(' ') },
  { name: 'run_status', header: 'run_status', value: (e) => e.download?.status },
  { name: 'run_reason', header: 'run_reason', value: (e) => e.download?.reason },
  // last, so the columns scripts already read stay where they were
  { name: 'note', header: 'note', value: (e) => e.note },
];

/** The assignment columns of a Canvas gradebook, to name them in a refusal; none when it cannot be read (that is said later). */
function assignmentsOf(path: string): CanvasAssignmentColumn[] {
  try {
    return readCanvasGradebook(readFileSync(path)).assignments;
  } catch {
    return [];
  }
}
