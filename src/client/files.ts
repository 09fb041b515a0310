// Local answer files: checked before anything is sent, then streamed from disk.
import { accessSync, constants, openAsBlob, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { UsageError } from '../api/errors.js';
import { ANSWER_MIME_TYPES, MAX_FILE_BYTES, MAX_FILES_PER_REQUEST } from '../api/limits.js';
import { isAccepted, mimeFromName } from '../api/mime.js';

export interface LocalFile {
  path: string;
  /** File name sent to the server. */
  name: string;
  /** MIME type stated in the multipart part. */
  type: string;
  size: number;
  /** The file's bytes when it fits in one read (see withContent); otherwise it is streamed from disk. */
  data?: Uint8Array;
}

/**
 * How much one read takes when a file is streamed. A file that fits in one read is read in that
 * one read, and its bytes are both hashed for the idempotency key and sent as the body: the key
 * is of exactly what was sent, and a class of small answers costs one read each instead of an
 * open, read and close to hash plus a file-backed Blob to send (docs/benchmarks.md). A larger
 * file is streamed from disk, hashed and sent one read at a time, never held whole.
 */
export const ONE_READ_BYTES = 256 * 1024;

const MB = 1024 * 1024;

/** Checks one file (exists, readable, regular, supported type, size) and describes it. */
export async function inspectFile(path: string, accepted: readonly string[] = ANSWER_MIME_TYPES): Promise<LocalFile> {
  return inspectFileSync(path, accepted);
}

/**
 * inspectFile without the thread pool: a class of a thousand files is checked in a few
 * milliseconds this way, against ~100 ms through fs/promises (a round trip per call).
 */
export function inspectFileSync(path: string, accepted: readonly string[] = ANSWER_MIME_TYPES): LocalFile {
  let info;
  try {
    info = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `file not found: ${path}` : `cannot read ${path} (${code ?? String(error)})`, {
      suggestion: 'Check the path.',
    });
  }
  if (info.isDirectory()) throw new UsageError(`${path} is a folder, not a file`);
  if (!info.isFile()) throw new UsageError(`${path} is not a regular file`);
  try {
    accessSync(path, constants.R_OK);
  } catch (error) {
    throw new UsageError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
      suggestion: 'Check the file permissions.',
    });
  }
  const type = mimeFromName(path);
  if (!isAccepted(type, accepted)) {
    throw new UsageError(`unsupported file type for ${path}${type ? ` (${type})` : ''}`, {
      suggestion: 'Send PDF, DOCX, RTF, TXT or an image (PNG, JPEG, WebP, GIF); export Google Docs to DOCX or PDF first.',
    });
  }
  if (info.size > MAX_FILE_BYTES) {
    throw new UsageError(`${path} is ${info.size.toLocaleString('en')} bytes (${(info.size / MB).toFixed(2)} MiB); the limit is ${MAX_FILE_BYTES.toLocaleString('en')} bytes (${MAX_FILE_BYTES / MB} MiB) per file`, {
      suggestion: 'Compress or split the file.',
    });
  }
  if (info.size === 0) throw new UsageError(`${path} is empty`);
  return { path, name: basename(path), type, size: info.size };
}

export function checkFileCount(count: number, max = MAX_FILES_PER_REQUEST): void {
  if (count > max) {
    throw new UsageError(`${count} files in one request; the limit is ${max}`, {
      suggestion: 'Send the files in several requests.',
    });
  }
}

/**
 * The file with its bytes attached when it fits in one read (ONE_READ_BYTES); a larger one is
 * returned as it is, to be streamed. Callers hold the result only while they send it, so memory
 * stays bounded by one read per answer in flight, as when streaming.
 */
export function withContent(file: LocalFile): LocalFile {
  if (file.data !== undefined || file.size > ONE_READ_BYTES) return file;
  const data = readFileSync(file.path);
  // it grew since it was checked: stream it instead
  if (data.length > ONE_READ_BYTES) return file;
  if (data.length === 0) throw new UsageError(`${file.path} is empty`);
  return { ...file, size: data.length, data };
}

/** The body of a file part: its bytes when read in advance, else a Blob backed by the file on disk (undici streams it). */
export async function fileBlob(file: LocalFile): Promise<Blob> {
  if (file.data !== undefined) return new Blob([file.data], { type: file.type });
  return openAsBlob(file.path, { type: file.type });
}
