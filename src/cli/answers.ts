// Turns what the user named (files, folders, --files-from, -, --text) into a list of answers,
// each checked locally before anything is sent.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { UsageError } from '../api/errors.js';
import { ANSWER_MIME_TYPES } from '../api/limits.js';
import { mimeFromName } from '../api/mime.js';
import { inspectFileSync, type LocalFile } from '../client/files.js';
import type { IO } from './io.js';
import { readStdinText } from './stdin.js';

export interface Answer {
  /** How the answer is named in output: the path as given, "-" for stdin, "--text". */
  label: string;
  /** One file, or with --pages the pages of one answer (sent in one request). */
  files: LocalFile[];
  text?: string;
  studentId?: string;
}

export interface AnswerSources {
  inputs: string[];
  text?: string;
  filesFrom?: string;
  studentId?: string;
  studentIdFrom?: 'name' | 'none';
  /** All files are the pages of one answer. */
  pages?: boolean;
}

export async function collectAnswers(sources: AnswerSources, io: IO): Promise<Answer[]> {
  const paths: string[] = [];
  let stdinUsed = false;
  if (sources.filesFrom !== undefined) {
    const listing = sources.filesFrom === '-' ? await readStdinText(io) : await readListing(sources.filesFrom);
    stdinUsed = sources.filesFrom === '-';
    paths.push(...listing.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#')));
  }
  const answers: Answer[] = [];
  for (const input of sources.inputs) {
    if (input === '-') {
      if (stdinUsed) {
        throw new UsageError(sources.filesFrom === '-' ? 'standard input is already used by --files-from -' : '- is given more than once: standard input holds one answer', {
          suggestion: 'Read one answer from standard input, or save the others to files.',
        });
      }
      stdinUsed = true;
      answers.push({ label: '-', files: [], text: await readStdinText(io) });
      continue;
    }
    paths.push(...(await expandInput(input)));
  }
  if (sources.text !== undefined) answers.push({ label: '--text', files: [], text: sources.text });

  const problems: string[] = [];
  let missing = false;
  const files = paths.map((path) => {
    try {
      return inspectFileSync(path);
    } catch (error) {
      problems.push((error as Error).message);
      missing ||= (error as Error).message.startsWith('file not found');
      return undefined;
    }
  });
  if (problems.length > 0) {
    throw new UsageError(problems.length === 1 ? problems[0] : `${problems.length} answers cannot be sent:\n  ${problems.join('\n  ')}`, {
      suggestion: `Fix or remove these files; nothing was sent.${missing ? ' To send the answer text from standard input, pass - instead of a file.' : ''}`,
    });
  }
  const checked = files as LocalFile[];
  if (sources.pages && checked.length > 0) {
    if (answers.length > 0) throw new UsageError('--pages sends files as one answer: it cannot be combined with - or --text');
    answers.push({ label: checked[0].path, files: checked });
  } else {
    for (const file of checked) answers.push({ label: file.path, files: [file] });
  }
  for (const answer of answers) {
    if (answer.text !== undefined && answer.text.trim() === '') throw new UsageError(`the answer ${answer.label === '-' ? 'on standard input' : 'text'} is empty`);
  }
  if (answers.length === 0) {
    throw new UsageError('no answers given', { suggestion: 'Pass answer files or folders, - for text on stdin, --text "<answer>", or --files-from <list>.' });
  }
  assignStudentIds(answers, sources);
  return answers;
}

function assignStudentIds(answers: Answer[], sources: AnswerSources): void {
  if (sources.studentId !== undefined) {
    if (answers.length > 1) throw new UsageError('--student-id names one answer; with several, ids come from the file names (--student-id-from name)');
    answers[0].studentId = sources.studentId;
    return;
  }
  if (sources.studentIdFrom === 'none') return;
  for (const answer of answers) {
    const first = answer.files[0];
    if (first) answer.studentId = basename(first.name, extname(first.name));
  }
}

const MARKDOWN = /\.(md|markdown)$/i;

// One collator for the whole sort: localeCompare with options builds one per comparison.
const byNaturalOrder = new Intl.Collator('en', { numeric: true }).compare;

/** A file stays a file; a folder becomes its answer files (by supported extension), sorted. */
async function expandInput(input: string): Promise<string[]> {
  let info;
  try {
    info = await stat(input);
  } catch {
    return [input]; // inspectFileSync reports it with a clear message
  }
  if (!info.isDirectory()) return [input];
  const entries = await readdir(input, { withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    // Markdown is sent as text when named, but in a class folder a .md file is far more likely
    // a README or the teacher's notes than an answer: left out, so it is never marked and charged.
    .filter((name) => ANSWER_MIME_TYPES.includes(mimeFromName(name) ?? '') && !MARKDOWN.test(name))
    .sort(byNaturalOrder);
  if (files.length === 0) throw new UsageError(`the folder ${input} holds no answer files (PDF, DOCX, RTF, TXT or images)`);
  return files.map((name) => join(input, name));
}

async function readListing(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --files-from ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
