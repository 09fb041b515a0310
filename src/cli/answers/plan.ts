// The check of everything the walk found (walk.ts): every file is checked, duplicates removed,
// pages grouped into answers, each answer given its key name and student id, and the rows
// numbered; names and sizes only are kept (AnswerList). Every path found lands in exactly one
// outcome: an answer, a file named in the row of the answer it belongs to, a row not sent
// (SKIPPED, NOT_ENTERED, EMPTY), or a count of what is left out without a row (ignored,
// excluded, duplicates, loops, empty folders).
import { type Stats, statSync } from 'node:fs';
import { sep } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { ANSWER_MIME_TYPES, MAX_FILES_PER_REQUEST } from '../../api/limits.js';
import { CHECK_PERMISSIONS, checkLocalFile, type FileProblem, isFileProblem, undecodableName } from '../../client/files.js';
import { AnswerList } from './answer-list.js';
import type { Answer, AnswerSources, Collection, SkippedAnswer } from './answers.js';
import { type Explained, explainEntries, type UnsentFolder } from './explain.js';
import { SeenFiles } from './file-id.js';
import { OwnFiles } from './own-files.js';
import {
  emptyLeftOut,
  emptyReason,
  type LeftOut,
  leftOutNotes,
  listOf,
  NothingToSend,
  noAnswers,
  refusal,
  sharedStudentIds,
  skippedNote,
} from './plan-words.js';
import { LMS_FOLDER_SUFFIX } from './student-id.js';
import { placeUnsendable, type Unsendable } from './unsendable.js';
import type { Found } from './walk.js';

/** A first-level folder of a folder argument being walked: a student folder, a row when nothing in it is sent. */
interface OpenFolder {
  key: string;
  item: Found;
  position: number;
  /** Something in it is an answer or a SKIPPED row. */
  hasRow: boolean;
  /** What was found in it and left out, for the EMPTY row's reason. */
  ignored: number;
  excluded: number;
  own: number;
}

const keyOf = (item: Found) => `${item.root}\u0000${item.group}`;

export async function planAnswers(
  found: Iterable<Found>,
  run: { textAnswers: Answer[]; roots: string[]; sources: AnswerSources; explain: boolean; own?: OwnFiles },
): Promise<Omit<Collection, 'shape'>> {
  const plan = new Planner(run.roots, run.textAnswers, run.sources, run.explain, run.own ?? new OwnFiles());
  for (const item of found) plan.add(item);
  await plan.nameDownloads();
  return plan.finish();
}

class Planner {
  readonly list: AnswerList;
  private readonly refused: FileProblem[] = [];
  private readonly left: LeftOut = emptyLeftOut();
  private duplicates = 0;
  private readonly notes: string[] = [];
  private readonly seen = new SeenFiles((file) => this.list.filePath(file));
  /** Files that cannot be sent, under --skip-unsupported: placed once every answer is known. */
  private readonly unsendable: Unsendable[] = [];
  private readonly unsentFolders: UnsentFolder[] = [];
  private readonly explained: Explained[] = [];
  private position = 0;
  private sendable = 0;
  /** The answer being filled: a student folder's (--group-by folder), or --pages' one answer. */
  private group: { key: string; answer: number } | undefined;
  /** Each group's answer, by key; and the groups dropped as SKIPPED rows (too many files). */
  readonly groupAnswers = new Map<string, number>();
  readonly droppedGroups = new Map<string, SkippedAnswer>();
  private folder: OpenFolder | undefined;

  constructor(
    readonly roots: string[],
    private readonly textAnswers: Answer[],
    readonly sources: AnswerSources,
    private readonly explain: boolean,
    private readonly own: OwnFiles,
  ) {
    this.list = new AnswerList(roots, textAnswers, sources);
  }

  add(item: Found): void {
    this.position += 1;
    if (item.kind === 'folder') this.folderEntered(item);
    else if (item.kind === 'loop') {
      this.note('loop', item.path);
      this.record({ item, leftOut: 'loop' });
    } else if (item.kind === 'not-entered') this.notEntered(item);
    else if (item.kind === 'file') this.file(item);
    else this.leaveOut(item, item.kind);
  }

  /** Left out without a row: said in the notes, and counted in its folder (an empty folder says why). */
  private leaveOut(item: Found, kind: 'ignore' | 'exclude' | 'own', what = item.keyName): void {
    this.note(kind, what);
    if (this.inFolder(item)) this.folder![kind === 'ignore' ? 'ignored' : kind === 'exclude' ? 'excluded' : 'own'] += 1;
    this.record(kind === 'own' ? { item, leftOut: 'own' } : { item });
  }

  /** A platform's download zip among the answers is no archive to unpack: its hint names it alone (its directory read, nothing extracted). */
  async nameDownloads(): Promise<void> {
    const zips = [...this.refused, ...this.unsendable.map((bad) => bad.problem)].filter(
      (problem) => problem.kind === 'unsupported' && /\.zip$/i.test(problem.path),
    );
    if (zips.length === 0) return;
    const { markZipDownload, zipDownloadPlatform } = await import('./download-lookalikes.js');
    for (const problem of zips) {
      const platform = await zipDownloadPlatform(problem.path);
      if (platform === undefined) continue;
      problem.suggestion = markZipDownload(problem.path, platform);
      problem.ownHint = true;
    }
  }

  finish(): Omit<Collection, 'shape'> {
    this.closeFolder();
    const leftOut = leftOutNotes(this.left);
    const others = this.sendable + this.textAnswers.length + this.unsendable.length > 0;
    // the run stops: what it found is said, and no row is promised
    // the last answer's count of files is a problem of the same run: said with the others
    this.closeGroup();
    if (this.refused.length > 0) throw refusal(this.refused, others, leftOutNotes(this.left, false), this.sources.elsewhere === undefined);
    const inAnswers = placeUnsendable(this.unsendable, this);
    for (const folder of this.unsentFolders) folder.added = this.list.addSkipped(folder.row, folder.position);
    const { list, textAnswers } = this;
    if (this.sources.studentId !== undefined) {
      if (list.count + textAnswers.length > 1)
        throw new UsageError(
          '--student-id names one answer; with several, ids come from the file names (--student-id-from name) or the student folders (--student-id-from folder)',
        );
      list.setStudentId(this.sources.studentId);
    }
    if (list.count + textAnswers.length === 0) throw this.nothingToMark();
    // two folders holding the same names: only then can key names collide (one folder's are its relative paths)
    if (this.roots.length + list.directFiles + textAnswers.length > 1) list.qualifyCollidingKeyNames();
    list.numberRows();

    this.notes.push(...leftOut, ...this.rowNotes(inAnswers));
    return {
      count: list.count + textAnswers.length,
      rows: list.rows,
      textCount: list.textCount,
      answers: () => list.answers(),
      answerAt: (index) => list.answerAt(index),
      skipped: list.skipped,
      leftOut: {
        ignored: this.left.ignore.count,
        excluded: this.left.exclude.count,
        own: this.left.own.count,
        duplicates: this.duplicates,
        loops: this.left.loop.count,
        emptyFolders: this.left.empty.count,
      },
      notes: this.notes,
      entries: this.explain ? explainEntries(this.explained, list, textAnswers) : [],
    };
  }

  /** The notes about rows not sent, said once the rows are known: files skipped, answers with too many files, empty folders, shared ids. */
  private rowNotes(inAnswers: number): string[] {
    const { list } = this;
    const dropped = [...this.droppedGroups.values()].map((row) => row.label);
    const empties = list.skipped.filter((row) => row.status === 'EMPTY').map((row) => row.label);
    return [
      ...skippedNote(
        this.unsendable.map((bad) => bad.item.path),
        inAnswers,
      ),
      ...(dropped.length > 0
        ? [
            `${listOf({ count: dropped.length, first: dropped }, 'answer')} with more than ${MAX_FILES_PER_REQUEST} files, listed as SKIPPED`,
          ]
        : []),
      ...(empties.length > 0 ? [`nothing to send in ${listOf({ count: empties.length, first: empties }, 'folder')}; listed as EMPTY`] : []),
      ...sharedStudentIds(list.studentIdCounts(), this.sources.studentIdFrom),
    ];
  }

  private record(explained: Explained): void {
    if (this.explain) this.explained.push(explained);
  }

  private note(kind: keyof LeftOut, name: string): void {
    this.left[kind].count += 1;
    if (this.left[kind].first.length < 5) this.left[kind].first.push(name);
  }

  private inFolder(item: Found): boolean {
    return this.folder !== undefined && !item.glob && item.root !== undefined && keyOf(item) === this.folder.key;
  }

  /** A subfolder entered: a first-level one is a student folder, which becomes a row if nothing in it does. */
  private folderEntered(item: Found): void {
    const studentFolder = !item.glob && item.root !== undefined && !item.keyName.includes('/');
    if (studentFolder) {
      this.closeFolder();
      this.folder = { key: keyOf(item), item, position: this.position, hasRow: false, ignored: 0, excluded: 0, own: 0 };
    } else if (item.empty) {
      this.note('empty', `${item.keyName}/`);
      this.record({ item, leftOut: 'empty' });
    }
  }

  private closeFolder(): void {
    const folder = this.folder;
    this.folder = undefined;
    if (!folder || folder.hasRow) return;
    const { item } = folder;
    const unsent: UnsentFolder = {
      row: {
        label: item.path,
        keyName: item.keyName,
        studentId: folderStudentId(item, this.sources),
        status: 'EMPTY',
        reason: emptyReason(folder),
      },
      position: folder.position,
    };
    this.unsentFolders.push(unsent);
    this.record({ item, folderRow: unsent });
  }

  private notEntered(item: Found): void {
    this.note('not-entered', `${item.keyName}/`);
    if (this.inFolder(item)) this.folder!.hasRow = true;
    const unsent: UnsentFolder = {
      row: {
        label: `${item.path}${sep}`,
        keyName: item.keyName,
        studentId: folderStudentId(item, this.sources),
        status: 'NOT_ENTERED',
        reason: `subfolder not entered: pass --recursive to mark the answers in it (or --exclude "${item.keyName}" to leave it out)`,
      },
      position: this.position,
    };
    this.unsentFolders.push(unsent);
    this.record({ item, folderRow: unsent });
  }

  private file(item: Found): void {
    const info = item.unreadable ? undefined : (item.info ?? statOf(item.path));
    const own = info && this.own.whatOf(item.path, info);
    if (own) {
      this.leaveOut({ ...item, reason: `this command writes it: ${own}` }, 'own', `${item.keyName} (${own})`);
      return;
    }
    if (info && this.isDuplicate(item, info)) return;
    if (this.inFolder(item)) this.folder!.hasRow = true;
    const checked = foundProblem(item, info) ?? checkLocalFile(item.path, this.sources.accepted, info);
    if (isFileProblem(checked)) {
      this.cannotSend(item, info, checked);
      return;
    }
    this.sendable += 1;
    // listed even when the run will stop: its answer's count of files is one of the problems said together
    const file = this.list.addFile(item, checked.size, checked.sha256);
    this.record({ item, file });
    this.place(item, file);
  }

  /** The same file reached before (a link, a folder and one of its files): marked once, and said so. */
  private isDuplicate(item: Found, info: Stats): boolean {
    const earlierPath = this.seen.earlier(item.path, info, this.list.files);
    if (earlierPath === undefined) return false;
    this.duplicates += 1;
    this.notes.push(`${item.path} is the same file as ${earlierPath}: it is marked once`);
    this.record({ item, duplicateOf: earlierPath });
    return true;
  }

  private cannotSend(item: Found, info: Stats | undefined, problem: FileProblem): void {
    if (problem.kind === 'unsupported' && this.sources.elsewhere && ANSWER_MIME_TYPES.includes(problem.type ?? ''))
      problem.suggestion = this.sources.elsewhere;
    // found in a folder, it can be left out as a folder's unreadable subfolder can
    if (problem.suggestion === CHECK_PERMISSIONS && item.root !== undefined) problem.suggestion = leaveOut(item);
    this.seen.unlist(item.path, info);
    // a missing path is a typo, never an "unsupported" file to skip
    if (!this.sources.skipUnsupported || problem.kind === 'missing') {
      this.refused.push(problem);
      return;
    }
    const unsendable: Unsendable = { item, problem, position: this.position, group: this.groupKey(item) };
    this.unsendable.push(unsendable);
    this.record({ item, unsendable });
  }

  /** Which answer a file belongs to when files are grouped: all of --pages, or its student folder's (--group-by folder). */
  private groupKey(item: Found): string | undefined {
    if (this.sources.pages) return 'pages';
    if (this.sources.groupBy === 'folder' && item.root !== undefined && item.group !== undefined && !item.glob) return keyOf(item);
    return undefined;
  }

  /** The file opens an answer of its own, or joins its group's (the answer opened last). */
  private place(item: Found, file: number): void {
    const key = this.groupKey(item);
    if (key !== undefined && this.group?.key === key) {
      this.list.extendAnswer();
      return;
    }
    if (key === 'pages' && this.textAnswers.length > 0)
      throw new UsageError('--pages sends files as one answer: it cannot be combined with - or --text');
    this.closeGroup();
    if (key === undefined) {
      this.list.openAnswer(file, 'file', this.position);
      return;
    }
    this.group = { key, answer: this.list.openAnswer(file, key === 'pages' ? 'pages' : 'group', this.position) };
    this.groupAnswers.set(key, this.group.answer);
  }

  /** A group's answer is complete: more than 10 files is refused, or skipped with --skip-unsupported. */
  private closeGroup(): void {
    const group = this.group;
    this.group = undefined;
    if (!group) return;
    const files = this.list.fileCount(group.answer);
    if (files <= MAX_FILES_PER_REQUEST) return;
    const message = `${files} files in one answer (${this.list.labelOf(group.answer)}); the limit is ${MAX_FILES_PER_REQUEST} files per answer`;
    if (!this.sources.skipUnsupported) {
      // said with every other file that stops the run, all at once
      this.refused.push({
        kind: 'too-many',
        path: this.list.labelOf(group.answer),
        message,
        suggestion: 'The files of one answer go in one request: merge the pages into one PDF, or send fewer.',
      });
      return;
    }
    this.groupAnswers.delete(group.key);
    this.droppedGroups.set(group.key, this.list.dropLastAnswerAsSkipped(message));
  }

  private nothingToMark(): UsageError {
    const found = [...this.list.skipped].sort((a, b) => a.position - b.position);
    const refusal = found.some((row) => row.status !== 'NOT_ENTERED')
      ? new UsageError(
          `nothing to mark: no answer can be sent:\n  ${found.map((row) => `${row.label}: ${row.status} (${row.reason})`).join('\n  ')}`,
          {
            suggestion:
              this.left['not-entered'].count > 0
                ? 'Pass --recursive to mark the answers in subfolders.'
                : 'Check the folder: add the answers, or name the files to send.',
          },
        )
      : noAnswers(this.roots, this.left, (path) => statOf(path) !== undefined);
    return found.length === 0 ? refusal : new NothingToSend(refusal, found);
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** The student id of a folder row: the folder's, when ids come from folders; none otherwise. */
function folderStudentId(item: Found, sources: AnswerSources): string | undefined {
  if (sources.studentIdFrom === 'none' || (sources.studentIdFrom !== 'folder' && sources.groupBy !== 'folder')) return undefined;
  const name = item.keyName.split('/')[0];
  return name.replace(LMS_FOLDER_SUFFIX, '') || undefined;
}

/** What to do about a file or folder found in a folder that cannot be read. */
function leaveOut(item: Found): string {
  return `Check its permissions, or leave it out with --exclude "${item.keyName}".`;
}

/** A file found in a folder that is gone by the time it is read: a file that cannot be sent, not a mistyped path. */
function foundProblem(item: Found, info: Stats | undefined): FileProblem | undefined {
  if (item.unreadable)
    return (
      undecodableName(item.path) ?? {
        kind: 'unreadable',
        path: item.path,
        message: `cannot read the folder ${item.path} (${item.unreadable})`,
        suggestion: leaveOut(item),
      }
    );
  if (info || item.root === undefined) return undefined;
  const undecodable = undecodableName(item.path);
  if (undecodable) return undecodable;
  const what = item.dangling ? 'a link to a file that does not exist' : 'no longer there (removed while the folder was read)';
  return {
    kind: 'unreadable',
    path: item.path,
    message: `${item.path}: ${what}`,
    suggestion: item.dangling ? 'Remove the link, or restore the file it points to.' : 'Run again once the folder has settled.',
  };
}
