// kct one-pass --moodle-worksheet / --canvas-gradebook: the teacher's grade file, read and checked
// before anything is sent (its format, its columns, the file kct will write), filled from the
// marks once the run is over, with the report of what the platform would import and skip, and
// written to a new file (or over the download, with --in-place, only if it did not change meanwhile).
import { closeSync, existsSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { UsageError } from '../../api/errors.js';
import type { EvaluationEntry } from '../../api/schemas.js';
import type { AnswerOutcome } from '../../cli/render/outcomes.js';
import { fillCanvasGradebook } from '../../platforms/canvas-gradebook.js';
import {
  compareWithDownload,
  type DownloadStudent,
  type FillEntry,
  type FillReport,
  type FillResult,
} from '../../platforms/fill-report.js';
import { type Mark, type Rounding, scaleGrade } from '../../platforms/grade-scale.js';
import { fillMoodleWorksheet } from '../../platforms/moodle-worksheet.js';

export interface GradeFileFlags {
  moodleWorksheet?: string;
  canvasGradebook?: string;
  assignment?: string;
  rounding?: Rounding;
  maxGrade?: number;
  feedback?: 'html' | 'text' | 'none';
  gradesOut?: string;
  inPlace?: boolean;
}

/** The flags that only mean something with a grade file, by their names. */
const WITH_A_FILE: [keyof GradeFileFlags, string][] = [
  ['assignment', '--assignment'],
  ['rounding', '--rounding'],
  ['maxGrade', '--max-grade'],
  ['feedback', '--feedback'],
  ['gradesOut', '--grades-out'],
  ['inPlace', '--in-place'],
];

export class GradeFile {
  private constructor(
    readonly platform: 'moodle' | 'canvas',
    /** The file as the user named it. */
    readonly path: string,
    private readonly bytes: Buffer,
    /** The file written: a new one, or the download itself with --in-place. */
    readonly target: string,
    private readonly flags: GradeFileFlags,
  ) {}

  /** The grade file of the flags, read and checked (a dry fill) before anything is sent; undefined without one. */
  static open(flags: GradeFileFlags, run: { wait: boolean }): GradeFile | undefined {
    if (flags.moodleWorksheet !== undefined && flags.canvasGradebook !== undefined) {
      throw new UsageError('--moodle-worksheet and --canvas-gradebook fill one file each: give one', {
        suggestion: "Mark the class once per platform, with that platform's download and file.",
      });
    }
    const path = flags.moodleWorksheet ?? flags.canvasGradebook;
    if (path === undefined) {
      const stray = WITH_A_FILE.find(([key]) => flags[key] !== undefined && flags[key] !== false);
      if (stray)
        throw new UsageError(`${stray[1]} goes with --moodle-worksheet or --canvas-gradebook`, {
          suggestion: 'Name the grade file to fill, or leave the flag out.',
        });
      return undefined;
    }
    const platform = flags.moodleWorksheet !== undefined ? 'moodle' : 'canvas';
    if (platform === 'canvas' && flags.assignment === undefined) {
      throw new UsageError('--canvas-gradebook needs --assignment: the column of the gradebook to fill', {
        suggestion: 'Give its name as in the export\'s header, or its id (the number in brackets), e.g. --assignment "Essay 1".',
      });
    }
    if (platform === 'moodle' && flags.assignment !== undefined) {
      throw new UsageError("--assignment names a Canvas gradebook's column; a Moodle worksheet is for one assignment already", {
        suggestion: 'Leave out --assignment.',
      });
    }
    if (!run.wait)
      throw new UsageError('filling a grade file needs the marks, and --no-wait does not wait for them', {
        suggestion: 'Leave out --no-wait.',
      });
    if (flags.gradesOut !== undefined && flags.inPlace)
      throw new UsageError('--grades-out and --in-place both say where to write: give one');
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new UsageError(
        `cannot read the grade file ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message}`,
        {
          suggestion:
            platform === 'moodle'
              ? 'In Moodle: the assignment, "View all submissions", Grading action "Download grading worksheet".'
              : 'In Canvas: Grades, Export, "Export Entire Gradebook".',
        },
      );
    }
    const target = targetOf(path, flags);
    const file = new GradeFile(platform, path, bytes, target, flags);
    file.fill(new Map()); // every refusal of the file itself (columns, assignment, maximum), now
    return file;
  }

  /**
   * Before anything is sent: the file is for the download's platform, and at least one student of
   * the download has a row in it (else it is another assignment's or course's file, and the run
   * would be charged for grades that have nowhere to go).
   */
  checkAgainst(download: { input: string; platform: 'moodle' | 'canvas'; students: readonly { participantId: string }[] }): void {
    const flag = this.platform === 'moodle' ? '--moodle-worksheet' : '--canvas-gradebook';
    const names = { moodle: 'Moodle', canvas: 'Canvas' } as const;
    if (download.platform !== this.platform) {
      throw new UsageError(
        `${download.input} is a ${names[download.platform]} download, and ${flag} fills ${names[this.platform]}'s file: nothing was sent`,
        {
          suggestion:
            download.platform === 'moodle'
              ? "Give Moodle's grading worksheet with --moodle-worksheet."
              : "Give Canvas's gradebook export with --canvas-gradebook and --assignment.",
        },
      );
    }
    if (download.students.length === 0) return;
    const report = this.fill(
      new Map(),
      download.students.map((student) => ({ participantId: student.participantId, status: 'unmarked' })),
    );
    if (report.report.counts['not-in-file'] === download.students.length) {
      const id = this.platform === 'moodle' ? 'participant numbers ("Participant N" in Identifier)' : 'user ids (the ID column)';
      throw new UsageError(
        `none of the ${download.students.length} students of ${download.input} has a row in ${this.path} (matched by ${id}): nothing was sent`,
        {
          suggestion:
            this.platform === 'moodle'
              ? 'Download the grading worksheet of the same assignment as the submissions (its "View all submissions" page), or leave out --moodle-worksheet to mark without filling it.'
              : 'Export the gradebook of the same course as the submissions, or leave out --canvas-gradebook to mark without filling it.',
        },
      );
    }
  }

  /** The file filled for `marks` (keyed by participant id), its report set against the download's students. */
  fill(marks: ReadonlyMap<string, Mark>, students?: readonly DownloadStudent[]): FillResult {
    const { flags } = this;
    const result =
      this.platform === 'moodle'
        ? fillMoodleWorksheet(this.bytes, marks, { rounding: flags.rounding, maxGrade: flags.maxGrade, feedback: flags.feedback })
        : fillCanvasGradebook(this.bytes, marks, {
            assignment: flags.assignment!,
            rounding: flags.rounding,
            pointsPossible: flags.maxGrade,
          });
    if (students === undefined) return result;
    const report = compareWithDownload(result.report, students);
    // a student marked with no row: the grade the teacher would enter by hand
    const entries = report.entries.map((entry) => {
      const mark = entry.status === 'not-in-file' ? marks.get(entry.participantId) : undefined;
      const grade = mark && report.target.maximum > 0 ? scaleGrade(mark, report.target.maximum, report.rounding) : undefined;
      return grade?.ok ? { ...entry, grade: grade.text } : entry;
    });
    return { ...result, report: { ...report, entries } };
  }

  /**
   * Writes the filled file: a new file (never replacing one: kct checked at the start that none
   * was there, and writes exclusively), or, with --in-place, over the download through a
   * temporary file, only if the download did not change since it was read.
   */
  write(bytes: Buffer): void {
    if (!this.flags.inPlace) {
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
      throw new UsageError(`${this.path} changed while kct was marking, so it was not replaced`, {
        suggestion: 'Run the same command again: the answers already marked are replayed, nothing is charged twice.',
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

/** Where the filled file goes: --grades-out, the download itself (--in-place), or <name>.kct.csv beside it; checked now, not after marking. */
function targetOf(path: string, flags: GradeFileFlags): string {
  if (flags.inPlace) return path;
  const target = flags.gradesOut ?? join(dirname(path), `${basename(path, extname(path))}.kct${extname(path) || '.csv'}`);
  if (sameFile(target, path)) {
    throw new UsageError(`--grades-out ${target} is the downloaded file itself; kct writes a new file unless asked to replace it`, {
      suggestion: 'Add --in-place (and leave out --grades-out) to replace it, or name another file.',
    });
  }
  if (existsSync(target)) {
    throw new UsageError(
      `${target} exists${flags.gradesOut === undefined ? ' (from an earlier run?)' : ''}; kct never replaces a file it did not make in this run`,
      {
        suggestion: 'Remove it, or name another file with --grades-out. Running again costs nothing for the answers already marked.',
      },
    );
  }
  if (!existsSync(dirname(resolve(target)))) throw new UsageError(`cannot write ${target}: its folder does not exist`);
  return target;
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
}

function writeExclusively(path: string, bytes: Buffer, mode = 0o644): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot write ${path}: ${code === 'EEXIST' ? 'it exists (made while kct was marking?); kct never replaces a file' : (error as Error).message}`,
      {
        suggestion:
          'Run the same command again with --grades-out <another file>: the answers already marked are replayed, nothing is charged twice.',
      },
    );
  }
  try {
    writeSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

/** What became of each student of the run, and the marks: built from the rows as they come. */
export class MarkBook {
  readonly marks = new Map<string, Mark>();
  private readonly outcomes = new Map<string, { rank: number; status: string; reason?: string }>();

  add(outcome: AnswerOutcome): void {
    const id = outcome.student_id;
    if (id === undefined) return;
    const marked = outcome.status === 'SUCCESS' && typeof outcome.score === 'number';
    // a student's answer says more than the rows of files left out of it
    const rank = marked ? 3 : outcome.status === 'SKIPPED' ? 0 : outcome.status === 'EMPTY' ? 1 : 2;
    const known = this.outcomes.get(id);
    if (!known || rank > known.rank) {
      const reason = marked ? undefined : outcome.status === 'SUCCESS' ? 'marked without a score' : outcome.message;
      this.outcomes.set(id, { rank, status: outcome.status, ...(reason ? { reason } : {}) });
    }
    if (!marked) return;
    const entries = (outcome.evaluation ?? []).filter((entry) => entry.type !== 'error');
    const maxScore = typeof outcome.max_score === 'number' ? outcome.max_score : sumMax(entries);
    const feedback = feedbackText(entries);
    this.marks.set(id, { score: outcome.score as number, maxScore: maxScore ?? Number.NaN, ...(feedback ? { feedback } : {}) });
  }

  /** Every student of the download with what became of them (SUCCESS, EMPTY, SKIPPED, FAILURE, ...). */
  students(roster: readonly { participantId: string; name?: string }[]): DownloadStudent[] {
    return roster.map(({ participantId, name }) => {
      const outcome = this.outcomes.get(participantId);
      return {
        participantId,
        ...(name !== undefined ? { displayName: name } : {}),
        status: outcome?.status ?? 'NOT_SENT',
        ...(outcome?.reason ? { reason: outcome.reason } : {}),
      };
    });
  }
}

function sumMax(entries: EvaluationEntry[]): number | undefined {
  if (entries.length === 0 || entries.some((entry) => typeof entry.max_score !== 'number')) return undefined;
  return entries.reduce((sum, entry) => sum + (entry.max_score as number), 0);
}

/** The feedback a student reads on the platform: each criterion, its score, and what the marker said. */
function feedbackText(entries: EvaluationEntry[]): string {
  const score = (entry: EvaluationEntry) =>
    typeof entry.score === 'number' ? ` ${entry.score}${typeof entry.max_score === 'number' ? ` / ${entry.max_score}` : ''}` : '';
  return entries
    .map((entry) => {
      const text = (entry.feedback ?? entry.comment ?? '').trim();
      const head = entry.item ? `${entry.item}:${score(entry)}` : score(entry).trim();
      return [head, text].filter((part) => part !== '').join('\n');
    })
    .filter((part) => part !== '')
    .join('\n\n');
}

const PLATFORM = { moodle: 'Moodle grading worksheet', canvas: 'Canvas gradebook' };
const WARNING_WORDS: Record<FillEntry['warnings'][number], string> = {
  'overwrites-grade': 'replaces the grade already there',
  'duplicate-row': 'several rows carry this id; each was filled',
  'feedback-not-written': 'feedback not written',
};

/** The report in words, for people: what was filled, what the platform would skip and why, and what to check. */
export function reportLines(file: GradeFile, report: FillReport, output: string | null): string[] {
  const who = (entry: FillEntry) => {
    const id = `${file.platform === 'moodle' ? 'Participant ' : 'ID '}${entry.participantId}`;
    const where = entry.line !== undefined ? `line ${entry.line}` : undefined;
    // under blind marking the name is the id
    if (!entry.displayName || entry.displayName === id) return `${id}${where ? ` (${where})` : ''}`;
    return `${entry.displayName} (${[id, where].filter(Boolean).join(', ')})`;
  };
  const lines = [
    `Import (${PLATFORM[report.platform]} ${file.path}, column "${report.target.column}", out of ${report.target.maximum}, rounding ${report.rounding}):`,
  ];
  const { filled, refused } = report.counts;
  const noRow = report.entries.filter((entry) => entry.status === 'not-in-file');
  const unmarked = report.entries.filter((entry) => entry.status === 'not-marked');
  lines.push(
    `  ${filled} filled, ${refused} refused, ${noRow.length} with no row in the file, ${unmarked.length} row${unmarked.length === 1 ? '' : 's'} not marked (left as they were)`,
  );
  const list = (title: string, entries: FillEntry[], why: (entry: FillEntry) => string) => {
    if (entries.length === 0) return;
    lines.push(`  ${title} (${entries.length}):`);
    for (const entry of entries) lines.push(`    ${who(entry)}: ${why(entry)}`);
  };
  list(
    'Refused, left as they were (the platform would skip or misread them)',
    report.entries.filter((entry) => entry.status === 'refused'),
    (entry) => `${entry.reason}: ${entry.detail ?? ''}${entry.grade ? ` (the grade would be ${entry.grade})` : ''}`,
  );
  list('In the download, with no row in the file (nowhere to import their grade)', noRow, (entry) =>
    entry.grade !== undefined
      ? `marked: ${entry.grade} out of ${report.target.maximum}, to enter by hand`
      : `${entry.download?.status ?? 'marked'}${entry.download?.reason ? `: ${entry.download.reason}` : ''}`,
  );
  list(
    'Rows not marked: no submission in the download',
    unmarked.filter((entry) => entry.download === undefined),
    () => 'not in the download',
  );
  list(
    'Rows not marked: in the download',
    unmarked.filter((entry) => entry.download !== undefined),
    (entry) => `${entry.download!.status}${entry.download!.reason ? `: ${entry.download!.reason}` : ''}`,
  );
  const warned = report.entries.filter((entry) => entry.status === 'filled' && entry.warnings.some((w) => w !== 'feedback-not-written'));
  list(
    'Filled, to check',
    warned,
    (entry) =>
      `${entry.grade}; ${entry.warnings
        .filter((w) => w !== 'feedback-not-written')
        .map((w) =>
          w === 'overwrites-grade'
            ? `${WARNING_WORDS[w]} (${entry.previousGrade}${entry.lastModified && entry.lastModified !== '-' ? `, last modified ${entry.lastModified}` : ''})`
            : WARNING_WORDS[w],
        )
        .join('; ')}`,
  );
  for (const note of report.notes) lines.push(`  Note: ${note}`);
  lines.push(
    report.studentsMatch
      ? '  Students match: every student of the download has a row, and every row a submission.'
      : `  Students do not match (listed above): kct ${output === null ? 'exits' : 'writes the file and exits'} with code 10.`,
  );
  if (output === null) lines.push('  Nothing was filled, so no file was written.');
  return lines;
}

/** Where to import the written file, in the platform's words. */
export function importHint(platform: 'moodle' | 'canvas'): string {
  return platform === 'moodle'
    ? 'import it in Moodle: the assignment, "View all submissions", Grading action "Upload grading worksheet"'
    : 'import it in Canvas: Grades, Import, then choose the file and review the changes before saving';
}
