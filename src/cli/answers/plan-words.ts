// What the collection says about a class folder, in words: the notes for stderr (what was left
// out, skipped, empty or shared) and the refusals that stop a run before anything is sent.
import { basename, extname } from 'node:path';
import { UsageError } from '../../api/errors.js';
import type { FileProblem } from '../../client/files.js';
import type { SkippedAnswer, SkippedFile } from './answers.js';

/** What a folder that looks like a Moodle or Canvas download, read as a plain folder, needs (every note, row and hint names it so). */
export const GROUP_BY_STUDENT = '--group-by student';
/** What --group-by student does to such a folder, in a clause. */
export const GROUP_BY_STUDENT_DOES = "each student's files and online text are then one answer, with the platform's participant ids";

/** Names left out, by kind: a count and the first few names (what the notes show). */
export type LeftOut = Record<'ignore' | 'exclude' | 'own' | 'not-entered' | 'loop' | 'empty', { count: number; first: string[] }>;

export function emptyLeftOut(): LeftOut {
  const tally = () => ({ count: 0, first: [] as string[] });
  return { ignore: tally(), exclude: tally(), own: tally(), 'not-entered': tally(), loop: tally(), empty: tally() };
}

export function listOf(names: { count: number; first: string[] }, noun: string): string {
  const shown = names.first.slice(0, 5).join(', ');
  return `${names.count} ${noun}${names.count === 1 ? '' : 's'} (${shown}${names.count > 5 ? `, and ${names.count - 5} more` : ''})`;
}

/** The note for files the command writes, found among its answers (a folder's or a download's): `first` named as `path (what)`. */
export function ownNote(first: readonly string[], count: number): string {
  return `not answers: ${first.join(', ')}: this command writes ${count === 1 ? 'it' : 'them'}`;
}

/**
 * The notes about what was left out without a row: said even when the run then stops, so nothing is
 * hidden (`rows` false: then no row is printed, and none is promised).
 */
export function leftOutNotes(left: LeftOut, rows = true): string[] {
  const one = left['not-entered'].count === 1;
  const listed = rows ? `; ${one ? 'it is' : 'they are'} listed as NOT_ENTERED` : '';
  const lines: string[] = [];
  if (left.ignore.count > 0)
    lines.push(
      `ignored: ${listOf(left.ignore, 'file')} (hidden, system and Markdown files in folders are never sent; name one to send it)`,
    );
  if (left.exclude.count > 0) lines.push(`excluded by --exclude: ${listOf(left.exclude, 'path')}`);
  if (left.own.count > 0) lines.push(ownNote(left.own.first, left.own.count));
  if (left['not-entered'].count > 0)
    lines.push(
      `not entered: ${listOf(left['not-entered'], 'subfolder')}; pass --recursive to mark the answers in ${one ? 'it' : 'them'} (or --exclude to leave ${one ? 'it' : 'them'} out)${listed}`,
    );
  if (left.loop.count > 0) lines.push(`walked once: ${listOf(left.loop, 'folder')} reached again through a link`);
  if (left.empty.count > 0) lines.push(`empty: ${listOf(left.empty, 'folder')} inside student folders`);
  return lines;
}

/**
 * The note about files skipped under --skip-unsupported: how many, and where each is said (a row
 * of its own, SKIPPED, or the message of the answer it belongs to, marked without it).
 */
export function skippedNote(files: string[], inAnswers: number): string[] {
  if (files.length === 0) return [];
  const inRows = files.length - inAnswers;
  const where =
    inAnswers === 0
      ? `${files.length === 1 ? 'it is' : 'they are'} listed as SKIPPED`
      : inRows === 0
        ? `${files.length === 1 ? 'it is' : 'each is'} named in the message of the answer it belongs to, marked without it`
        : `${inRows} ${inRows === 1 ? 'is' : 'are'} listed as SKIPPED, ${inAnswers} named in the message of the answer ${inAnswers === 1 ? 'it belongs' : 'they belong'} to`;
  return [
    `skipping ${listOf({ count: files.length, first: files.slice(0, 5) }, files.every((path) => /[\\/]$/.test(path)) ? 'folder' : 'file')} that cannot be sent (--skip-unsupported); ${where}`,
  ];
}

/** The reason of one SKIPPED row for an answer none of whose files can be sent: the file's own, or each file's. */
export function unsendableReason(files: readonly SkippedFile[]): string {
  if (files.length === 1) return files[0].reason;
  return `none of its ${files.length} files can be sent: ${files.map((file) => file.reason).join('; ')}`;
}

/** Why a student folder has no row of its own: nothing in it, or only what is never sent. */
export function emptyReason(folder: { ignored: number; excluded: number; own: number }): string {
  if (folder.ignored + folder.excluded + folder.own === 0) return 'empty folder: nothing submitted';
  const parts: string[] = [];
  if (folder.ignored)
    parts.push(`${folder.ignored} hidden, system or Markdown file${folder.ignored === 1 ? '' : 's'} (never sent from a folder)`);
  if (folder.excluded) parts.push(`${folder.excluded} path${folder.excluded === 1 ? '' : 's'} excluded by --exclude`);
  if (folder.own) parts.push(`${folder.own} file${folder.own === 1 ? '' : 's'} this command writes`);
  return `nothing to mark in this folder: ${parts.join(', ')}`;
}

/** Student ids given to more than one answer, said once; `hint` says what to do (by default, for a folder's files). */
export function sharedStudentIds(byId: Map<string, number>, studentIdFrom: string | undefined, hint?: string): string[] {
  const shared = [...byId].filter(([, count]) => count > 1);
  if (shared.length === 0) return [];
  // --student-id-from folder names the first folder level: a tree of schools or classes above the students names those
  hint ??=
    studentIdFrom === 'folder'
      ? "each first-level folder is taken for one student: if each holds one student's pages, add --group-by folder; if they are schools or classes, run kct on each class folder"
      : 'with a folder per student directly under the folder given, use --student-id-from folder (for a tree of schools or classes, run kct on each class folder)';
  return [
    `note: several answers share a student id (${shared
      .slice(0, 3)
      .map(([id, n]) => `"${id}" ${n} times`)
      .join(', ')}${shared.length > 3 ? ', ...' : ''}); ${hint}`,
  ];
}

/**
 * Files that cannot be sent stop the run: each named with its reason, a hint per kind, and the way
 * out. `skipFlag`: the command has --skip-unsupported (kct batch has not), so the refusal may offer it.
 */
export function refusal(problems: FileProblem[], others: boolean, leftOut: string[], skipFlag = true): UsageError {
  // a "file" with spaces and no extension is most often the answer's text itself, typed as an argument
  const textLike = problems.some((p) => p.kind === 'missing' && /\s/.test(basename(p.path)) && extname(p.path) === '');
  const topic: Partial<Record<FileProblem['kind'], string>> = {
    empty: 'empty files',
    'too-big': 'files over the size limit',
    'too-many': 'answers of more than 10 files',
    special: 'special files',
  };
  const hints = [
    ...new Set(
      problems.map((p) => {
        if (problems.length === 1) return p.suggestion;
        // an unreadable file or folder, or one to rename, is named: its way out is its own
        const about =
          p.kind === 'unreadable' || p.ownHint
            ? p.path
            : p.kind === 'unsupported'
              ? extname(p.path).toLowerCase() || basename(p.path)
              : topic[p.kind];
        return about ? `${about}: ${p.suggestion}` : p.suggestion;
      }),
    ),
  ];
  if (textLike) hints.push('To mark a text typed here, pass it with --text "<answer>" (or on standard input, with -).');
  const canSkip = skipFlag && others && problems.some((p) => p.kind !== 'missing');
  if (canSkip) hints.push('Or pass --skip-unsupported to mark the others and list these as SKIPPED.');
  const message =
    problems.length === 1
      ? problems[0].message
      : `${problems.length} ${problems.some((p) => p.kind === 'too-many') ? 'answers and files' : 'answer files'} cannot be sent:\n  ${problems.map((p) => p.message).join('\n  ')}`;
  // what else was found and left out is said too: a first run that stops must not hide the subfolders it did not enter
  const also = leftOut.length > 0 ? `\nAlso found: ${leftOut.join('\n  ')}` : '';
  return new UsageError(`${message}${problems.length === 1 && !others ? '' : '\nNothing was sent.'}${also}`, {
    suggestion: hints.join('\n  '),
  });
}

/** Nothing to send, and no row either: what was named holds no answer file. */
export function noAnswers(roots: string[], left: LeftOut, exists: (path: string) => boolean): UsageError {
  if (roots.length === 0) {
    return new UsageError('no answers given', {
      suggestion: 'Pass answer files or folders, - for text on stdin, --text "<answer>", or --files-from <list>.',
    });
  }
  const folder = roots.length > 1 || exists(roots[0]);
  const where = roots.length === 1 ? `${folder ? 'the folder' : 'the pattern'} ${roots[0]}` : `the folders ${roots.join(', ')}`;
  const subfolders = left['not-entered'].count;
  return new UsageError(
    `${where} ${roots.length > 1 ? 'hold' : folder ? 'holds' : 'matches'} no answer files (PDF, DOCX, RTF, TXT or images)`,
    {
      suggestion:
        subfolders > 0
          ? `It holds ${subfolders} subfolder${subfolders === 1 ? '' : 's'}: pass --recursive to mark the answers in ${subfolders === 1 ? 'it' : 'them'} (or --group-by folder when each subfolder holds one student's files).`
          : 'Check the folder; Markdown, hidden and excluded files are never sent from a folder.',
    },
  );
}

/**
 * Nothing can be sent, but what was found has rows (SKIPPED, EMPTY, NOT_ENTERED): they go with the
 * refusal, so every output still holds a row for each (a district's CSV loses no student).
 */
export class NothingToSend extends UsageError {
  constructor(
    refusal: UsageError,
    readonly rows: readonly Omit<SkippedAnswer, 'index'>[],
  ) {
    super(refusal.message, { suggestion: refusal.suggestion });
  }
}
