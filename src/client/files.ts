// Local answer files: checked before anything is sent, then streamed from disk.
import { access, stat } from 'node:fs/promises';
import { constants, openAsBlob } from 'node:fs';
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
}

const MB = 1024 * 1024;

/** Checks one file (exists, readable, regular, supported type, size) and describes it. */
export async function inspectFile(path: string, accepted: readonly string[] = ANSWER_MIME_TYPES): Promise<LocalFile> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `file not found: ${path}` : `cannot read ${path} (${code ?? String(error)})`, {
      suggestion: 'Check the path; use - to read the answer text from standard input.',
    });
  }
  if (info.isDirectory()) throw new UsageError(`${path} is a folder, not a file`);
  if (!info.isFile()) throw new UsageError(`${path} is not a regular file`);
  try {
    await access(path, constants.R_OK);
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
    throw new UsageError(`${path} is ${(info.size / MB).toFixed(1)} MB; the limit is ${MAX_FILE_BYTES / MB} MB per file`, {
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

/** A Blob backed by the file on disk: undici streams it, so memory stays flat. */
export async function fileBlob(file: LocalFile): Promise<Blob> {
  return openAsBlob(file.path, { type: file.type });
}
