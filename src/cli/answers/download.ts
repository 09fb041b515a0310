// A learning platform's download (Moodle's or Canvas's "Download all submissions"), zipped or
// unzipped, as the answers of one run: one per student, named by the platform, so that the marks
// can go back into the platform's grade file. The platform's names are read by src/platforms
// (submissions.ts); this module decides which input is a download, opens it (a zip is checked
// entry by entry and extracted to a private folder before anything is sent) and turns every
// student into exactly one row: an answer, an EMPTY row, or SKIPPED rows with their reasons.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { MAX_FILES_PER_REQUEST } from '../../api/limits.js';
import { checkLocalFile, type FileProblem, isFileProblem, type LocalFile } from '../../client/files.js';
import { listDownloadFolder } from '../../platforms/folder-listing.js';
import { onlineTextAsPlain } from '../../platforms/online-text.js';
import { type Platform, type RecognisedDownload, recogniseDownload, type StudentSubmission } from '../../platforms/submissions.js';
import { cliWords } from '../core/hints.js';
import type { Answer, AnswerSources, Collection, Entry, SkippedAnswer } from './answers.js';

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
}

/** A student of the download, as the grade file is matched against it. */
export interface DownloadStudentInfo {
  participantId: string;
  /** The name the platform gives (the download's for Moodle, "Participant N" under blind marking); none for Canvas's anonymous ids. */
  name?: string;
}

const PLATFORM_NAMES: Record<Platform, string> = { moodle: 'Moodle', canvas: 'Canvas' };

const isFile = (path: string) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};
const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * Which input is a download to read as one, or none: a .zip always (kct marks no zip otherwise);
 * a folder only when asked (--group-by student, or a grade file to fill), since a class folder
 * with Moodle-named subfolders has its own rules (--recursive, --group-by folder).
 */
export function downloadInput(
  inputs: readonly string[],
  options: { groupBy?: string; gradeFileFlag?: string },
): { input: string; kind: 'zip' | 'folder' } | undefined {
  const zips = inputs.filter((input) => /\.zip$/i.test(input) && isFile(input));
  if (zips.length > 0) {
    if (inputs.length > 1) {
      throw new UsageError(
        `${zips[0]} is a download, marked as a whole: name it alone (${inputs.length} answers or downloads were named)`,
        {
          suggestion: 'Mark each download, and any other answers, in a run of its own.',
        },
      );
    }
    return { input: zips[0], kind: 'zip' };
  }
  const flag = options.groupBy === 'student' ? '--group-by student' : options.gradeFileFlag;
  if (flag === undefined) return undefined;
  if (inputs.length !== 1 || !isFolder(inputs[0])) {
    throw new UsageError(
      `${flag} reads one Moodle or Canvas download: its zip, or the folder it unzips to (${inputs.length === 0 ? 'none was named' : inputs.length > 1 ? `${inputs.length} were named` : `${inputs[0]} is neither`})`,
      {
        suggestion:
          'Download the submissions from the platform ("Download all submissions") and name the zip: kct one-pass submissions.zip --model <id>.',
      },
    );
  }
  return { input: inputs[0], kind: 'folder' };
}

/** Opens a download: a zip is checked and extracted (refused, naming the entry, before anything is sent); a folder is listed. */
export async function openDownload(found: { input: string; kind: 'zip' | 'folder' }): Promise<Download> {
  if (found.kind === 'zip') {
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
  return recognised(found, found.input, await listDownloadFolder(found.input), async () => {});
}

function recognised(
  found: { input: string; kind: 'zip' | 'folder' },
  root: string,
  paths: string[],
  cleanup: () => Promise<void>,
): Download {
  const download = recogniseDownload(paths);
  if (download.platform === null) {
    const { moodle, canvas, considered } = download.counts;
    throw new UsageError(
      `${found.input} is not a Moodle or Canvas download: of its ${considered} files and student folders, ${moodle} are named as Moodle names them ("<name>_<id>_assignsubmission_<plugin>_") and ${canvas} as Canvas does ("<name>_<user id>_<file id>_<file>")`,
      {
        suggestion:
          found.kind === 'zip'
            ? 'Give the zip exactly as the platform made it ("Download all submissions"). To mark a zip of other answers, unzip it and name the folder.'
            : "To mark the folder's files as answers, leave out --group-by student and the grade file (see --recursive and --group-by folder).",
      },
    );
  }
  return { ...found, root, platform: download.platform, recognised: download, cleanup };
}

/**
 * The note for a folder read by the folder rules that looks like a download: what --group-by
 * student would do. Reads at most a few thousand names of its first level.
 */
export function downloadHint(inputs: readonly string[]): string | undefined {
  if (inputs.length !== 1 || !isFolder(inputs[0])) return undefined;
  let names: string[];
  try {
    names = readdirSync(inputs[0], { withFileTypes: true })
      .slice(0, 5000)
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
  } catch {
    return undefined;
  }
  const platform = recogniseDownload(names).platform;
  if (platform === null) return undefined;
  return `${inputs[0]} looks like a ${PLATFORM_NAMES[platform]} download: add --group-by student to mark each student's files and online text as one answer, with the platform's participant ids (needed to fill the grade file: --${platform === 'moodle' ? 'moodle-worksheet' : 'canvas-gradebook'})`;
}

/** Flags that shape how a folder is read, and make no sense for a download (its names say who is who). */
function checkSources(sources: AnswerSources): void {
  const refuse = (flag: string) => {
    throw new UsageError(
      `${flag} does not apply to a Moodle or Canvas download: each student's files and online text are one answer, and the student id is the platform's participant id`,
      {
        suggestion: 'Leave it out; to mark other answers, mark them in a run of their own.',
      },
    );
  };
  if (sources.text !== undefined) refuse('--text');
  if (sources.filesFrom !== undefined) refuse('--files-from');
  if (sources.pages) refuse('--pages');
  if (sources.studentId !== undefined) refuse('--student-id');
  if ((sources.exclude ?? []).length > 0) refuse('--exclude');
  if (sources.groupBy === 'folder') refuse('--group-by folder');
  if (sources.studentIdFrom !== undefined && sources.studentIdFrom !== 'name') refuse(`--student-id-from ${sources.studentIdFrom}`);
  if (sources.inputs.length !== 1) refuse('another input');
}

const byName = new Intl.Collator('en', { numeric: true }).compare;

/** The name a row shows: the platform's, "Participant N" under Moodle's blind marking, none for Canvas's anonymous ids. */
function nameOf(student: StudentSubmission): string | undefined {
  if (student.anonymous) return undefined;
  if (student.platform === 'moodle' && student.displayName === 'Participant') return `Participant ${student.participantId}`;
  return student.displayName;
}

/**
 * The download's answers, one per student, and a row for every student: the answer (files and
 * online text, as text when it is all there is), EMPTY when nothing was submitted, SKIPPED for a
 * URL submission and for each file that cannot be sent (with --skip-unsupported; without it the
 * run stops, naming every such file, before anything is sent). Every path of the download ends in
 * one entry: its student's row, or left out with its reason (system and hidden files, names that
 * are not the platform's, counted as ignored; folders that are not a student's).
 */
export function collectDownload(download: Download, sources: AnswerSources, explain: boolean): Omit<Collection, 'shape'> {
  checkSources(sources);
  const { platform, root } = download;
  const shown = download.input.replace(/[/\\]+$/, '') || download.input;
  const at = (path: string) => `${shown}/${path}`;
  const students = [...download.recognised.students].sort(
    (a, b) => byName(a.displayName, b.displayName) || byName(a.participantId, b.participantId),
  );
  const answers: Answer[] = [];
  const skipped: SkippedAnswer[] = [];
  const names = new Map<number, string>();
  const entries: Entry[] = [];
  const refused: { student: string; problem: FileProblem }[] = [];
  const notes: string[] = [];
  let row = 0;
  let ignored = 0;
  let textCount = 0;

  for (const student of students) {
    const id = student.participantId;
    const name = nameOf(student);
    const label = at(name === undefined ? id : name === `Participant ${id}` ? name : `${name} (${id})`);
    const identity = `${platform}:${id}`;
    const pages: LocalFile[] = [];
    const texts: { path: string; text: string }[] = [];
    const rows: Omit<SkippedAnswer, 'index'>[] = [];
    /** What each of the student's files became, for the entry table: its row's label, or why it was left out. */
    const fileRows = new Map<string, { action: Entry['action']; answer?: string; reason?: string }>();
    let blankText = false;
    let hidden = 0;
    for (const file of student.files) {
      const base = file.originalName.split('/').pop() ?? file.originalName;
      if (file.kind === 'link') {
        rows.push({
          label: at(file.path),
          identity: `${identity}/${file.path}`,
          studentId: id,
          studentName: name,
          status: 'SKIPPED',
          reason: 'a URL submission (a link, not a file or text): open it on the platform and mark it by hand',
        });
        fileRows.set(file.path, { action: 'skip', answer: at(file.path), reason: 'link' });
        continue;
      }
      if (file.kind === 'onlinetext') {
        let html: string;
        try {
          html = readFileSync(join(root, file.path), 'utf8');
        } catch (error) {
          refused.push({
            student: label,
            problem: {
              kind: 'unreadable',
              path: at(file.path),
              message: `cannot read ${at(file.path)} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
              suggestion: 'Download the submissions again.',
            },
          });
          continue;
        }
        const text = onlineTextAsPlain(html);
        if (text.trim() === '') blankText = true;
        else texts.push({ path: file.path, text });
        fileRows.set(file.path, { action: 'send', answer: label });
        continue;
      }
      if (base.startsWith('.') || base.startsWith('~$')) {
        hidden += 1;
        ignored += 1;
        fileRows.set(file.path, { action: 'ignore', reason: 'hidden file' });
        continue;
      }
      const disk = join(root, file.path);
      const checked = checkLocalFile(disk);
      if (isFileProblem(checked)) {
        // named as in the download, never by the private folder it was extracted to
        const problem = { ...checked, path: at(file.path), message: checked.message.replaceAll(disk, at(file.path)) };
        if (sources.skipUnsupported && problem.kind !== 'missing') {
          rows.push({
            label: at(file.path),
            identity: `${identity}/${file.path}`,
            studentId: id,
            studentName: name,
            status: 'SKIPPED',
            reason: `${problem.message}. ${cliWords(problem.suggestion)}`,
          });
          fileRows.set(file.path, { action: 'skip', answer: at(file.path), reason: problem.kind });
        } else {
          refused.push({ student: label, problem });
        }
        continue;
      }
      // the student's own file name is sent, never the platform's prefix (which holds the student's name)
      pages.push({ ...checked, name: base });
      fileRows.set(file.path, { action: 'send', answer: label });
    }

    const text = texts.map((part) => part.text).join('\n\n');
    const files = texts.length > 0 && pages.length > 0 ? [...pages, textPage(at(texts[0].path), text)] : pages;
    let outcome: { action: 'send' | 'empty' | 'skip'; answer: string } | undefined;
    const first = row;
    if (files.length === 0 && texts.length === 0) {
      if (rows.length === 0) {
        const reason =
          student.files.length === 0
            ? 'empty submission: nothing submitted'
            : blankText
              ? 'empty submission: the online text is empty'
              : `nothing to mark: only ${hidden === 1 ? 'a hidden file' : `${hidden} hidden files`}`;
        rows.unshift({ label, identity, studentId: id, studentName: name, status: 'EMPTY', reason });
        outcome = { action: 'empty', answer: label };
      }
    } else if (files.length > MAX_FILES_PER_REQUEST) {
      const message = `${files.length} files in one answer (${label}); the limit is ${MAX_FILES_PER_REQUEST} files per answer`;
      if (!sources.skipUnsupported)
        throw new UsageError(message, {
          suggestion:
            'The files of one answer go in one request: ask the student to merge them into one PDF, or pass --skip-unsupported to list this student as SKIPPED.',
        });
      rows.unshift({ label, identity, studentId: id, studentName: name, status: 'SKIPPED', reason: message });
      outcome = { action: 'skip', answer: label };
      for (const [path, entry] of fileRows)
        if (entry.action === 'send') fileRows.set(path, { action: 'skip', answer: label, reason: 'too many files in one answer' });
    } else {
      const answer: Answer = { index: row, label, identity, files, studentId: id, ...(name !== undefined ? { studentName: name } : {}) };
      if (files.length === 0) {
        answer.text = text;
        textCount += 1;
      }
      answers.push(answer);
      if (name !== undefined) names.set(row, name);
      row += 1;
      outcome = { action: 'send', answer: label };
    }
    for (const skip of rows) {
      skipped.push({ ...skip, index: row });
      if (skip.studentName !== undefined) names.set(row, skip.studentName);
      row += 1;
    }
    if (explain) {
      const studentRow = outcome ?? { action: 'skip' as const, answer: rows[0]?.label ?? label };
      for (const path of student.entries) {
        // a file meant for the answer follows the student's row when there is no answer (a blank online text)
        const meant = fileRows.get(path);
        const own =
          meant?.action === 'send' && studentRow.action !== 'send' ? { action: studentRow.action, answer: studentRow.answer } : meant;
        if (own)
          entries.push({
            path: at(path),
            action: own.action,
            answer: own.answer,
            identity: own.answer === undefined ? undefined : identity,
            studentId: own.answer === undefined ? undefined : id,
            reason: own.reason,
          });
        else if (path.endsWith('/'))
          entries.push({ path: at(path), action: studentRow.action, answer: studentRow.answer, identity, studentId: id });
        else entries.push({ path: at(path), action: 'ignore', reason: 'left out' });
      }
    }
    if (row === first) throw new Error(`no row for ${label}`); // every student is a row: a bug otherwise
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
    throw new UsageError(`nothing to mark in ${shown}: no student's answer can be sent:\n  ${lines.join('\n  ')}`, {
      suggestion: 'Check the download: download the submissions again once students have handed in.',
    });
  }

  const empties = skipped.filter((s) => s.status === 'EMPTY');
  const late = students.filter((student) => student.late);
  notes.push(
    `${shown}: a ${PLATFORM_NAMES[platform]} download of ${students.length} student${students.length === 1 ? '' : 's'}: ${answers.length} answer${answers.length === 1 ? '' : 's'} to mark${empties.length > 0 ? `, ${empties.length} with nothing submitted (EMPTY)` : ''}${skipped.length > empties.length ? `, ${skipped.length - empties.length} SKIPPED` : ''}`,
  );
  if (late.length > 0)
    notes.push(
      `late (as ${PLATFORM_NAMES[platform]} names them): ${late.length} student${late.length === 1 ? '' : 's'} (${late
        .slice(0, 5)
        .map((s) => nameOf(s) ?? s.participantId)
        .join(', ')}${late.length > 5 ? ', ...' : ''})`,
    );
  if (strays.length > 0)
    notes.push(
      `not a student's submission, not sent: ${strays.slice(0, 5).join(', ')}${strays.length > 5 ? `, and ${strays.length - 5} more` : ''}`,
    );

  const byRow = new Map(answers.map((answer) => [answer.index, answer]));
  return {
    count: answers.length,
    rows: row,
    textCount,
    answers: function* () {
      yield* answers;
    },
    answerAt: (index) => byRow.get(index),
    skipped,
    leftOut: { ignored, excluded: 0, duplicates: 0, loops: 0, emptyFolders: 0 },
    notes,
    entries,
    studentNameAt: (index) => names.get(index),
    download: {
      platform,
      input: download.input,
      students: students.map((student) => ({
        participantId: student.participantId,
        ...(nameOf(student) !== undefined ? { name: nameOf(student) } : {}),
      })),
    },
  };
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
    hints.push('Or pass --skip-unsupported to mark the others and list these as SKIPPED, to mark by hand.');
  return new UsageError(
    `${problems.length === 1 ? 'a file of the download cannot be sent' : `${problems.length} files of the download cannot be sent`}:\n  ${lines.join('\n  ')}\nNothing was sent.`,
    {
      suggestion: hints.join('\n  '),
    },
  );
}
