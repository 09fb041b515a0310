// The UPLOADING stage's work (spec 4.8 rule 3: files are parsed in the queue): read every file
// of a task and put its text together. A job of the worker-thread pool (engines/jobs.ts), so its
// input and output are plain data; run inline when there is no file and little text.
import { readSpilledSync, SPILL_CHARS, spillSync } from '../../store/spilled.js';
import type { FileRole } from '../../store/store.js';
import { forcesFailure, isSlow } from '../../tasks/faults.js';
import { ExtractionError, extractText } from '../extract/index.js';
import { type Exclusion, structurePlainText } from '../extract/marked.js';
import { tidy } from '../extract/tidy.js';
import type { PreparedText } from '../grade-plan.js';
import { senderReason } from './reasons.js';

/** All the text read from one task's files, in characters (about one 20 MB text file). */
export const MAX_FILE_TEXT_CHARS = 20_000_000;

/** The file of a task's folder that holds its prepared text when it is long (store/spilled.ts). */
const PREPARED_FILE = 'prepared.json';

export interface PrepareFile {
  role: FileRole;
  name: string;
  mime: string;
  /** Absolute path of the stored copy. */
  path: string;
}

export interface PrepareInput {
  files: PrepareFile[];
  paperContent?: string;
  /** The task's own folder, where a long prepared text is written (created if needed). */
  taskDir: string;
}

/** What the later stages need to know of the answer's text without reading it again. */
export interface TextFlags {
  /** The answer holds the magic input that makes every stage slower. */
  slow: boolean;
  /** The answer holds the magic input that fails the task at the scoring step. */
  fail: boolean;
}

export type PrepareOutput =
  | { ok: true; preparedJson: string; flags: TextFlags }
  /** The input's fault: the comment says what to do. */
  | { ok: false; comment: string };

const fmt = (n: number) => n.toLocaleString('en-US');

export async function prepareTask(input: PrepareInput): Promise<PrepareOutput> {
  const texts: Record<FileRole, string[]> = { answer: [], rubric: [], question: [] };
  const notMarked: Exclusion[] = [];
  let chars = 0;
  for (const file of input.files) {
    let text: string;
    try {
      const extracted = await extractText(file.path, file.mime);
      // An answer is marked on its body: every word but what `excluded` names.
      text = file.role === 'answer' ? extracted.body : extracted.text;
      if (file.role === 'answer') notMarked.push(...extracted.excluded);
    } catch (err) {
      // Only an ExtractionError is the file's fault (its message is written for the sender);
      // anything else (a stored file gone, a library crash) is the sandbox's: retryable, and
      // reported with a generic comment by the worker.
      if (!(err instanceof ExtractionError)) throw err;
      const cause = err.cause instanceof Error ? { name: err.cause.name, message: err.cause.message } : undefined;
      return { ok: false, comment: `Could not read ${file.role} file "${file.name}": ${senderReason(err.message, cause)}` };
    }
    chars += text.length;
    if (chars > MAX_FILE_TEXT_CHARS) {
      return {
        ok: false,
        comment: `The files of this task hold more than ${fmt(MAX_FILE_TEXT_CHARS)} characters of text (the limit per task; "${file.name}" went over it). Send shorter files.`,
      };
    }
    texts[file.role].push(text);
  }
  // Pasted text is read as a text file is: its title and cover-sheet lines are left out, and named.
  const pasted = input.paperContent === undefined ? undefined : structurePlainText(tidy(input.paperContent));
  if (pasted) notMarked.unshift(...pasted.excluded);
  const answerText = [pasted && tidy(pasted.body), ...texts.answer].filter((t) => t !== undefined && t.trim() !== '').join('\n\n');
  if (answerText.trim() === '') {
    const names = input.files.filter((f) => f.role === 'answer').map((f) => `"${f.name}"`);
    return {
      ok: false,
      comment: `The answer has no usable text: nothing could be read from ${names.join(', ') || 'the answer'}, even with OCR. Send a clearer scan or the text itself.`,
    };
  }
  const prepared: PreparedText = {
    answerText,
    notMarked,
    ...(texts.rubric.length ? { rubricFileText: texts.rubric.join('\n\n') } : {}),
    ...(texts.question.length ? { questionFileText: texts.question.join('\n\n') } : {}),
  };
  const json = JSON.stringify(prepared);
  return {
    ok: true,
    preparedJson: json.length > SPILL_CHARS ? spillSync(json, input.taskDir, PREPARED_FILE) : json,
    flags: preparedFlags(prepared),
  };
}

/** The prepared text of a task, from its row or from the file the row names. */
export function readPrepared(preparedJson: string, taskDir: string): PreparedText {
  return JSON.parse(readSpilledSync(preparedJson, taskDir)) as PreparedText;
}

/** The flags of a task prepared by an earlier run of the sandbox (after a restart). */
export function textFlags(preparedJson: string, taskDir: string): TextFlags {
  return preparedFlags(readPrepared(preparedJson, taskDir));
}

/** A magic input works wherever the writer put it, in a title left out of the marking too. */
function preparedFlags(prepared: PreparedText): TextFlags {
  return flagsOf([prepared.answerText, ...(prepared.notMarked ?? []).map((e) => e.text)].join('\n'));
}

export function flagsOf(answerText: string): TextFlags {
  return { slow: isSlow(answerText), fail: forcesFailure(answerText) };
}
