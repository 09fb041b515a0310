// Batch manifests: a JSONL, JSON (an array) or CSV file of items (one-pass fields, or `file` naming a text answer
// relative to the manifest), or a folder of text answers. Every item is checked before sending.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, join, relative } from 'node:path';
import { UsageError } from '../../api/errors.js';
import { MAX_FILE_BYTES, MIME } from '../../api/limits.js';
import { OnePassFields } from '../../api/schemas.js';
import { decodedText, utf8Text, utf16Order } from '../../api/text-bytes.js';
import { collectAnswers, type SkippedAnswer } from '../../cli/answers/answers.js';
import { NothingToSend, sharedStudentIds } from '../../cli/answers/plan-words.js';
import type { IO } from '../../cli/core/io.js';
import { notText } from '../../client/file-content.js';
import { identifyDelimiter } from '../../platforms/csv-document.js';

export interface ManifestItem {
  /** How the item is named in output: its file, else its student_id, else "item N". */
  label: string;
  fields: OnePassFields;
  /** Its text was read from a file (a `file` field, or a folder's): a file one-pass can send. */
  fromFile?: boolean;
}

const TEXT_EXTENSIONS = new Set(['.txt', '.text', '.md']);
/** What to do about items that share a student id: the report and the grade files tell students apart by it. */
const SHARED_ID_HINT =
  "give each item its own student_id: kct report and kct grades tell students apart by it, and would take these for one student's answers";
const NUMBER_FIELDS = new Set(['model_id', 'total_score']);
const JSON_FIELDS = new Set(['rubrics', 'current_feedbacks']);

/** How a folder manifest is read: the answer-collection rules of one-pass (src/cli/answers/answers.ts), for text answers. */
export interface FolderOptions {
  io: IO;
  /** Told what was left out (ignored, excluded, subfolders not entered): never silent. */
  note: (line: string) => void;
  /** Told what was found and not sent that may be a student's (NOT_ENTERED, EMPTY): rows of the run, as one-pass's. */
  unsent?: (rows: SkippedAnswer[]) => void;
  recursive?: boolean;
  exclude?: string[];
}

export async function readManifest(path: string, modelId: number | undefined, folder: FolderOptions): Promise<ManifestItem[]> {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new UsageError(`manifest not found: ${path}`, { suggestion: MANIFEST_KINDS });
  }
  const raw = info.isDirectory() ? await folderItems(path, folder) : await fileItems(path);
  if (raw.length === 0)
    throw new UsageError(`the manifest ${path} has no items`, {
      suggestion: info.isDirectory() ? 'Put the answers in it as .txt files, or give a manifest file.' : MANIFEST_KINDS,
    });
  const base = info.isDirectory() ? path : dirname(path);
  const problems: string[] = [];
  const items: ManifestItem[] = [];
  const withoutModel: string[] = [];
  for (const [index, { where, record }] of raw.entries()) {
    try {
      items.push(await toItem(record, base, modelId, index));
    } catch (error) {
      if (error instanceof NoModel) withoutModel.push(where);
      else problems.push(`${where}: ${(error as Error).message}`);
    }
  }
  // one missing --model is one mistake, told once, not once per item
  if (withoutModel.length > 0) {
    const which =
      withoutModel.length === raw.length
        ? `none of the ${raw.length} items names one`
        : `${withoutModel.length} of ${raw.length} items name none (${withoutModel.slice(0, 3).join(', ')}${withoutModel.length > 3 ? ', ...' : ''})`;
    const message = `no model: ${which}`;
    if (problems.length === 0)
      throw new UsageError(message, {
        suggestion: 'Pass --model <id> (see `kct models`), set KCT_MODEL or `kct config set model <id>`, or give model_id in each item.',
      });
    problems.unshift(`${message}; pass --model <id>`);
  }
  if (problems.length === 0 && !info.isDirectory()) {
    // a folder's notes say it already (collectAnswers); a manifest's ids are the teacher's own
    const ids = new Map<string, number>();
    for (const { fields } of items) if (fields.student_id) ids.set(fields.student_id, (ids.get(fields.student_id) ?? 0) + 1);
    for (const line of sharedStudentIds(ids, undefined, SHARED_ID_HINT)) folder.note(line);
  }
  if (problems.length > 0) {
    // a folder's items are its files: said so, and what to do is to the files
    const [noun, fix] = info.isDirectory() ? ['answer', 'Fix or --exclude those files'] : ['manifest item', 'Fix the manifest'];
    throw new UsageError(
      `${problems.length} ${noun}${problems.length === 1 ? '' : 's'} cannot be sent:\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  ... and ${problems.length - 20} more` : ''}`,
      {
        suggestion: `${fix}; nothing was sent.`,
      },
    );
  }
  return items;
}

async function toItem(record: Record<string, unknown>, base: string, modelId: number | undefined, index: number): Promise<ManifestItem> {
  const fields: Record<string, unknown> = {};
  let file: string | undefined;
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined || value === null || value === '') continue;
    if (key === 'file') {
      file = String(value);
      continue;
    }
    if (NUMBER_FIELDS.has(key) && typeof value === 'string') {
      // a CSV cell is text: a number is read from it, and anything else named as it was written
      if (value.trim() === '' || !Number.isFinite(Number(value))) throw new Error(`${key} must be a number, not ${JSON.stringify(value)}`);
      fields[key] = Number(value);
    } else if (JSON_FIELDS.has(key) && typeof value === 'string') fields[key] = parseJsonCell(key, value);
    else fields[key] = value;
  }
  if (fields.model_id === undefined) {
    if (modelId === undefined) throw new NoModel();
    fields.model_id = modelId;
  }
  if (file !== undefined) {
    if (fields.paper_content !== undefined) throw new Error('give paper_content or file, not both');
    fields.paper_content = await readTextAnswer(isAbsolute(file) ? file : join(base, file));
  }
  const parsed = OnePassFields.safeParse(fields);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'item'}: ${issue.message}`).join('; '));
  }
  if (parsed.data.paper_content === undefined) throw new Error('no answer: give paper_content or file');
  // refused here as an empty file or --text is: the service would only fail it
  if (parsed.data.paper_content.trim() === '') throw new Error('paper_content holds only spaces and line breaks: no answer to mark');
  const label = file ?? parsed.data.student_id ?? `item ${index + 1}`;
  return { label, fields: parsed.data, ...(file !== undefined ? { fromFile: true } : {}) };
}

/** An item with no model_id while no --model is given: reported once for the whole manifest. */
class NoModel extends Error {}

async function readTextAnswer(path: string): Promise<string> {
  if (!TEXT_EXTENSIONS.has(extname(path).toLowerCase())) {
    throw new Error(
      `${path}: a batch is sent as JSON, so only text answers (.txt, .md) can be named; mark PDF, DOCX or images with kct one-pass`,
    );
  }
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new Error(`file not found: ${path}`);
  }
  if (info.size > MAX_FILE_BYTES) throw new Error(`${path} is larger than 20 MB`);
  // read as one-pass reads a .txt answer: a document or binary data is refused, UTF-16 read by its byte order mark
  const bytes = await readFile(path);
  const held = notText(bytes);
  if (held !== undefined)
    throw new Error(`${path} is named as a text file but holds ${held.name}: mark it with kct one-pass, which sends files`);
  const text = decodedText(bytes);
  if (text === undefined)
    throw new Error(
      `${path} is not UTF-8 text (perhaps saved as Windows-1252, "ANSI"): save it again as UTF-8, or mark it with kct one-pass, which sends the file as it is`,
    );
  if (text.trim() === '')
    throw new Error(text === '' ? `${path} is empty` : `${path} holds only spaces and line breaks: no answer to mark`);
  return text;
}

/** A manifest's text: UTF-8 (its BOM dropped); a spreadsheet's other encodings are refused by name, never guessed at. */
function manifestText(path: string, bytes: Buffer): string {
  const save = 'Save it again as "CSV UTF-8" (Excel: File > Save As > CSV UTF-8), or as UTF-8 text.';
  if (utf16Order(bytes) !== undefined)
    throw new UsageError(`${path} is saved as UTF-16 (Excel's "Unicode Text"): kct reads manifests as UTF-8`, { suggestion: save });
  const text = utf8Text(bytes);
  if (text === undefined)
    throw new UsageError(
      `${path} is not UTF-8 text (perhaps Excel saved it as "CSV (Comma delimited)", in Windows-1252): its names and answers would be garbled`,
      {
        suggestion: save,
      },
    );
  return text;
}

function parseJsonCell(key: string, value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    throw new Error(`${key} must hold a JSON array`);
  }
}

/** What an item looks like, for every refusal of one. */
const ITEM_EXAMPLE =
  'A JSONL manifest holds one JSON object per line, e.g. {"file": "ana.txt", "student_id": "s-1"} or {"paper_content": "...", "student_id": "s-2"}; a .json file may hold an array of them.';
/** What a manifest is, for a manifest with nothing in it. */
const MANIFEST_KINDS = 'Give a .jsonl or .json file of items, a .csv file (a header row of field names), or a folder of .txt answers.';

/** A .json manifest read whole: an array of items, or one item; or why it is not one JSON value (JSON Lines, then). */
function wholeJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

interface RawItem {
  where: string;
  record: Record<string, unknown>;
}

async function fileItems(path: string): Promise<RawItem[]> {
  const text = manifestText(path, await readFile(path));
  const extension = extname(path).toLowerCase();
  if (extension === '.csv') {
    const { parse } = await import('csv-parse/sync');
    let rows: Record<string, string>[];
    try {
      // as spreadsheets save it: ';' where decimal commas are written (told as Canvas tells it), and
      // headers as people type them ("Student ID" is student_id)
      rows = parse(text, {
        columns: (header: string[]) => header.map((name) => name.trim().toLowerCase().replace(/\s+/g, '_')),
        // told from the header alone: a pasted essay's paragraphs make the lines after it no records
        delimiter: identifyDelimiter(Buffer.from(text.split('\n', 1)[0])),
        skip_empty_lines: true,
        trim: true,
      }) as Record<string, string>[];
    } catch (error) {
      throw new UsageError(`cannot read the CSV manifest ${path}: ${(error as Error).message}`);
    }
    return rows.map((record, index) => ({ where: `${basename(path)} row ${index + 2}`, record }));
  }
  if (extension === '.json') {
    const read = wholeJson(text);
    // an array, or an object over several lines, that is not JSON: its own error, not "line 1 is not JSON"
    if ('error' in read && (/^\s*\[/.test(text) || /^\s*\{\s*$/.test(text.split('\n', 1)[0])))
      throw new UsageError(`${basename(path)} is not JSON: ${read.error}`, { suggestion: ITEM_EXAMPLE });
    const whole = 'value' in read ? read.value : undefined;
    if (Array.isArray(whole))
      return whole.map((record, index) => {
        if (typeof record !== 'object' || record === null || Array.isArray(record))
          throw new UsageError(`${basename(path)} item ${index + 1} is not a JSON object`, { suggestion: ITEM_EXAMPLE });
        return { where: `${basename(path)} item ${index + 1}`, record: record as Record<string, unknown> };
      });
    if (typeof whole === 'object' && whole !== null) return [{ where: basename(path), record: whole as Record<string, unknown> }];
  }
  if (extension === '.jsonl' || extension === '.ndjson' || extension === '.json') {
    const items: RawItem[] = [];
    text.split(/\r?\n/).forEach((line, index) => {
      if (line.trim() === '') return;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        throw new UsageError(`${basename(path)} line ${index + 1} is not JSON`, { suggestion: ITEM_EXAMPLE });
      }
      if (typeof record !== 'object' || record === null || Array.isArray(record))
        throw new UsageError(`${basename(path)} line ${index + 1} is not a JSON object`, { suggestion: ITEM_EXAMPLE });
      items.push({ where: `${basename(path)} line ${index + 1}`, record: record as Record<string, unknown> });
    });
    return items;
  }
  throw new UsageError(`unknown manifest type: ${path}`, {
    suggestion: MANIFEST_KINDS,
  });
}

/**
 * A folder of text answers, by the rules a folder has everywhere: every file is sent or named on
 * stderr; a file of another type stops the run (PDF, DOCX and images go through one-pass).
 */
async function folderItems(path: string, options: FolderOptions): Promise<RawItem[]> {
  const relabel = <Row extends { label: string }>(rows: readonly Row[]) =>
    rows.map((row) => ({ ...row, label: relativeLabel(path, row.label) }));
  const collection = await collectAnswers(
    {
      inputs: [path],
      studentIdFrom: 'name',
      recursive: options.recursive,
      exclude: options.exclude,
      accepted: [MIME.txt],
      elsewhere:
        'A batch is sent as JSON, so it holds text answers (.txt) only: mark PDF, DOCX, RTF and images with `kct one-pass <folder>`, or leave them out with --exclude.',
    },
    options.io,
  ).catch((error: unknown) => {
    // nothing to send: its rows go with the refusal, named as items are
    throw error instanceof NothingToSend ? new NothingToSend(error, relabel(error.rows)) : error;
  });
  for (const line of collection.notes) options.note(line);
  // named as the items are, relative to the folder: a row of the run is joined on its file
  options.unsent?.(relabel(collection.skipped));
  return [...collection.answers()].map((answer) => ({
    where: answer.keyName,
    record: { file: answer.keyName, student_id: answer.studentId },
  }));
}

/** A path found in the folder, relative to it as an item's file is; a folder keeps its closing slash. */
function relativeLabel(folder: string, label: string): string {
  const inside = relative(folder, label);
  return /[\\/]$/.test(label) ? `${inside}/` : inside;
}
