// The answer-collection rules, in one place: what the files, folders, globs, --files-from, - and
// --text a user names yield; each answer's key name (for --idempotency-key) and student id; and
// every file left out, with the reason. Nothing is sent before the whole collection is checked.
// The folder walk (walk.ts) is a generator that holds one folder's names at a time; the check
// (plan.ts) keeps, per answer file, only its name relative to its folder and its size
// (answer-list.ts), and a run then builds each answer when it needs it: a class of 100,000 files
// holds 100,000 names. A Moodle or Canvas download is read by its own rules (download-answers.ts).
import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from '../../api/errors.js';
import { lenientText } from '../../api/text-bytes.js';
import type { LocalFile } from '../../client/files.js';
import type { IO } from '../core/io.js';
import { readStdinAnswer, readStdinText } from '../core/stdin.js';
import type { Download, DownloadStudentInfo } from './download.js';
import { collectDownload } from './download-answers.js';
import { TEXT_LABEL } from './labels.js';
import { OwnFiles } from './own-files.js';
import { planAnswers } from './plan.js';
import { NothingToSend } from './plan-words.js';
import { excluder, globberFor, walkInputs } from './walk.js';

export interface Answer {
  /** Its row in the output: answers and skipped files numbered in the order they were found. */
  index: number;
  /** How the answer is named in output: the path as given (a folder's files joined to it), "-" for stdin, TEXT_LABEL for --text. */
  label: string;
  /**
   * What names this answer in a key made from a user's --idempotency-key (`<key>-<keyName>`): its
   * path relative to its folder (or as given), its student folder, its student id, or
   * `<platform>:<participant id>` in a download. A label, never what decides the mark.
   */
  keyName: string;
  /** One file, or the pages of one answer (--pages, --group-by folder, a student of a download), sent in one request. */
  files: LocalFile[];
  text?: string;
  studentId?: string;
  /** The student's name, when a learning platform's download gives one (the student id is then the platform's participant id). */
  studentName?: string;
  /**
   * Files of this answer that cannot be sent (left out under --skip-unsupported; a URL submission
   * in a download): the answer is marked without them, and its row's message says so
   * (skippedFilesNote). Absent when there are none. A file that is an answer of its own is a
   * SKIPPED row instead.
   */
  skippedFiles?: SkippedFile[];
}

/** A file of an answer that cannot be sent: named as found (the download's path, never kct's private copy), and why. */
export interface SkippedFile {
  label: string;
  reason: string;
}

/**
 * Something found that is not sent but may be a student's work, so it is a row in every format:
 * an answer none of whose files can be sent (SKIPPED, under --skip-unsupported), a subfolder not
 * entered (NOT_ENTERED, without --recursive) or a student folder with nothing to send (EMPTY).
 */
export interface SkippedAnswer {
  /** Its row in the output (see Answer.index). */
  index: number;
  label: string;
  keyName: string;
  studentId?: string;
  /** The student's name, when a learning platform's download gives one. */
  studentName?: string;
  status: UnsentStatus;
  reason: string;
}

type UnsentStatus = 'SKIPPED' | 'NOT_ENTERED' | 'EMPTY';

type StudentIdSource = 'name' | 'folder' | 'none';

export interface AnswerSources {
  inputs: string[];
  text?: string;
  filesFrom?: string;
  studentId?: string;
  studentIdFrom?: StudentIdSource;
  /** All files are the pages of one answer. */
  pages?: boolean;
  /**
   * folder: each first-level folder of a folder argument is one answer (its files are the pages);
   * implies recursive. student: each student of a learning platform's download (`download`).
   */
  groupBy?: 'folder' | 'student';
  /** A Moodle or Canvas download, opened (cli/answers/download.ts): its students are the answers, and it is the only input. */
  download?: Download;
  recursive?: boolean;
  exclude?: string[];
  /** Leave out files that cannot be sent (type, empty, size, unreadable) instead of stopping the run. */
  skipUnsupported?: boolean;
  /** The MIME types this command sends (default: every answer type); `kct batch` sends text only. */
  accepted?: readonly string[];
  /** What to do with an answer file of a type the service takes but this command does not (a command without --skip-unsupported). */
  elsewhere?: string;
  /** Files this command writes (--resume, --report, its redirected output): never answers (own-files.ts). */
  own?: OwnFiles;
}

/** What happened to each thing found: the table the unit test checks. */
export type Action = 'send' | 'skip' | 'ignore' | 'exclude' | 'own' | 'duplicate' | 'not-entered' | 'empty' | 'loop';

/** Things found and left out without a row of their own: counted in the notes, the summary and the report. */
export interface LeftOutCounts {
  /** Hidden, system and Markdown files and folders. */
  ignored: number;
  /** Paths matching --exclude. */
  excluded: number;
  /** Files this command writes (its journal, report or redirected output), found among the answers. */
  own: number;
  /** Files reached twice (a link, a folder and one of its files): marked once. */
  duplicates: number;
  /** Folders reached twice through a link: walked once. */
  loops: number;
  /** Empty folders inside a student folder that has answers (an empty student folder is an EMPTY row). */
  emptyFolders: number;
}

export interface Entry {
  /** The path as kct reached it. */
  path: string;
  action: Action;
  /** The row it belongs to (its label): an answer's for send, and for skip the answer marked without it or the SKIPPED row. */
  answer?: string;
  keyName?: string;
  studentId?: string;
  reason?: string;
}

export interface Collection {
  /** How many answers will be sent (skipped files not counted). */
  count: number;
  /** How many rows a run prints: answers and rows not sent. */
  rows: number;
  /** How many answers are plain text (one .txt file, stdin or --text): what --via batch can send. */
  textCount: number;
  /** The answers in the order found, each built when asked for: only names are held. */
  answers(): Generator<Answer>;
  /** The answer printed in row `index` (to resubmit or report it later). */
  answerAt(index: number): Answer | undefined;
  /** Rows of things not sent (SKIPPED, NOT_ENTERED, EMPTY), in the order found. */
  skipped: SkippedAnswer[];
  /** What was left out without a row, by kind. */
  leftOut: LeftOutCounts;
  /** One record for a single named answer; a list for a folder, a glob, --files-from or several inputs (docs/guides/marking-a-class.md, "Output shapes"). */
  shape: 'record' | 'list';
  /** Lines for stderr about what was left out or merged (never silent). */
  notes: string[];
  /** Every path found and what became of it; only when asked for (`explain`), as it holds one entry per file. */
  entries: Entry[];
  /** The student's name of row `index`, when the answers come from a learning platform's download. */
  studentNameAt?(index: number): string | undefined;
  /** The learning platform's download the answers come from: its platform and every student in it. */
  download?: { platform: 'moodle' | 'canvas'; input: string; students: DownloadStudentInfo[] };
}

/** The message of an answer's row about its files that could not be sent (Answer.skippedFiles), or undefined when none. */
export function skippedFilesNote(files: readonly SkippedFile[] | undefined): string | undefined {
  if (!files || files.length === 0) return undefined;
  const what = files.length === 1 ? 'a file' : `${files.length} files`;
  return `marked without ${what} that cannot be sent: ${files.map((file) => file.reason).join('; ')}`;
}

export async function collectAnswers(sources: AnswerSources, io: IO, options: { explain?: boolean } = {}): Promise<Collection> {
  if (sources.download) return { ...collectDownload(sources.download, sources, options.explain === true), shape: 'list' };
  if (sources.groupBy === 'student') {
    throw new UsageError('--group-by student reads a Moodle or Canvas download: name its zip, or the folder it unzips to', {
      suggestion: 'For a folder of student folders, use --group-by folder.',
    });
  }
  const exclude = await excluder(sources.exclude ?? []);
  // a student folder's name is the student's: naming students by folder enters the folders (those directly in the
  // one named, unless --recursive or --group-by folder asks for all: a tree of schools would name students by school)
  const recursive = Boolean(sources.recursive || sources.groupBy === 'folder' || sources.studentIdFrom === 'folder');
  const depth = sources.recursive || sources.groupBy === 'folder' ? undefined : 1;
  const { named, textAnswers, fromList } = await namedInputs(sources, io);
  const globSync = await globberFor(named, existsSync);
  const roots: string[] = [];
  const shape = (): Collection['shape'] => {
    const single = !fromList && roots.length === 0 && sources.inputs.length + (sources.text === undefined ? 0 : 1) === 1;
    const pagesOfOne = Boolean(sources.pages) && roots.length === 0 && !fromList && textAnswers.length === 0;
    return single || pagesOfOne ? 'record' : 'list';
  };
  try {
    const collection = await planAnswers(walkInputs(named, { recursive, depth, exclude, roots, globSync }), {
      textAnswers,
      roots,
      sources,
      explain: options.explain === true,
      // a command that names no file of its own still has its redirected output (`kct batch dir > dir/marks.csv`)
      own: sources.own ?? OwnFiles.of([], io),
    });
    return { ...collection, shape: shape() };
  } catch (error) {
    // one answer named is one record, said by its refusal alone; a folder's rows are printed with it
    if (error instanceof NothingToSend && shape() === 'record') throw new UsageError(error.message, { suggestion: error.suggestion });
    throw error;
  }
}

/** The paths named (arguments and --files-from, in that order) and the text answers (- and --text), read and checked. */
async function namedInputs(sources: AnswerSources, io: IO): Promise<{ named: string[]; textAnswers: Answer[]; fromList: boolean }> {
  const textAnswers: Answer[] = [];
  const named: string[] = [];
  let stdinUsed = false;
  const fromList = sources.filesFrom !== undefined;
  if (sources.filesFrom !== undefined) {
    const listing = sources.filesFrom === '-' ? await readStdinText(io) : readListing(sources.filesFrom);
    stdinUsed = sources.filesFrom === '-';
    named.push(...listedPaths(listing));
  }
  for (const input of sources.inputs) {
    if (input !== '-') {
      named.push(input);
      continue;
    }
    if (stdinUsed) {
      throw new UsageError(
        sources.filesFrom === '-'
          ? 'standard input is already used by --files-from -'
          : '- is given more than once: standard input holds one answer',
        { suggestion: 'Read one answer from standard input, or save the others to files.' },
      );
    }
    stdinUsed = true;
    textAnswers.push({ index: textAnswers.length, label: '-', keyName: 'stdin', files: [], text: await readStdinAnswer(io) });
  }
  if (sources.text !== undefined)
    textAnswers.push({ index: textAnswers.length, label: TEXT_LABEL, keyName: 'text', files: [], text: sources.text });
  for (const answer of textAnswers) {
    if (answer.text!.trim() === '')
      throw new UsageError(`the answer ${answer.label === '-' ? 'on standard input' : 'text'} is empty`, {
        suggestion:
          answer.label === '-'
            ? 'Pipe the answer in, e.g. kct one-pass - < answer.txt, or give its file: kct one-pass answer.txt.'
            : 'Give the answer\'s words, --text "<answer>", or its file: kct one-pass answer.txt.',
      });
  }
  return { named, textAnswers, fromList };
}

/**
 * The paths of a --files-from list, each as written: a line is a path (a CRLF's CR dropped), with no
 * comments and no trimming, since "#1 essay.txt" and "draft .txt" are names students give; only
 * blank lines (and a byte order mark) are passed over. A list holding a NUL is one of find -print0: NUL ends each path.
 */
export function listedPaths(text: string): string[] {
  // a list saved by Notepad starts with a byte order mark: no name does
  const listing = text.replace(/^\uFEFF/, '');
  const lines = listing.includes('\0') ? listing.split('\0') : listing.split('\n').map((line) => line.replace(/\r$/, ''));
  return lines.filter((line) => line.trim() !== '');
}

function readListing(path: string): string {
  try {
    // a list PowerShell or Notepad saved as UTF-16 is read as such, never split at its NUL bytes
    return lenientText(readFileSync(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(`cannot read --files-from ${path} (${code})`, {
      suggestion:
        code === 'ENOENT'
          ? 'Check the path of the list: one answer path a line (e.g. made with find answers/ -name "*.pdf" > list.txt), or - to read it from stdin.'
          : code === 'EISDIR'
            ? `It is a folder: name it as an argument instead (kct one-pass ${path}); --files-from reads a list of paths.`
            : 'Check its permissions, or give the list on stdin with --files-from -.',
    });
  }
}
