// One-pass's --moodle-worksheet and --canvas-gradebook, until one-pass loses them (issue 33, item 6):
// their flags read into the grade file of `kct grades` (src/commands/grades/), which fills grade
// files from a saved run. Remove this file with the flags.
import { UsageError } from '../../api/errors.js';
import type { DownloadStudent, FillResult } from '../../platforms/fill-report.js';
import type { Mark, Rounding } from '../../platforms/grade-scale.js';
import { GradeFile as SavedRunGradeFile } from '../grades/grade-file.js';

export { importHint, reportLines } from '../grades/import-report.js';
export { MarkBook } from '../grades/mark-book.js';

interface GradeFileFlags {
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
  private constructor(private readonly file: SavedRunGradeFile) {}

  /** The grade file of the flags, read and checked before anything is sent; undefined without one. */
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
    const via = platform === 'moodle' ? '--moodle-worksheet' : '--canvas-gradebook';
    return new GradeFile(
      SavedRunGradeFile.open({ ...flags, platform, path, via, feedback: platform === 'moodle' ? flags.feedback : undefined }),
    );
  }

  get platform(): 'moodle' | 'canvas' {
    return this.file.platform;
  }

  get path(): string {
    return this.file.path;
  }

  get target(): string {
    return this.file.target;
  }

  /** Before anything is sent: the file is for the download's platform, and some student of the download has a row in it. */
  checkAgainst(download: { input: string; platform: 'moodle' | 'canvas'; students: readonly { participantId: string }[] }): void {
    this.file.checkPlatform(download, 'nothing was sent');
    this.file.checkStudents(download.input, download.students, 'nothing was sent');
  }

  fill(marks: ReadonlyMap<string, Mark>, students?: readonly DownloadStudent[]): FillResult {
    return this.file.fill(marks, students);
  }

  write(bytes: Buffer): void {
    this.file.write(bytes);
  }
}
