// Local answer files: checked before anything is sent, then streamed from disk.

import { accessSync, constants, openAsBlob, readdirSync, readFileSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { UsageError } from '../api/errors.js';
import { ANSWER_MIME_TYPES, MAX_FILE_BYTES, MAX_FILES_PER_REQUEST } from '../api/limits.js';
import { isAccepted, mimeFromName } from '../api/mime.js';
import { thousands } from '../api/thousands.js';
import { checksContent, contentMismatch, HEAD_BYTES, readHead, renameTextHint } from './file-content.js';
import { sha256, startsWithBom } from './identity.js';

export interface LocalFile {
  path: string;
  /** File name sent to the server. */
  name: string;
  /** MIME type stated in the multipart part. */
  type: string;
  size: number;
  /** The file's bytes when it fits in one read (see withContent); otherwise it is streamed from disk. */
  data?: Uint8Array;
  /** The SHA-256 (hex) of the bytes when its check read it whole (a short answer): a run's plan reads it no second time. Keys of what is sent are taken when it is sent (hashFile). */
  sha256?: string;
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
/** The advice for a file that cannot be read: a caller that knows a way out (--exclude) says it instead. */
export const CHECK_PERMISSIONS = 'Check the file permissions.';

/** Checks one file (exists, readable, regular, supported type, size) and describes it. */
export async function inspectFile(path: string, accepted: readonly string[] = ANSWER_MIME_TYPES): Promise<LocalFile> {
  return inspectFileSync(path, accepted);
}

/** Why a local file cannot be sent; `kind` lets a caller decide (skip it, or stop the run). */
export interface FileProblem {
  kind: 'missing' | 'unreadable' | 'folder' | 'special' | 'unsupported' | 'too-big' | 'empty' | 'too-many';
  path: string;
  /** One line naming the file and what is wrong. */
  message: string;
  /** What to do about it. */
  suggestion: string;
  /** The MIME type the extension gave, for `unsupported`. */
  type?: string;
  /** The suggestion names this file (rename it to …): said on a line of its own, not once for its kind. */
  ownHint?: boolean;
}

/**
 * A path not found whose name held bytes that are not UTF-8 (a file named on Windows or in Latin-1):
 * Node read them as U+FFFD, so no file has the name kct has. Said as it is, since looking again never helps.
 */
export function undecodableName(path: string): FileProblem | undefined {
  if (!path.includes('\uFFFD')) return undefined;
  return {
    kind: 'unreadable',
    path,
    message: `${path}: its name is not valid UTF-8 (written in another encoding, such as Windows-1252 or Latin-1), so kct cannot open it by that name`,
    suggestion: 'Rename it to a UTF-8 name (the convmv tool renames a folder of them), then try again.',
  };
}

/**
 * What to say of a file not found: a file of its folder with its name in another case or with
 * another extension ("Essay.TXT", "essay.docx" for "essay.txt"), else to check the path.
 */
function nearName(path: string): string {
  const wanted = basename(path).toLowerCase();
  const stem = wanted.slice(0, wanted.length - extname(wanted).length);
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return 'Check the path.';
  }
  const near = names.find((name) => name.toLowerCase() === wanted) ?? names.find((name) => name.toLowerCase().startsWith(`${stem}.`));
  return near === undefined ? 'Check the path.' : `Check the path: ${shownPath(join(dirname(path), near))} is there.`;
}

/** A path as a message names it: quoted when spaces begin or end it ("essay.txt "), which would not show. */
function shownPath(path: string): string {
  return path.trim() === path ? path : JSON.stringify(path);
}

/**
 * Checks one file (exists, readable, regular, supported type, size) without throwing: the file
 * as it will be sent, or the problem. Synchronous on purpose: a class of a thousand files is
 * checked in a few milliseconds this way, against ~100 ms through fs/promises.
 */
export function checkLocalFile(path: string, accepted: readonly string[] = ANSWER_MIME_TYPES, info?: Stats): LocalFile | FileProblem {
  if (!info) {
    try {
      info = statSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT'
        ? (undecodableName(path) ?? { kind: 'missing', path, message: `file not found: ${shownPath(path)}`, suggestion: nearName(path) })
        : {
            kind: 'unreadable',
            path,
            message: `cannot read ${path} (${code ?? String(error)})`,
            suggestion: 'Check the path and its permissions.',
          };
    }
  }
  if (info.isDirectory())
    return { kind: 'folder', path, message: `${path} is a folder, not a file`, suggestion: 'Name the files inside it.' };
  if (!info.isFile()) return { kind: 'special', path, message: `${path} is not a regular file`, suggestion: 'Send regular files only.' };
  const type = mimeFromName(path);
  // a type whose first bytes are checked is opened here, which says whether it can be read; another is asked
  let head: Buffer | undefined;
  try {
    if (checksContent(type)) head = readHead(path);
    else accessSync(path, constants.R_OK);
  } catch (error) {
    return {
      kind: 'unreadable',
      path,
      message: `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      suggestion: CHECK_PERMISSIONS,
    };
  }
  if (!isAccepted(type, accepted)) {
    const rename = renameHint(path, info.size);
    return {
      kind: 'unsupported',
      path,
      type,
      // the type by its extension ("chemical/x-xyz" for notes.xyz) tells a teacher nothing: the hint names the extension
      message: `unsupported file type for ${path}`,
      suggestion: rename ?? exportHint(path),
      ...(rename ? { ownHint: true } : {}),
    };
  }
  if (info.size > MAX_FILE_BYTES) {
    return {
      kind: 'too-big',
      path,
      message: `${path} is ${thousands(info.size)} bytes (${(info.size / MB).toFixed(2)} MiB); the limit is ${thousands(MAX_FILE_BYTES)} bytes (${MAX_FILE_BYTES / MB} MiB) per file`,
      suggestion: 'Compress the file (scans: a lower resolution), or split it into pages sent as one answer.',
    };
  }
  if (info.size === 0) {
    return {
      kind: 'empty',
      path,
      message: `${path} is empty (0 bytes)`,
      suggestion: 'An empty file is usually a failed upload or copy: get the answer again, or leave the file out.',
    };
  }
  // a text file named .docx (or the reverse) would only fail at the service, again on every re-run
  const mismatch = head && contentMismatch(path, type, head);
  if (mismatch) return mismatch;
  // a short answer was read whole just now (the read ended before the buffer did, so at the file's
  // end): the plan's identity is taken from that read, not a second one (docs/benchmarks.md)
  // (not a text file with a byte order mark: its identity is its text, read by the plan)
  const whole = head !== undefined && head.length === info.size && head.length < HEAD_BYTES ? head : undefined;
  const digest = whole && !(type === 'text/plain' && startsWithBom(whole)) ? sha256(whole) : undefined;
  return { path, name: basename(path), type, size: info.size, ...(digest ? { sha256: digest } : {}) };
}

export function isFileProblem(value: LocalFile | FileProblem): value is FileProblem {
  return (value as FileProblem).kind !== undefined;
}

/** inspectFile without the thread pool (see checkLocalFile); throws the problem as a usage error. */
export function inspectFileSync(path: string, accepted: readonly string[] = ANSWER_MIME_TYPES): LocalFile {
  const checked = checkLocalFile(path, accepted);
  if (isFileProblem(checked)) throw new UsageError(checked.message, { suggestion: checked.suggestion });
  return checked;
}

const SUPPORTED = 'answers can be PDF, DOCX, RTF, TXT or images (PNG, JPEG, WebP, GIF)';
const NOT_AN_ANSWER = `This is not an answer file: ${SUPPORTED}. Export other documents to DOCX or PDF first.`;

/** A file named with no extension, or one that names no format kct knows, that holds text: the name to give it. */
function renameHint(path: string, size: number): string | undefined {
  return size > 0 && exportHint(path) === NOT_AN_ANSWER ? renameTextHint(path) : undefined;
}

/** What to do with a file of a type the service does not take, by its extension. */
function exportHint(path: string): string {
  const extension = extname(path).toLowerCase();
  switch (extension) {
    case '.gdoc':
      return 'A .gdoc file is only a link to a Google Doc: open it, then File > Download > Microsoft Word (.docx) or PDF.';
    case '.pages':
      return 'Export it from Pages to DOCX or PDF (File > Export To > Word or PDF).';
    case '.doc':
    case '.odt':
    case '.ott':
    case '.wps':
    case '.wpd':
    case '.fodt':
    case '.sxw':
      return `Export it to DOCX or PDF (Word or LibreOffice: File > Save As > Word Document (.docx), or Export as PDF); ${SUPPORTED}.`;
    case '.heic':
    case '.heif':
    case '.tif':
    case '.tiff':
    case '.bmp':
      return `Convert the image to JPEG or PNG; ${SUPPORTED}.`;
    case '.zip':
    case '.7z':
    case '.rar':
      return 'Unpack the archive first, then send the files inside it.';
    case '.csv':
    case '.tsv':
    case '.json':
    case '.jsonl':
    case '.ndjson':
    case '.journal':
    case '.xlsx':
    case '.xls':
    case '.ods':
      return `A data file, not an answer (marks or a journal from an earlier run?): move it out of the answers' folder, or leave it out (every file ending ${extension}).`;
    case '.htm':
    case '.html':
      return `Save the page as PDF (print to PDF) or as text; ${SUPPORTED}.`;
    default:
      return NOT_AN_ANSWER;
  }
}

/** At most 10 files per request (spec 8); `what` names them in the message: an answer's pages, or a request's files. */
/** Files as the client takes them: each checked by inspectFile(path), not a path (a caller from JavaScript may pass one). */
export function checkLocalFiles(files: unknown, field: string): void {
  if (files === undefined) return;
  const list = Array.isArray(files) ? files : [files];
  for (const file of list) {
    if (typeof file === 'object' && file !== null && typeof (file as LocalFile).path === 'string') continue;
    throw new UsageError(`${field} holds ${JSON.stringify(file) ?? String(file)}, not a file checked by inspectFile()`, {
      suggestion: `Pass await inspectFile(path) for each file (it checks that the file exists and its type is one the service takes).`,
    });
  }
  if (!Array.isArray(files)) throw new UsageError(`${field} must be a list of files`, { suggestion: `Pass [await inspectFile(path)].` });
}

export function checkFileCount(count: number, what: 'answer' | 'request' = 'request', max = MAX_FILES_PER_REQUEST): void {
  if (count <= max) return;
  if (what === 'answer') {
    throw new UsageError(`${count} files in one answer; the limit is ${max} files per answer`, {
      suggestion: 'The files are the pages of one answer and go in one request: merge them into one PDF, or send fewer pages.',
    });
  }
  throw new UsageError(`${count} files in one request; the limit is ${max} files per request`, {
    suggestion: `Send at most ${max} files together (an answer's pages count with any rubric and question files): merge pages into one PDF, or send fewer files.`,
  });
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
