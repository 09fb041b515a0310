// A learning platform's download (Moodle's or Canvas's "Download all submissions"), zipped or
// unzipped, as the answers of one run: which input is one, and opening it. A zip and the folder
// it unzips to are one mechanism from here on: their entries as '/'-separated paths (the zip's
// entry list, the folder's listing), recognised by the platform's names (src/platforms/submissions.ts)
// and read from a folder on disk (the folder itself, or the zip's private extraction folder).
// What becomes of each student is download-answers.ts.

import { type Dirent, opendirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { listDownloadFolder } from '../../platforms/folder-listing.js';
import {
  loneCanvasStudent,
  type Platform,
  type RecognisedDownload,
  recogniseDownload,
  type StudentSubmission,
} from '../../platforms/submissions.js';
import { shellWord } from '../core/shell-word.js';
import { naturalOrder } from './natural-order.js';
import type { OwnFiles } from './own-files.js';
import { GROUP_BY_STUDENT, GROUP_BY_STUDENT_DOES } from './plan-words.js';

/** An opened download: its entries on disk, and the students its names give. */
export interface Download {
  /** The zip or folder as the user named it. */
  input: string;
  kind: 'zip' | 'folder';
  /** Where its entries are on disk: the folder itself, or the zip's private extraction folder. */
  root: string;
  platform: Platform;
  recognised: RecognisedDownload;
  /** Removes what opening it made (the extraction folder); safe to call twice. */
  cleanup(): Promise<void>;
  /** Folders of an unzipped download that cannot be read, by relative path ('/' at the end), with the error's code. */
  unreadable?: ReadonlyMap<string, string>;
  /** Files of an unzipped download the command writes (its journal, report or output), left out: `path (what)`. */
  own?: readonly string[];
}

/** A student of the download, as the grade file is matched against it. */
export interface DownloadStudentInfo {
  participantId: string;
  /** The name the platform gives (the download's for Moodle, "Participant N" under blind marking); none for Canvas's anonymous ids. */
  name?: string;
}

export const PLATFORM_NAMES: Record<Platform, string> = { moodle: 'Moodle', canvas: 'Canvas' };

/** Natural order ("page 2" before "page 10"), and names the collator holds equal (é composed or not) in code-unit order. */
const inNaturalOrder = (a: string, b: string) => naturalOrder(a, b) || (a < b ? -1 : a > b ? 1 : 0);

/** Names an operating system leaves in a folder: no part of a download, and no sign against one. */
const SYSTEM_NAMES = new Set(['__macosx', 'thumbs.db', 'desktop.ini']);

/** At most this many names of a folder are read to tell whether it is a download. */
const PEEK = 5000;

const isFile = (path: string) => statOf(path)?.isFile() === true;
const isFolder = (path: string) => statOf(path)?.isDirectory() === true;

function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Which input is a download to read as one, or none. A .zip always is (kct marks no zip
 * otherwise). A folder is when its names are a download's as it came (folderDownload), or when
 * asked (--group-by student, a grade file to fill): then it must be mostly named so. A download
 * is marked as a whole: it is the only input.
 */
export function downloadInput(
  inputs: readonly string[],
  options: { groupBy?: string; gradeFileFlag?: string; looks?: FolderLooks },
): { input: string; kind: 'zip' | 'folder' } | undefined {
  const asked = options.groupBy === 'student' ? '--group-by student' : options.gradeFileFlag;
  const looks = options.looks ?? new FolderLooks();
  const found = inputs
    .map((input) => {
      if (/\.zip$/i.test(input) && isFile(input)) return { input, kind: 'zip' as const, platform: undefined };
      const platform = asked === undefined && isFolder(input) ? folderDownload(input, looks) : undefined;
      return platform ? { input, kind: 'folder' as const, platform } : undefined;
    })
    .find((download) => download !== undefined);
  if (found) {
    if (inputs.length > 1) {
      const what = found.platform ? `a ${PLATFORM_NAMES[found.platform]} download (its names say so)` : 'a download';
      throw new UsageError(
        `${found.input} is ${what}, marked as a whole: name it alone (${inputs.length} answers or downloads were named)`,
        {
          suggestion: 'Mark each download, and any other answers, in a run of its own.',
        },
      );
    }
    return { input: found.input, kind: found.kind };
  }
  if (asked === undefined) return undefined;
  if (inputs.length !== 1 || !isFolder(inputs[0])) {
    throw new UsageError(
      `${asked} reads one Moodle or Canvas download: its zip, or the folder it unzips to (${inputs.length === 0 ? 'none was named' : inputs.length > 1 ? `${inputs.length} were named` : `${inputs[0]} is neither`})`,
      {
        suggestion:
          'Download the submissions from the platform ("Download all submissions") and name the zip: kct one-pass submissions.zip --model <id>.',
      },
    );
  }
  return { input: inputs[0], kind: 'folder' };
}

/**
 * The platform whose download a folder is as it came: every name at its first level (system and
 * hidden files, and files the command writes, aside) is named as that platform names a
 * submission, or its only folder is such a download (unzipped into a folder of its own). A folder
 * with other things in it is a class folder, read by the folder rules (checkLookalike refuses one
 * that mostly looks like a download).
 */
function folderDownload(folder: string, looks: FolderLooks): Platform | undefined {
  return looks.within(folder, ({ recognised }) =>
    recognised.platform !== null && recognised.unmatched.length === 0 && !loneCanvasStudent(recognised) ? recognised.platform : undefined,
  );
}

/** What a folder's first level says of a download: its names (hidden and system ones aside), less the command's own files, recognised; read once a run. */
export class FolderLooks {
  private readonly seen = new Map<string, { names: Dirent[]; recognised: RecognisedDownload }>();

  constructor(private readonly own?: OwnFiles) {}

  of(folder: string): { names: Dirent[]; recognised: RecognisedDownload } {
    let look = this.seen.get(folder);
    if (look === undefined) {
      const names = peek(folder).filter((entry) => !entry.name.startsWith('.') && !SYSTEM_NAMES.has(entry.name.toLowerCase()));
      const paths = names.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
      const recognised = recogniseDownload(paths);
      // recognised again only when a file of the command's was among the names
      const { theirs, own } = withoutOwn(folder, paths, this.own, recognised);
      look = { names, recognised: own.length === 0 ? recognised : recogniseDownload(theirs) };
      this.seen.set(folder, look);
    }
    return look;
  }

  /**
   * What `found` finds in the folder, or in its only subfolder, two levels down at most: a download
   * unzipped into a folder of its own is read as the folder it unzips to.
   */
  within<T>(
    folder: string,
    found: (look: { names: Dirent[]; recognised: RecognisedDownload }, folder: string) => T | undefined,
  ): T | undefined {
    for (let depth = 0, at = folder; ; depth++) {
      const look = this.of(at);
      const result = found(look, at);
      if (result !== undefined || depth >= 2 || look.names.length !== 1 || !look.names[0].isDirectory()) return result;
      at = join(at, look.names[0].name);
    }
  }
}

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
 * A download's paths (relative to `folder`) less the files the command writes (the journal, report
 * or output of the same command run there before: none of the download's), and those, named with
 * what they are. Only paths no platform gives a student are looked at, and only when the command
 * writes a file: a run whose output is a terminal or a pipe stats nothing.
 */
function withoutOwn(
  folder: string,
  paths: string[],
  own: OwnFiles | undefined,
  recognised?: RecognisedDownload,
): { theirs: string[]; own: string[] } {
  if (own === undefined || own.none) return { theirs: paths, own: [] };
  const unmatched = new Set((recognised ?? recogniseDownload(paths)).unmatched.map((entry) => entry.path));
  const ours: string[] = [];
  const theirs = paths.filter((path) => {
    const what = unmatched.has(path) && !path.endsWith('/') ? own.at(join(folder, path)) : undefined;
    if (what !== undefined) ours.push(`${path} (${what})`);
    return what === undefined;
  });
  return { theirs, own: ours };
}

/** The first names of a folder, a few at a time (a class folder may hold 100,000); none when it cannot be read. */
function peek(folder: string): Dirent[] {
  const entries: Dirent[] = [];
  try {
    const dir = opendirSync(folder, { bufferSize: 256 });
    try {
      for (let entry = dir.readSync(); entry !== null && entries.length < PEEK; entry = dir.readSync()) entries.push(entry);
    } finally {
      dir.closeSync();
    }
  } catch {
    // unreadable: the folder rules say why
  }
  return entries;
}

/** The name a row shows: the platform's, "Participant N" under Moodle's blind marking, none for Canvas's anonymous ids. */
export function nameOf(student: StudentSubmission): string | undefined {
  if (student.anonymous) return undefined;
  if (student.platform === 'moodle' && student.displayName === 'Participant') return `Participant ${student.participantId}`;
  return student.displayName;
}

export function studentInfo(student: StudentSubmission): DownloadStudentInfo {
  const name = nameOf(student);
  return { participantId: student.participantId, ...(name !== undefined ? { name } : {}) };
}

/**
 * The students of a download named to match a grade file against (kct grades --download), read
 * from its names alone: a zip is checked and listed, never extracted.
 */
export async function readDownloadStudents(input: string, flag: string): Promise<{ platform: Platform; students: DownloadStudentInfo[] }> {
  const found = downloadInput([input], { gradeFileFlag: flag });
  if (!found) throw new UsageError(`${flag} names a Moodle or Canvas download: its zip, or the folder it unzips to`);
  let paths: string[];
  if (found.kind === 'folder') paths = (await listDownloadFolder(found.input)).paths;
  else {
    const { listZipEntries } = await import('../../platforms/zip.js');
    paths = (await listZipEntries(found.input)).map((entry) => entry.path);
  }
  const download = recognised(found, found.input, paths, async () => {}, flag);
  return { platform: download.platform, students: download.recognised.students.map(studentInfo) };
}

/** Opens a download: a zip is checked and extracted (refused, naming the entry, before anything is sent); a folder is listed. */
export async function openDownload(found: { input: string; kind: 'zip' | 'folder' }, own?: OwnFiles): Promise<Download> {
  if (found.kind === 'folder') {
    const { paths, unreadable } = await listDownloadFolder(found.input);
    // the command's own files (a journal, a report, `> marks.csv` in the folder) are none of the download's
    const { theirs, own: ours } = withoutOwn(found.input, paths, own);
    return { ...recognised(found, found.input, theirs, async () => {}), unreadable, own: ours };
  }
  // yauzl loads only for a zip
  const { extractZip } = await import('../../platforms/zip.js');
  const zip = await extractZip(found.input);
  let removed = false;
  const cleanup = async () => {
    if (removed) return;
    removed = true;
    await zip.cleanup();
  };
  try {
    return recognised(
      found,
      zip.root,
      zip.entries.map((entry) => entry.path),
      cleanup,
    );
  } catch (error) {
    await cleanup();
    throw error;
  }
}

function recognised(
  found: { input: string; kind: 'zip' | 'folder' },
  root: string,
  paths: string[],
  cleanup: () => Promise<void>,
  flag?: string,
): Download {
  // one order whatever the form: a zip's entries come in the order they were written, a folder's
  // as listed; a student's pages are sent in this order (natural, as a folder's files are)
  const download = recogniseDownload([...paths].sort(inNaturalOrder));
  if (download.platform === null) {
    const { moodle, canvas, considered } = download.counts;
    throw new UsageError(
      `${found.input} is not a Moodle or Canvas download: of its ${considered} files and student folders, ${moodle} are named as Moodle names them ("<name>_<id>_assignsubmission_<plugin>_") and ${canvas} as Canvas does ("<name>_<user id>_<file id>_<file>")`,
      {
        suggestion:
          flag !== undefined
            ? `${flag} names the download that was marked: its zip as the platform made it ("Download all submissions"), or the folder it unzips to.`
            : found.kind === 'zip'
              ? 'Give the zip exactly as the platform made it ("Download all submissions"). To mark a zip of other answers, unzip it and name the folder.'
              : "To mark the folder's files as answers, leave out --group-by student (see --recursive and --group-by folder).",
      },
    );
  }
  return { ...found, root, platform: download.platform, recognised: download, cleanup };
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
