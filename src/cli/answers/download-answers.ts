// The students of an opened download (download.ts) as the answers of a run: one row per student,
// named by the platform, so that the marks can go back into the platform's grade file. A student
// is an answer (their files and online text, marked without any file that cannot be sent), or one
// row not sent: EMPTY (nothing handed in) or SKIPPED (nothing of it can be sent: a URL, files kct
// cannot send, more than 10 files). Every path of the download ends in one entry.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { MAX_FILES_PER_REQUEST } from '../../api/limits.js';
import { checkLocalFile, type FileProblem, isFileProblem, type LocalFile, undecodableName } from '../../client/files.js';
import { onlineTextAsPlain } from '../../platforms/online-text.js';
import type { StudentSubmission } from '../../platforms/submissions.js';
import { cliWords } from '../core/hints.js';
import type { Answer, AnswerSources, Collection, Entry, SkippedAnswer, SkippedFile } from './answers.js';
import { type Download, folderWhat, nameOf, PLATFORM_NAMES, studentInfo } from './download.js';
import { naturalOrder } from './natural-order.js';
import { NothingToSend, ownNote, unsendableReason } from './plan-words.js';

/** What one of a student's paths became, for the entry table: meant for the answer, skipped (named in the student's row), or left out. */
type PathOutcome = { action: 'send'; blank?: boolean } | { action: 'skip'; reason: string } | { action: 'ignore'; reason: string };

/** One student's files, read: the answer's pages and online text, what cannot be sent, and each path's outcome. */
interface StudentFiles {
  pages: LocalFile[];
  texts: { path: string; text: string }[];
  unsendable: SkippedFile[];
  /** Files that stop the run (without --skip-unsupported, or unreadable online text). */
  refused: FileProblem[];
  blankText: boolean;
  hidden: number;
  paths: Map<string, PathOutcome>;
  /** The download's path and the student's own name (Moodle: with its folders) of each page, then of each online text. */
  named: { pages: { path: string; name: string }[]; texts: { path: string; name: string }[] };
}

/**
 * The download's answers, one per student, and a row for every student (the answer, or EMPTY, or
 * SKIPPED with its reason). Without --skip-unsupported a file that cannot be sent stops the run,
 * naming every such file, before anything is sent. Every path of the download ends in one entry:
 * its student's row, or left out with its reason (system and hidden files, names that are not the
 * platform's, counted as ignored; folders that are not a student's).
 */
export function collectDownload(download: Download, sources: AnswerSources, explain: boolean): Omit<Collection, 'shape'> {
  checkSources(download, sources);
  const { platform } = download;
  const shown = download.input.replace(/[/\\]+$/, '') || download.input;
  // a student's own folder named alone: its paths, and its row, as in the whole download
  const at = (path: string) => `${download.studentFolder?.prefix ?? `${shown}/`}${path}`;
  const students = [...download.recognised.students].sort(
    (a, b) => naturalOrder(a.displayName, b.displayName) || naturalOrder(a.participantId, b.participantId),
  );
  const answers: Answer[] = [];
  const skipped: SkippedAnswer[] = [];
  const names = new Map<number, string>();
  /** The parts of each answer of several, as the note names them. */
  const parts = new Map<number, string[]>();
  const entries: Entry[] = [];
  const refused: { student: string; problem: FileProblem }[] = [];
  let ignored = 0;
  let textCount = 0;

  for (const student of students) {
    const row = answers.length + skipped.length;
    const id = student.participantId;
    const name = nameOf(student);
    const label = at(name === undefined ? id : name === `Participant ${id}` ? name : `${name} (${id})`);
    const keyName = `${platform}:${id}`;
    const files = readStudentFiles(student, download, sources, at);
    ignored += files.hidden;
    for (const problem of files.refused) refused.push({ student: label, problem });
    const who = { label, keyName, studentId: id, ...(name !== undefined ? { studentName: name } : {}) };
    const outcome = studentRow(student, files, who, at, sources);
    if ('status' in outcome) skipped.push({ ...outcome, index: row });
    else {
      answers.push({ ...outcome, index: row });
      if (outcome.files.length === 0) textCount += 1;
      if (outcome.files.length > 1) parts.set(row, partNames(files));
    }
    if (name !== undefined) names.set(row, name);
    if (explain) entries.push(...studentEntries(student, files, 'status' in outcome ? outcome.status : 'SUCCESS', who, at));
  }

  const strays: string[] = [];
  for (const { path, reason } of download.recognised.unmatched) {
    // folders that are not a student's (a wrapper, __MACOSX/) hold nothing to mark: no count
    if (!path.endsWith('/')) {
      ignored += 1;
      if (!/system file/.test(reason)) strays.push(`${at(path)} (${reason})`);
    }
    if (explain) entries.push({ path: at(path), action: 'ignore', reason });
  }

  if (refused.length > 0) throw refusal(refused, answers.length + skipped.length > 0);
  if (answers.length === 0) {
    const lines = skipped.map((s) => `${s.label}: ${s.status} (${s.reason})`);
    const refusal = new UsageError(`nothing to mark in ${shown}: no student's answer can be sent:\n  ${lines.join('\n  ')}`, {
      suggestion: 'Check the download: download the submissions again once students have handed in.',
    });
    // every student is still a row of the output (EMPTY, SKIPPED), printed before the refusal
    throw skipped.length > 0 ? new NothingToSend(refusal, skipped) : refusal;
  }

  const byRow = new Map(answers.map((answer) => [answer.index, answer]));
  return {
    count: answers.length,
    rows: answers.length + skipped.length,
    textCount,
    answers: function* () {
      yield* answers;
    },
    answerAt: (index) => byRow.get(index),
    skipped,
    leftOut: { ignored, excluded: 0, own: download.own?.length ?? 0, duplicates: 0, loops: 0, emptyFolders: 0 },
    notes: downloadNotes(download, shown, at, { students, answers, skipped, strays, parts }),
    entries,
    studentNameAt: (index) => names.get(index),
    download: {
      platform,
      input: download.input,
      students: students.map(studentInfo),
    },
  };
}

/** Reads each of a student's files: a page to send, online text, a file that cannot be sent (and why), or one left out. */
function readStudentFiles(
  student: StudentSubmission,
  download: Download,
  sources: AnswerSources,
  at: (path: string) => string,
): StudentFiles {
  const read: StudentFiles = {
    pages: [],
    texts: [],
    unsendable: [],
    refused: [],
    blankText: false,
    hidden: 0,
    paths: new Map(),
    named: { pages: [], texts: [] },
  };
  // a folder of the student's that cannot be read: what is in it is not known, so the student is not "nothing submitted"
  for (const entry of student.entries) {
    const code = download.unreadable?.get(entry);
    if (code === undefined) continue;
    const problem = undecodableName(at(entry)) ?? {
      kind: 'unreadable' as const,
      path: at(entry),
      message: `cannot read the folder ${at(entry)} (${code})`,
      suggestion: 'Check its permissions, or download the submissions again.',
    };
    if (!sources.skipUnsupported) read.refused.push(problem);
    else read.unsendable.push({ label: at(entry), reason: `${problem.message}. ${cliWords(problem.suggestion)}` });
  }
  for (const file of student.files) {
    const base = file.originalName.split('/').pop() ?? file.originalName;
    if (file.kind === 'link') {
      read.unsendable.push({
        label: at(file.path),
        reason: 'a URL submission (a link, not a file or text): open it on the platform and mark it by hand',
      });
      read.paths.set(file.path, { action: 'skip', reason: 'link' });
    } else if (file.kind === 'onlinetext') {
      const text = readOnlineText(join(download.root, file.path), at(file.path), read.refused);
      if (text === undefined) continue;
      const blank = text.trim() === '';
      if (blank) read.blankText = true;
      else {
        read.texts.push({ path: file.path, text });
        read.named.texts.push({ path: file.path, name: file.originalName });
      }
      read.paths.set(file.path, { action: 'send', ...(blank ? { blank } : {}) });
    } else if (base.startsWith('.') || base.startsWith('~$')) {
      read.hidden += 1;
      read.paths.set(file.path, { action: 'ignore', reason: 'hidden file' });
    } else {
      const disk = join(download.root, file.path);
      const checked = checkLocalFile(disk);
      if (!isFileProblem(checked)) {
        // the student's own file name is sent, never the platform's prefix (which holds the student's name)
        read.pages.push({ ...checked, name: base });
        read.named.pages.push({ path: file.path, name: file.originalName });
        read.paths.set(file.path, { action: 'send' });
        continue;
      }
      // named as in the download, never by the private folder it was extracted to
      const problem = { ...checked, path: at(file.path), message: checked.message.replaceAll(disk, at(file.path)) };
      if (!sources.skipUnsupported || problem.kind === 'missing') read.refused.push(problem);
      else {
        read.unsendable.push({ label: at(file.path), reason: `${problem.message}. ${cliWords(problem.suggestion)}` });
        read.paths.set(file.path, { action: 'skip', reason: problem.kind });
      }
    }
  }
  return read;
}

/**
 * An answer's parts as a note names them: each file's path within the student's folder ("old/v1.txt"),
 * and where two are named alike (a Canvas student's two uploads of essay.txt) the download's own name.
 */
function partNames(read: StudentFiles): string[] {
  const named = [...read.named.pages, ...(read.pages.length > 0 ? read.named.texts : [])];
  const count = new Map<string, number>();
  for (const { name } of named) count.set(name, (count.get(name) ?? 0) + 1);
  return named.map(({ path, name }) => ((count.get(name) ?? 0) > 1 ? path : name));
}

function readOnlineText(path: string, shownPath: string, refused: FileProblem[]): string | undefined {
  try {
    return onlineTextAsPlain(readFileSync(path, 'utf8'));
  } catch (error) {
    refused.push({
      kind: 'unreadable',
      path: shownPath,
      message: `cannot read ${shownPath} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      suggestion: 'Download the submissions again.',
    });
    return undefined;
  }
}

type Who = { label: string; keyName: string; studentId: string; studentName?: string };

/** The one row of a student: their answer (online text as text when it is all there is), or why there is none. */
function studentRow(
  student: StudentSubmission,
  read: StudentFiles,
  who: Who,
  at: (path: string) => string,
  sources: AnswerSources,
): Omit<Answer, 'index'> | Omit<SkippedAnswer, 'index'> {
  const text = read.texts.map((part) => part.text).join('\n\n');
  const files = read.texts.length > 0 && read.pages.length > 0 ? [...read.pages, textPage(at(read.texts[0].path), text)] : read.pages;
  if (files.length === 0 && read.texts.length === 0) {
    if (read.unsendable.length > 0) return { ...who, status: 'SKIPPED', reason: unsendableReason(read.unsendable) };
    const reason =
      student.files.length === 0
        ? 'empty submission: nothing submitted'
        : read.blankText
          ? 'empty submission: the online text is empty'
          : `nothing to mark: only ${read.hidden === 1 ? 'a hidden file' : `${read.hidden} hidden files`}`;
    return { ...who, status: 'EMPTY', reason };
  }
  if (files.length > MAX_FILES_PER_REQUEST) {
    const message = `${files.length} files in one answer (${who.label}); the limit is ${MAX_FILES_PER_REQUEST} files per answer`;
    if (!sources.skipUnsupported)
      throw new UsageError(message, {
        suggestion:
          'The files of one answer go in one request: ask the student to merge them into one PDF, or pass --skip-unsupported to list this student as SKIPPED.',
      });
    const also = read.unsendable.map((file) => `; and ${file.reason}`).join('');
    return { ...who, status: 'SKIPPED', reason: `${message}${also}` };
  }
  return {
    ...who,
    files,
    ...(files.length === 0 ? { text } : {}),
    ...(read.unsendable.length > 0 ? { skippedFiles: read.unsendable } : {}),
  };
}

/** Each path of a student as an entry: a file meant for the answer follows the student's row when there is no answer. */
function studentEntries(student: StudentSubmission, read: StudentFiles, status: string, who: Who, at: (path: string) => string): Entry[] {
  const rowAction: Entry['action'] = status === 'SUCCESS' ? 'send' : status === 'EMPTY' ? 'empty' : 'skip';
  const row = { answer: who.label, keyName: who.keyName, studentId: who.studentId };
  return student.entries.map((path): Entry => {
    const outcome = read.paths.get(path);
    if (outcome?.action === 'ignore') return { path: at(path), action: 'ignore', reason: outcome.reason };
    if (outcome?.action === 'skip') return { path: at(path), action: 'skip', ...row, reason: outcome.reason };
    // meant for the answer: a blank online text, or one of more files than one answer can send
    if (outcome?.action === 'send' && rowAction === 'skip')
      return {
        path: at(path),
        action: 'skip',
        ...row,
        reason: outcome.blank ? 'the online text is empty' : 'too many files in one answer',
      };
    if (outcome || path.endsWith('/')) return { path: at(path), action: rowAction, ...row };
    return { path: at(path), action: 'ignore', reason: 'left out' };
  });
}

/** What the download holds, in words: students, answers, EMPTY and SKIPPED rows, late work, files that are no student's. */
function downloadNotes(
  download: Download,
  shown: string,
  at: (path: string) => string,
  {
    students,
    answers,
    skipped,
    strays,
    parts,
  }: { students: StudentSubmission[]; answers: Answer[]; skipped: SkippedAnswer[]; strays: string[]; parts: Map<number, string[]> },
): string[] {
  const platform = PLATFORM_NAMES[download.platform];
  const empties = skipped.filter((s) => s.status === 'EMPTY').length;
  const without = answers.filter((answer) => answer.skippedFiles !== undefined).length;
  const late = students.filter((student) => student.late);
  const others = download.studentFolder?.others.map((name) => `${at(name)}/`).join(', ');
  const what = download.studentFolder
    ? `${folderWhat(download.input, download.platform)}, read as that student's submission${others ? ` with the student's other ${download.studentFolder.others.length === 1 ? 'folder' : 'folders'} beside it (${others}), as the download reads it` : ''}`
    : `a ${platform} download of ${students.length} student${students.length === 1 ? '' : 's'}`;
  const notes = [
    `${shown}: ${what}: ${answers.length} answer${answers.length === 1 ? '' : 's'} to mark${without > 0 ? ` (${without} without a file that cannot be sent, named in ${without === 1 ? 'its' : 'their'} row)` : ''}${empties > 0 ? `, ${empties} with nothing submitted (EMPTY)` : ''}${skipped.length > empties ? `, ${skipped.length - empties} SKIPPED` : ''}`,
  ];
  if (late.length > 0)
    notes.push(
      `late (as ${platform} names them): ${late.length} student${late.length === 1 ? '' : 's'} (${late
        .slice(0, 5)
        .map((s) => nameOf(s) ?? s.participantId)
        .join(', ')}${late.length > 5 ? ', ...' : ''})`,
    );
  if (strays.length > 0)
    notes.push(
      `not a student's submission, not sent: ${strays.slice(0, 5).join(', ')}${strays.length > 5 ? `, and ${strays.length - 5} more` : ''}`,
    );
  if (download.own !== undefined && download.own.length > 0) notes.push(ownNote(download.own.map(at), download.own.length));
  // a student's files are sent as the pages of one answer: drafts handed in beside the final one would be marked with it
  const several = answers.filter((answer) => answer.files.length > 1);
  if (several.length > 0)
    notes.push(
      `${several.length} student${several.length === 1 ? '' : 's'} handed in more than one file or text, sent together as the pages of one answer (${several
        .slice(0, 3)
        .map((answer) => `${answer.studentName ?? answer.studentId}: ${(parts.get(answer.index) ?? []).join(', ')}`)
        .join('; ')}${several.length > 3 ? '; ...' : ''}): if some are drafts, leave them out of the download and run again`,
    );
  return notes;
}

/** Flags that shape how a folder is read, and make no sense for a download (its names say who is who). */
function checkSources(download: Download, sources: AnswerSources): void {
  const what =
    download.kind === 'zip' ? 'a Moodle or Canvas download' : `${download.input}, ${folderWhat(download.input, download.platform)}`;
  const refuse = (flag: string, suggestion = 'Leave it out; to mark other answers, mark them in a run of their own.') => {
    throw new UsageError(
      `${flag} does not apply to ${what}: each student's files and online text are one answer, and the student id is the platform's participant id`,
      { suggestion },
    );
  };
  if (sources.text !== undefined) refuse('--text');
  if (sources.filesFrom !== undefined) refuse('--files-from');
  if (sources.pages) refuse('--pages');
  if (sources.studentId !== undefined) refuse('--student-id');
  // what --exclude is reached for in a download: the files kct cannot send (a .odt, a .pages)
  if ((sources.exclude ?? []).length > 0)
    refuse(
      '--exclude',
      "Leave it out. To pass over the files kct cannot send, add --skip-unsupported: each student is marked without them, and each file is named in its student's row.",
    );
  if (sources.groupBy === 'folder') refuse('--group-by folder');
  if (sources.studentIdFrom !== undefined && sources.studentIdFrom !== 'name') refuse(`--student-id-from ${sources.studentIdFrom}`);
  if (sources.inputs.length !== 1) refuse('another input');
}

/** Online text sent with the student's files: a page of plain text, held in memory. */
function textPage(path: string, text: string): LocalFile {
  const data = Buffer.from(text, 'utf8');
  return { path: `${path}.txt`, name: 'onlinetext.txt', type: 'text/plain', size: data.length, data };
}

/** Files of the download that cannot be sent stop the run: each named with its student, and the way past them. */
function refusal(problems: { student: string; problem: FileProblem }[], others: boolean): UsageError {
  const lines = problems.map(({ student, problem }) => `${student}: ${problem.message}`);
  const hints = [...new Set(problems.map(({ problem }) => cliWords(problem.suggestion)))];
  if (others && problems.some(({ problem }) => problem.kind !== 'missing'))
    hints.push(
      'Or pass --skip-unsupported to mark each student without these files (one with nothing else is listed as SKIPPED, to mark by hand).',
    );
  return new UsageError(
    `${problems.length === 1 ? 'a file of the download cannot be sent' : `${problems.length} files of the download cannot be sent`}:\n  ${lines.join('\n  ')}\nNothing was sent.`,
    { suggestion: hints.join('\n  ') },
  );
}
