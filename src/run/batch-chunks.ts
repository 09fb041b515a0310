// The batches of a marking run (--via batch): which answers can go in one (plain text, as one-pass sends it), and
// the batch being filled, sent when it holds 100 answers (spec 8) or about 8 MiB of text.
import { MAX_BATCH_ITEMS } from '../api/limits.js';
import type { OnePassFields } from '../api/schemas.js';
import type { Answer } from '../cli/answers/answers.js';
import { type LocalFile, withContent } from '../client/files.js';
import { loneText } from '../client/identity.js';

/** A batch request holds at most 100 answers (spec 8) and, here, about this much text. */
const BATCH_TEXT_BYTES = 8 * 1024 * 1024;

/** One batch request in the making or on its way: its answers' rows, by their place in it (-1: a place this run does not print). */
export interface Chunk {
  rows: number[];
  fields: OnePassFields[];
  textBytes: number;
  taskId?: string;
}

export function emptyChunk(): Chunk {
  return { rows: [], fields: [], textBytes: 0 };
}

/** The batch being filled. */
export class ChunkFiller {
  private current?: Chunk;

  /** Adds an answer; returns the batch when it is full (to be sent), else undefined. */
  add(row: number, fields: OnePassFields): Chunk | undefined {
    const chunk = (this.current ??= emptyChunk());
    chunk.rows.push(row);
    chunk.fields.push(fields);
    chunk.textBytes += Buffer.byteLength(fields.paper_content ?? '');
    return chunk.rows.length >= MAX_BATCH_ITEMS || chunk.textBytes >= BATCH_TEXT_BYTES ? this.take() : undefined;
  }

  /** The batch being filled, if it holds any answer, and a new one begun. */
  take(): Chunk | undefined {
    const chunk = this.current;
    this.current = undefined;
    return chunk && chunk.rows.length > 0 ? chunk : undefined;
  }
}

/**
 * The text of an answer that can go in a batch (JSON): stdin, --text, or one plain-text file that
 * is UTF-8 (a BOM dropped) and not blank; undefined for anything else, which is sent one-pass.
 */
export function batchText(answer: Answer, files: LocalFile[]): string | undefined {
  if (answer.text !== undefined) return answer.text;
  if (files.length !== 1) return undefined;
  let held: LocalFile;
  try {
    held = withContent(files[0]);
  } catch {
    return undefined; // unreadable or emptied now: one-pass reports it for this answer alone
  }
  // the text one-pass would send (its identity's rule): another encoding, or a file too long to hold, goes as its file
  return loneText([held], 0);
}
