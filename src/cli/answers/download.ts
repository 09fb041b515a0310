// A learning platform's download (Moodle's or Canvas's "Download all submissions"), zipped or
// unzipped, as the answers of one run: which input is one, and opening it. A zip and the folder
// it unzips to are one mechanism from here on: their entries as '/'-separated paths (the zip's
// entry list, the folder's listing), recognised by the platform's names (src/platforms/submissions.ts)
// and read from a folder on disk (the folder itself, or the zip's private extraction folder).
// What becomes of each student is download-answers.ts.

import { type Dirent, opendirSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { listDownloadFolder } from '../../platforms/folder-listing.js';
import {
  loneCanvasStudent,
  moodleStudentFolder,
  type Platform,
  type RecognisedDownload,
  recogniseDownload,
  type StudentSubmission,
} from '../../platforms/submissions.js';
import { naturalOrder } from './natural-order.js';
import type { OwnFiles } from './own-files.js';

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
  /**
   * A Moodle student's own folder named alone: its paths are shown after `prefix` (the folder above
   * it), as in the whole download, and read with the student's `others` folders beside it.
   */
  studentFolder?: { prefix: string; others: string[] };
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
export const isFolder = (path: string) => statOf(path)?.isDirectory() === true;

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
      const what = found.platform ? folderWhat(found.input, found.platform) : 'a download';
      throw new UsageError(
        `${found.input} is ${what}, marked as a whole: name it alone (${inputs.length} answers or downloads were named)`,
        {
          suggestion:
            found.platform && studentFolderOf(found.input)
              ? "Mark each student's folder, and any other answers, in a run of its own, or name the download that holds them."
              : 'Mark each download, and any other answers, in a run of its own.',
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
 * The platform whose download a folder is as it came: its own name is a Moodle student's
 * submission folder's (studentFolderOf), or every name at its first level (system and hidden
 * files, and files the command writes, aside) is named as that platform names a submission, or its
 * only folder is such a download (unzipped into a folder of its own). A folder with other things
 * in it is a class folder, read by the folder rules (checkLookalike refuses one that mostly looks
 * like a download).
 */
export function folderDownload(folder: string, looks: FolderLooks): Platform | undefined {
  if (studentFolderOf(folder) !== undefined) return 'moodle';
  return looks.within(folder, ({ recognised }) =>
    recognised.platform !== null && recognised.unmatched.length === 0 && !loneCanvasStudent(recognised) ? recognised.platform : undefined,
  );
}

/**
 * A folder whose own name is a Moodle student's submission folder's (`<name>_<id>_assignsubmission_<plugin>_`),
 * taken out of the download to mark that student alone: read as in the download that holds it, its
 * name the student's and its files their pages. Moodle's name is unambiguous, so it is read, not
 * asked (a Canvas student's files have no folder of their own: loneCanvasStudent asks).
 */
function studentFolderOf(folder: string): { name: string; participantId: string; holder: string; prefix: string } | undefined {
  const named = folder.replace(/[/\\]+$/, '');
  const name = basename(resolve(folder));
  const student = moodleStudentFolder(name);
  if (student === undefined) return undefined;
  // shown as named (dl/Bo Chen_102_…_/draft.txt); a folder named as `.` from the folder above, in full
  const prefix = basename(named) === name ? named.slice(0, named.length - name.length) : `${dirname(resolve(folder))}${sep}`;
  return { name, participantId: student.participantId, holder: dirname(resolve(folder)), prefix };
}

/**
 * The student's other submission folders beside the one named (Moodle gives each kind of submission
 * its own: files, online text), which the download reads as the same answer; none when the folder
 * above cannot be read.
 */
function otherFoldersOf(student: { name: string; participantId: string; holder: string }): string[] {
  try {
    return readdirSync(student.holder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== student.name)
      .filter((entry) => moodleStudentFolder(entry.name)?.participantId === student.participantId)
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** What a folder read as a download is, in words: a download, or one Moodle student's submission folder. */
export function folderWhat(folder: string, platform: Platform): string {
  return studentFolderOf(folder) !== undefined
    ? `a ${PLATFORM_NAMES[platform]} student's submission folder (its name says so)`
    : `a ${PLATFORM_NAMES[platform]} download (its names say so)`;
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
  let listed: { root: string; paths: string[] };
  if (found.kind === 'folder') listed = await listFolder(found.input);
  else {
    const { listZipEntries } = await import('../../platforms/zip.js');
    listed = { root: found.input, paths: (await listZipEntries(found.input)).map((entry) => entry.path) };
  }
  const download = recognised(found, listed.root, listed.paths, async () => {}, flag);
  return { platform: download.platform, students: download.recognised.students.map(studentInfo) };
}

/**
 * An unzipped download's paths, relative to `root`, less the command's own files (`path (what)`):
 * a Moodle student's own folder is listed as in the download that holds it (its name first), from
 * the folder above it.
 */
async function listFolder(
  folder: string,
  own?: OwnFiles,
): Promise<{ root: string; paths: string[]; unreadable: Map<string, string>; own: string[]; studentFolder?: Download['studentFolder'] }> {
  const student = studentFolderOf(folder);
  if (student === undefined) {
    const { paths, unreadable } = await listDownloadFolder(folder);
    // the command's own files (a journal, a report, `> marks.csv` in the folder) are none of the download's
    const { theirs, own: ours } = withoutOwn(folder, paths, own);
    return { root: folder, paths: theirs, unreadable, own: ours };
  }
  const others = otherFoldersOf(student);
  const listed = { root: student.holder, paths: [] as string[], unreadable: new Map<string, string>(), own: [] as string[] };
  for (const name of [student.name, ...others]) {
    const at = name === student.name ? folder : join(student.holder, name);
    const { paths, unreadable } = await listDownloadFolder(at);
    const { theirs, own: ours } = withoutOwn(at, paths, own);
    const inside = (path: string) => `${name}/${path}`;
    listed.paths.push(`${name}/`, ...theirs.map(inside));
    for (const [path, code] of unreadable) listed.unreadable.set(inside(path), code);
    listed.own.push(...ours.map(inside));
  }
  return { ...listed, studentFolder: { prefix: student.prefix, others } };
}

/** Opens a download: a zip is checked and extracted (refused, naming the entry, before anything is sent); a folder is listed. */
export async function openDownload(found: { input: string; kind: 'zip' | 'folder' }, own?: OwnFiles): Promise<Download> {
  if (found.kind === 'folder') {
    const { root, paths, unreadable, own: ours, studentFolder } = await listFolder(found.input, own);
    return { ...recognised(found, root, paths, async () => {}), unreadable, own: ours, ...(studentFolder ? { studentFolder } : {}) };
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
