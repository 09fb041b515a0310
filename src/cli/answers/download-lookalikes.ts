// A download where the folder rules would read answers file by file: inside the folder named (its
// only subfolder), a folder that mostly looks like one, one Canvas student's files, or a download's
// zip among the answers. Each is said or refused before anything is sent, with the command that
// reads it as the download it is (download.ts).
import { join } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { loneCanvasStudent, type Platform, recogniseDownload, type StudentSubmission } from '../../platforms/submissions.js';
import { shellWord } from '../core/shell-word.js';
import { type FolderLooks, folderDownload, isFolder, PLATFORM_NAMES } from './download.js';
import { GROUP_BY_STUDENT, GROUP_BY_STUDENT_DOES } from './plan-words.js';

/** A download inside a folder named; `asIs`: named as it came (else it only mostly looks like one: a worksheet beside its students). */
export interface DownloadWithin {
  path: string;
  platform: Platform;
  asIs: boolean;
}

/**
 * A download inside the folder named, which the folder rules would read file by file: its only
 * subfolder (a download unzipped beside the grading worksheet, or into a folder of its own with
 * it), holding two students or more. A folder of several subfolders is a class folder, read by the
 * folder rules: a student folder whose files keep Canvas's names is no download.
 */
export function downloadWithin(inputs: readonly string[], looks: FolderLooks): DownloadWithin | undefined {
  for (const input of inputs) {
    if (!isFolder(input)) continue;
    const folders = looks.of(input).names.filter((entry) => entry.isDirectory());
    if (folders.length !== 1) continue;
    const path = join(input, folders[0].name);
    const platform = folderDownload(path, looks);
    const { recognised } = looks.of(path);
    if (recognised.platform === null || recognised.students.length < 2) continue;
    return { path, platform: platform ?? recognised.platform, asIs: platform !== undefined };
  }
  return undefined;
}

/**
 * A download found inside the folder named: said, or refused (exit 2, nothing sent) when the folder
 * rules would enter it and read it file by file, each file an answer and each page charged alone.
 */
export function checkDownloadWithin(
  within: DownloadWithin,
  options: { recursive?: boolean; groupBy?: string; studentIdFrom?: string },
  note: (line: string) => void,
): void {
  const what = `${within.path} ${within.asIs ? 'is' : 'looks like'} a ${PLATFORM_NAMES[within.platform]} download${within.asIs ? ' (its names say so)' : ''}`;
  if (options.recursive || options.groupBy === 'folder' || options.studentIdFrom === 'folder')
    throw new UsageError(`${what}: the folder rules would read it file by file, each file an answer of its own. Nothing was sent.`, {
      suggestion: markDownloadAlone(within),
    });
  note(`${what}, not entered. ${markDownloadAlone(within)}`);
}

/** What to do with a download found inside the folder named: mark it on its own, one answer per student. */
export function markDownloadAlone(within: { path: string; asIs: boolean }): string {
  return `Mark it on its own, one answer per student with the platform's ids: kct one-pass ${shellWord(within.path)}${within.asIs ? '' : ` ${GROUP_BY_STUDENT}`} --model <id> (its zip works too).`;
}

/**
 * The Moodle or Canvas download a zip is, read from its central directory only (nothing is
 * extracted), as a zip named is read; undefined for any other zip, or one that cannot be read.
 */
export async function zipDownloadPlatform(path: string): Promise<Platform | undefined> {
  const { listZipEntries } = await import('../../platforms/zip.js');
  try {
    return recogniseDownload((await listZipEntries(path)).map((entry) => entry.path)).platform ?? undefined;
  } catch {
    // a zip kct refuses says why when it is named: this is only a hint
    return undefined;
  }
}

/** What to do with a download's zip found among the answers: name it alone, as kct reads it itself. */
export function markZipDownload(path: string, platform: Platform): string {
  return `It is a ${PLATFORM_NAMES[platform]} download, which kct reads itself (no need to unpack it), one answer per student: kct one-pass ${shellWord(path)} --model <id>.`;
}

/**
 * A folder that mostly looks like a download (more than half its first-level names are a
 * platform's, but not all), named without --group-by student: refused before anything is read or
 * sent, since the folder rules would make each student's pages answers of their own, under
 * file-name ids; so is one whose files Canvas's names make a single student's (loneCanvasStudent).
 * Reads at most a few thousand names of its first level.
 */
export function checkLookalike(inputs: readonly string[], looks: FolderLooks): void {
  if (inputs.length !== 1 || !isFolder(inputs[0])) return;
  const lone = loneStudentWithin(inputs[0], looks);
  if (lone !== undefined) throw loneStudentError(lone.folder, lone.student);
  const { recognised } = looks.of(inputs[0]);
  if (recognised.platform === null) return;
  // hidden and system names are not among them (FolderLooks)
  const others = recognised.unmatched.filter((entry) => !entry.path.endsWith('/'));
  const named =
    others.length > 0
      ? ` (but not ${others.length === 1 ? 'its file' : 'its files'} ${others
          .slice(0, 3)
          .map((entry) => entry.path)
          .join(', ')}${others.length > 3 ? ', ...' : ''})`
      : '';
  throw new UsageError(
    `${inputs[0]} looks like a ${PLATFORM_NAMES[recognised.platform]} download${named}: read by the folder rules, each student's files would be answers of their own, under file names for student ids. Nothing was sent.`,
    {
      suggestion: `Add ${GROUP_BY_STUDENT}, as for the download's zip (${GROUP_BY_STUDENT_DOES}; the other files are left out, and named). To mark each file on its own instead, name the files: kct one-pass ${shellWord(inputs[0].replace(/[/\\]+$/, ''))}/* --model <id>.`,
    },
  );
}

/** A folder whose files Canvas's names would make one student's pages (loneCanvasStudent): which reading is meant is asked, not guessed. */
function loneStudentError(folder: string, student: StudentSubmission): UsageError {
  const count = student.files.length;
  const named = shellWord(folder.replace(/[/\\]+$/, ''));
  return new UsageError(
    `${folder}: its ${count} files are named as Canvas names the uploads of one student ("${student.displayName}", user ${student.participantId}): read as a Canvas download they would be the pages of one answer, read by the folder rules each an answer of its own. Nothing was sent.`,
    {
      suggestion: `To mark each file on its own, name the files: kct one-pass ${named}/* --model <id>. If it is one student's Canvas download: kct one-pass ${named} ${GROUP_BY_STUDENT} --model <id>.`,
    },
  );
}

/** The folder named, or its only subfolder (unzipped into a folder of its own, as folderDownload reads it), when its files read as one Canvas student's. */
function loneStudentWithin(folder: string, looks: FolderLooks): { folder: string; student: StudentSubmission } | undefined {
  return looks.within(folder, ({ recognised }, at) => {
    const student = loneCanvasStudent(recognised);
    return student === undefined ? undefined : { folder: at, student };
  });
}
