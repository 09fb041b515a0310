// Reads a saved run back as rows, whatever shape kct wrote it in (saved-run-shapes.ts reads each):
//   --output ndjson    one row a line (kct one-pass, kct batch)
//   --json             one array of rows; with a grade file, an object whose "rows" is that array;
//                      one answer's result (kct one-pass <file> --json), one row
//   --output csv       kct's columns and one per criterion (scores only: CSV has no feedback)
//   --resume FILE      the journal: each answer's last line (its row once finished)
// The shape is told from the first line. `kct report` reads with it, and so may any command that
// reads a saved run: readSavedRun is the one entry.
import { accessSync, constants, createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { UsageError } from '../../api/errors.js';
import { EvaluationEntry } from '../../api/schemas.js';
import * as z from '../../api/zod.js';
import { isRecordHead } from '../../run/record-rows.js';
import { currentLabel } from '../answers/labels.js';
import type { ReportRow } from './html.js';
import { csvRows, isBatchRecord, journalRows, jsonRows, ndjsonRows, notRows, ShapeProblem } from './saved-run-shapes.js';

const Row = z.looseObject({
  file: z.string().nullable().optional(),
  student_id: z.string().nullable().optional(),
  student_name: z.string().nullable().optional(),
  task_id: z.string().nullable().optional(),
  status: z.string().min(1),
  score: z.number().nullable().optional(),
  max_score: z.number().nullable().optional(),
  message: z.string().nullable().optional(),
  duplicate_of: z.string().nullable().optional(),
  graded_by: z.string().nullable().optional(),
  evaluation: z.array(EvaluationEntry).nullable().optional(),
});

/** The shapes a saved run comes in, as told from its first line. */
type SavedRunShape = 'ndjson' | 'json' | 'csv' | 'journal';

const FORMAT_HINT =
  'Give a file kct wrote for a run: `kct one-pass <folder> --output ndjson > marks.ndjson` (or --json, --output csv, or its --resume journal), then give kct marks.ndjson.';

/**
 * Each answer of a saved run (a file, or '-' for `stdin`), in order, in any shape kct writes a run
 * in (ndjson, --json's array or object, CSV, a --resume journal). Throws a UsageError naming the
 * file and line for anything else, or for a run with no answers.
 */
export async function* readSavedRun(path: string, stdin: Readable): AsyncGenerator<ReportRow> {
  const name = path === '-' ? 'stdin' : path;
  if (path !== '-') checkSavedRun(path);
  const { head, stream: read } = await firstLine(path === '-' ? stdin : createReadStream(path));
  const shape = shapeOf(head, name);
  const stream = Readable.from(utf8Only(read, name));
  const values =
    shape === 'json'
      ? jsonRows(stream)
      : shape === 'csv'
        ? csvRows(stream)
        : shape === 'journal'
          ? journalRows(path === '-' ? undefined : path, stream)
          : ndjsonRows(stream);
  let rows = 0;
  try {
    for await (const { value, line } of values) {
      if (isBatchRecord(value)) throw notRows(line);
      const parsed = Row.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ShapeProblem(line, `is not an answer of a run: ${issue.path.join('.') || 'the line'}: ${issue.message}`);
      }
      rows += 1;
      // a pasted text saved as an earlier kct named it (`--text`) is named as every view names it now
      const { file, duplicate_of: twin } = parsed.data;
      yield { ...parsed.data, file: currentLabel(file) ?? undefined, ...(twin ? { duplicate_of: currentLabel(twin) } : {}) } as ReportRow;
    }
  } catch (error) {
    if (error instanceof ShapeProblem) throw new UsageError(`${name} line ${error.line} ${error.message}`, { suggestion: FORMAT_HINT });
    if ((error as { code?: string }).code?.startsWith('CSV_'))
      throw new UsageError(`${name} is not CSV that kct wrote: ${(error as Error).message}`, { suggestion: FORMAT_HINT });
    throw error;
  }
  if (rows === 0) throw new UsageError(`${name} holds no answers`, { suggestion: FORMAT_HINT });
}

/** A spreadsheet that saved the run again (to look at the marks) in its own encoding or separator: the way back. */
const RESAVED_HINT = 'Give the file kct wrote, or save it again as "CSV UTF-8" with commas (Excel: File > Save As > CSV UTF-8).';

/** Which shape a saved run is in, from its first line that is not blank. */
function shapeOf(head: string, name: string): SavedRunShape {
  const line = head.replace(/^\uFEFF/, '').trim();
  if (line === '') throw new UsageError(`${name} holds no answers`, { suggestion: FORMAT_HINT });
  if (/^(\uFFFD\uFFFD|\uFEFF)?f\0i\0l\0e\0/.test(head.replace(/^\uFEFF/, '')) || line.includes('\0'))
    throw new UsageError(`${name} is saved as UTF-16 (a spreadsheet's "Unicode Text"): kct reads the runs it saved as UTF-8`, {
      suggestion: RESAVED_HINT,
    });
  if (/^"?file"?;/.test(line))
    throw new UsageError(`${name} is separated by ";" (a spreadsheet saved it again, in a language that writes decimal commas)`, {
      suggestion: RESAVED_HINT,
    });
  if (line.startsWith('[') || line === '{') return 'json';
  if (/^"?file"?,/.test(line)) return 'csv';
  if (line.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return 'ndjson'; // says which line is not JSON
    }
    if (isRecordHead(value)) return 'journal';
    if (isOlderJournal(value))
      throw new UsageError(`${name} is a --resume journal of an earlier kct (before 0.2), whose lines this one does not read`, {
        suggestion: "Make its report with the kct that wrote it, or from the run's saved output (--output ndjson).",
      });
    if (Array.isArray((value as { rows?: unknown }).rows)) return 'json';
    return 'ndjson';
  }
  throw new UsageError(
    `${name} is not a run kct saved: its first line is neither JSON (ndjson, --json, a --resume journal) nor kct's CSV header (file,student_id,...)`,
    { suggestion: FORMAT_HINT },
  );
}

/** The input's first line that is not blank, and the whole input again as a stream of bytes. */
async function firstLine(input: Readable): Promise<{ head: string; stream: Readable }> {
  const chunks = input[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let text = '';
  for (;;) {
    const next = await chunks.next();
    if (next.done) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(String(next.value));
    taken.push(chunk);
    text += chunk.toString('utf8');
    if (/\S[^\n]*\n/.test(text)) break;
  }
  const head = /^\s*(\S[^\n]*)/.exec(text)?.[1] ?? '';
  async function* again() {
    yield* taken;
    for (;;) {
      const next = await chunks.next();
      if (next.done) return;
      yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(String(next.value));
    }
  }
  return { head, stream: Readable.from(again(), { objectMode: false }) };
}

/** A saved run named as a file is one kct can read: said before anything else is read or made. */
export function checkSavedRun(path: string): void {
  try {
    if (statSync(path).isDirectory()) throw new UsageError(`${path} is a folder, not a saved run`, { suggestion: FORMAT_HINT });
    accessSync(path, constants.R_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message}`,
      { suggestion: FORMAT_HINT },
    );
  }
}

/** A line of a journal of kct before 0.2: an answer and when, no header. */
function isOlderJournal(value: unknown): boolean {
  const line = value as { answer?: unknown; at?: unknown; e?: unknown };
  return (
    typeof value === 'object' && value !== null && typeof line.answer === 'string' && typeof line.at === 'string' && line.e === undefined
  );
}

/** The bytes as they come, refused at the first that is not UTF-8 (a spreadsheet saved the run again as "ANSI"): never read garbled. */
async function* utf8Only(stream: Readable, name: string): AsyncGenerator<Buffer> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const check = (chunk?: Buffer) => {
    try {
      decoder.decode(chunk, { stream: chunk !== undefined });
    } catch {
      throw new UsageError(
        `${name} is not UTF-8 text (a spreadsheet saved it again, perhaps as "CSV (Comma delimited)"): its names would be read garbled`,
        { suggestion: RESAVED_HINT },
      );
    }
  };
  for await (const chunk of stream) {
    check(chunk as Buffer);
    yield chunk as Buffer;
  }
  check();
}
