// The teacher's grade file (Moodle's grading worksheet, Canvas's gradebook export): read and
// checked before anything is written (its format, its columns, the file kct will write), filled
// from the marks, and written to a new file (or over the download, with --in-place, only if it
// did not change meanwhile). kct never replaces a file it did not make.
import { closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { sameFile } from '../../cli/answers/file-id.js';
import { fillCanvasGradebook } from '../../platforms/canvas-gradebook.js';
import { compareWithDownload, type DownloadStudent, type FillResult, idsFromFiles } from '../../platforms/fill-report.js';
import { type Mark, type Rounding, scaleGrade } from '../../platforms/grade-scale.js';
import { fillMoodleWorksheet } from '../../platforms/moodle-worksheet.js';
import { isPlatformId } from '../../platforms/submissions.js';

export type GradePlatform = 'moodle' | 'canvas';

const PLATFORM_NAMES: Record<GradePlatform, string> = { moodle: 'Moodle', canvas: 'Canvas' };

export interface GradeFileOptions {
  platform: GradePlatform;
  /** The file as the user named it. */
  path: string;
  /** How the user named the file, for messages: `kct grades moodle`, `--moodle-worksheet`. */
  via: string;
  /** Canvas: the gradebook's column to fill (its id, whole header or exact name). */
  assignment?: string;
  rounding?: Rounding;
  maxGrade?: number;
  /** Moodle: how feedback goes in "Feedback comments". */
  feedback?: 'html' | 'text' | 'none';
  /** Moodle: the marks' feedback replaces a comment already in the worksheet (default: kept). */
  overwriteFeedback?: boolean;
  gradesOut?: string;
  inPlace?: boolean;
}

/** Where to find the file on the platform, said when it cannot be read. */
const WHERE: Record<GradePlatform, string> = {
  moodle: 'In Moodle: the assignment, "View all submissions", Grading action "Download grading worksheet".',
  canvas: 'In Canvas: Grades, Export, "Export Entire Gradebook".',
};

export class GradeFile {
  private constructor(
    private readonly options: GradeFileOptions,
    private readonly bytes: Buffer,
    /** The file written: a new one, or the download itself with --in-place. */
    readonly target: string,
  ) {}

  get platform(): GradePlatform {
    return this.options.platform;
  }

  get path(): string {
    return this.options.path;
  }

  /** The grade file read and checked (a dry fill: every refusal of the file itself, now), and the file kct will write chosen. */
  static open(options: GradeFileOptions): GradeFile {
    const { platform, path } = options;
    if (path.trim() === '') throw new UsageError(`${options.via} needs the file ${PLATFORM_NAMES[platform]} downloaded, e.g. grades.csv`);
    if (/\.(xlsx|xls|ods|numbers)$/i.test(path)) {
      throw new UsageError(`${options.via} takes the CSV file ${PLATFORM_NAMES[platform]} downloaded, not a spreadsheet (${path})`, {
        suggestion: `Download it again from ${PLATFORM_NAMES[platform]} as CSV and give kct that file untouched (a spreadsheet that opens and saves it can change its encoding, quoting and dates).`,
      });
    }
    if (options.gradesOut !== undefined && options.inPlace)
      throw new UsageError('--grades-out and --in-place both say where to write: give one', {
        suggestion: '--in-place replaces the downloaded file; --grades-out <file> writes a new one beside it.',
      });
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `cannot read the grade file ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message}`,
        { suggestion: WHERE[platform] },
      );
    }
    // what the file is comes first (a Moodle worksheet given to canvas), where it would be written second
    try {
      new GradeFile(options, bytes, path).fill(new Map());
    } catch (error) {
      // the platform's reader names the kind of file; the teacher needs to know which one
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(`${path}: ${error.message}`, { suggestion: error.suggestion });
    }
    return new GradeFile(options, bytes, targetOf(path, options));
  }

  /** A download's platform is the file's: a Moodle download's marks have nowhere to go in a Canvas gradebook. */
  checkPlatform(download: { input: string; platform: GradePlatform }, nothing: string): void {
    if (download.platform === this.platform) return;
    throw new UsageError(
      `${download.input} is a ${PLATFORM_NAMES[download.platform]} download, and ${this.options.via} fills ${PLATFORM_NAMES[this.platform]}'s file: ${nothing}`,
      {
        suggestion:
          download.platform === 'moodle'
            ? "Fill Moodle's grading worksheet (kct grades moodle)."
            : "Fill Canvas's gradebook export (kct grades canvas, with --assignment).",
      },
    );
  }

  /**
   * At least one of the students has a row in the file, else it is another assignment's or
   * course's file: refused before anything is sent or written (`nothing` says which).
   */
  checkStudents(source: string, students: readonly { participantId: string }[], nothing: string): void {
    if (students.length === 0) return;
    const report = this.fill(
      new Map(),
      students.map((student) => ({ participantId: student.participantId, status: 'unmarked' })),
    );
    if (report.report.counts['not-in-file'] < students.length) return;
    const id = this.platform === 'moodle' ? 'participant numbers ("Participant N" in Identifier)' : 'user ids (the ID column)';
    // names such as "alice" come from a plain folder's file names (one is enough to tell)
    const named = students.filter((student) => !isPlatformId(this.platform, student.participantId)).map((student) => student.participantId);
    // Canvas's anonymous grading names a student anon_<id>, which no gradebook row carries
    const anonymous = this.platform === 'canvas' && named.length === 0 && students.some((student) => /^anon_/i.test(student.participantId));
    throw new UsageError(`none of the ${students.length} students of ${source} has a row in ${this.path} (matched by ${id}): ${nothing}`, {
      suggestion: anonymous
        ? "Its students are anonymous (anon_…, Canvas's anonymous grading), and no gradebook row names them: enter these grades in SpeedGrader."
        : named.length > 0
          ? `${named.length === students.length ? 'Its' : named.length === 1 ? 'One of its' : 'Some of its'} student ${named.length === 1 ? 'id' : 'ids'} ${idsFromFiles(this.platform, named)}`
          : this.platform === 'moodle'
            ? 'Download the grading worksheet of the same assignment as the submissions (its "View all submissions" page).'
            : 'Export the gradebook of the same course as the submissions.',
    });
  }

  /** The file filled for `marks` (keyed by participant id), its report set against the download's students. */
  fill(marks: ReadonlyMap<string, Mark>, students?: readonly DownloadStudent[], runOnly?: string): FillResult {
    const { options } = this;
    const result =
      this.platform === 'moodle'
        ? fillMoodleWorksheet(this.bytes, marks, {
            rounding: options.rounding,
            maxGrade: options.maxGrade,
            feedback: options.feedback,
            overwriteFeedback: options.overwriteFeedback,
          })
        : fillCanvasGradebook(this.bytes, marks, {
            assignment: options.assignment!,
            rounding: options.rounding,
            pointsPossible: options.maxGrade,
          });
    if (students === undefined) return result;
    const report = compareWithDownload(result.report, students, runOnly);
    // a student marked with no row: the grade the teacher would enter by hand
    const entries = report.entries.map((entry) => {
      const mark = entry.status === 'not-in-file' ? marks.get(entry.participantId) : undefined;
      const grade = mark && report.target.maximum > 0 ? scaleGrade(mark, report.target.maximum, report.rounding) : undefined;
      return grade?.ok ? { ...entry, grade: grade.text } : entry;
    });
    return { ...result, report: { ...report, entries } };
  }

  /**
   * Writes the filled file: a new file (never replacing one: kct checked when it opened the file
   * that none was there, and writes exclusively), or, with --in-place, over the download through a
   * temporary file, only if the download did not change since it was read.
   */
  write(bytes: Buffer): void {
    if (!this.options.inPlace) {
      writeExclusively(this.target, bytes);
      return;
    }
    let now: Buffer | undefined;
    try {
      now = readFileSync(this.path);
    } catch {
      now = undefined;
    }
    if (!now?.equals(this.bytes)) {
      throw new UsageError(`${this.path} changed while kct was working, so it was not replaced`, {
        suggestion: 'Run the same command again: it reads the file as it is now.',
      });
    }
    const partial = join(dirname(resolve(this.path)), `.${basename(this.path)}.kct-${process.pid}.partial`);
    try {
      writeExclusively(partial, bytes, statSync(this.path).mode & 0o777);
      renameSync(partial, this.path);
    } finally {
      rmSync(partial, { force: true });
    }
  }
}

/** Where the filled file goes: --grades-out, the download itself (--in-place), or <name>.kct.csv beside it; checked now, not after. */
function targetOf(path: string, options: GradeFileOptions): string {
  if (options.inPlace) return path;
  const target = options.gradesOut ?? join(dirname(path), `${basename(path, extname(path))}.kct${extname(path) || '.csv'}`);
  if (sameFile(target, path)) {
    throw new UsageError(`--grades-out ${target} is the downloaded file itself; kct writes a new file unless asked to replace it`, {
      suggestion: 'Add --in-place (and leave out --grades-out) to replace it, or name another file.',
    });
  }
  if (existsSync(target)) {
    throw new UsageError(
      `${target} exists${options.gradesOut === undefined ? ' (from an earlier run?)' : ''}; kct never replaces a file it did not make in this run`,
      { suggestion: 'Remove it, or name another file with --grades-out.' },
    );
  }
  if (!existsSync(dirname(resolve(target))))
    throw new UsageError(`cannot write ${target}: its folder does not exist`, {
      suggestion: 'Make the folder first, or name a file in a folder that exists.',
    });
  return target;
}

function writeExclusively(path: string, bytes: Buffer, mode = 0o644): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot write ${path}: ${code === 'EEXIST' ? 'it exists (made while kct was working?); kct never replaces a file' : (error as Error).message}`,
      { suggestion: 'Run the same command again with --grades-out <another file>.' },
    );
  }
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}
