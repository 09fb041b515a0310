// Reading a multipart request: text fields collected, files streamed to disk (never buffered
// whole) with their size limit enforced and their sha256 computed on the way.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { MAX_FILE_BYTES, MAX_FILES_PER_REQUEST } from 'kct/api/limits.js';
import { effectiveMime, mimeFromName } from 'kct/api/mime.js';
import type { FileRole } from '../store/store.js';
import { fileTooLarge, HttpError, httpError, REQUEST_BODY_LIMIT, toHttpError } from './envelope.js';
import { DEFAULT_TEXT_LIMIT, LONGEST_TEXT, TEXT_LIMITS, tooLong } from './field-limits.js';

export interface ReceivedFile {
  field: string;
  role: FileRole;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  /** Absolute path of the stored copy. */
  path: string;
}

export interface Received {
  /** Text fields as sent (strings), or already parsed when a part declared application/json. */
  fields: Record<string, unknown>;
  files: ReceivedFile[];
  /** The directory holding the files; the caller moves or deletes it. */
  dir: string;
}

export interface FilePolicy {
  /** File field name → what the file is for. Any other file field is refused. */
  fileFields: Readonly<Record<string, FileRole>>;
  acceptedMimes: readonly string[];
}

export const MULTIPART_LIMITS = {
  fileSize: MAX_FILE_BYTES,
  files: MAX_FILES_PER_REQUEST,
  /** More text fields than this: 400 (FST_FIELDS_LIMIT). */
  fields: 100,
  parts: 200,
  /**
   * Bytes of one text field: three per character of the longest text limit (UTF-8 needs at most
   * three bytes per JavaScript character), so a field cut short here is over its limit, whatever
   * its characters. field-limits.ts then checks each field's own limit.
   */
  fieldSize: 3 * LONGEST_TEXT + 1024,
};

/**
 * All text fields of one request together, in bytes: the same as a JSON body's limit. fastify's
 * bodyLimit does not apply to multipart parts, and busboy's limits are per field, so without this
 * a request could hold fields × fieldSize of text in memory.
 */
const MAX_TEXT_BYTES = REQUEST_BODY_LIMIT;

/**
 * Streams every part. A refusal found mid-body is remembered and the rest of the body is still
 * read (files after it are discarded, not stored), so the client receives the error response
 * instead of a connection reset while it is still uploading.
 */
export async function receiveMultipart(request: FastifyRequest, incomingDir: string, policy: FilePolicy): Promise<Received> {
  const dir = join(incomingDir, randomBytes(12).toString('hex'));
  const fields: Record<string, unknown> = {};
  const files: ReceivedFile[] = [];
  let refusal: HttpError | undefined;
  let textBytes = 0;
  const abandoned = whenAbandoned(request);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    try {
      const parts = request.parts()[Symbol.asyncIterator]();
      for (;;) {
        const next = await Promise.race([parts.next(), abandoned.promise]);
        if (next.done) break;
        const part = next.value;
        abandoned.current = part.type === 'file' ? part.file : undefined;
        if (part.type === 'file') {
          if (refusal) {
            part.file.resume();
            continue;
          }
          const problem = fileProblem(part, policy);
          if (problem) {
            refusal = problem;
            part.file.resume();
            continue;
          }
          const stored = await storeFile(part, policy, dir, files.length);
          if (stored instanceof HttpError) refusal = stored;
          else files.push(stored);
        } else {
          textBytes += textSize(part.value);
          refusal ??= fieldProblem(part, fields, policy) ?? (textBytes > MAX_TEXT_BYTES ? textTooLarge() : undefined);
          // After a refusal nothing more is kept: the rest of the body is only drained.
          if (!refusal) fields[part.fieldname] = part.value;
        }
      }
    } catch (err) {
      throw abandoned.reason ?? refusal ?? toHttpError(err as Error, 0);
    }
    if (refusal) throw refusal;
    return { fields, files, dir };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  } finally {
    abandoned.dispose();
  }
}

interface Abandonment {
  /** Rejects once the connection closed before the body was complete; never resolves. */
  promise: Promise<never>;
  /** The file part being stored: destroyed on abandonment, so its pipeline ends and closes its file. */
  current?: NodeJS.ReadableStream & { destroy(err?: Error): void };
  reason?: HttpError;
  dispose(): void;
}

/**
 * A body whose connection closes before it is complete (the client went away, or the server
 * timed it out) would leave the parts loop waiting for ever, with its folder and file open.
 */
function whenAbandoned(request: FastifyRequest): Abandonment {
  const raw = request.raw;
  let reject!: (err: HttpError) => void;
  let done = false;
  const abandonment: Abandonment = {
    promise: new Promise<never>((_, fail) => {
      reject = fail;
    }),
    dispose: () => {
      raw.removeListener('close', onClose);
      socket?.removeListener('close', onClose);
    },
  };
  abandonment.promise.catch(() => undefined);
  const onClose = () => {
    if (raw.complete || done) return;
    done = true;
    abandonment.reason = httpError(400, 'The connection closed before the multipart body was complete.', 'incomplete_body');
    abandonment.current?.destroy(abandonment.reason);
    reject(abandonment.reason);
  };
  // The socket too: after an answer sent early (a timeout) Node detaches the request, which then
  // never reports its end.
  const socket = raw.socket;
  raw.once('close', onClose);
  socket?.once('close', onClose);
  return abandonment;
}

function fieldProblem(part: MultipartValue, fields: Record<string, unknown>, policy: FilePolicy): HttpError | undefined {
  const name = part.fieldname;
  if (name in policy.fileFields) {
    return httpError(400, `Field "${name}" must be a file part (with a filename), not a text field.`, 'invalid_request');
  }
  if (Object.hasOwn(fields, name)) return httpError(400, `Field "${name}" was sent more than once; send it once.`, 'invalid_request');
  if (part.valueTruncated) return tooLong(name, undefined, TEXT_LIMITS[name] ?? DEFAULT_TEXT_LIMIT);
  return undefined;
}

/** Bytes of a text field as received (a part declared application/json arrives parsed). */
function textSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

function textTooLarge(): HttpError {
  const mb = MAX_TEXT_BYTES / 1024 / 1024;
  return httpError(
    413,
    `The text fields of this multipart request add up to more than the ${mb} MB limit (the same as a JSON body's). Send long text as a file instead.`,
    'body_too_large',
  );
}

function fileProblem(part: MultipartFile, policy: FilePolicy): HttpError | undefined {
  const name = part.filename || part.fieldname;
  if (!(part.fieldname in policy.fileFields)) {
    const allowed = Object.keys(policy.fileFields).join(', ');
    return httpError(
      400,
      `File field "${part.fieldname}" (file "${name}") is not accepted here; send files in one of: ${allowed}.`,
      'unknown_file_field',
    );
  }
  const mime = fileMime(part.mimetype, name);
  if (mime === undefined || !policy.acceptedMimes.includes(mime)) {
    const stated = mime ? `type ${mime}` : 'an unknown type';
    return httpError(
      400,
      `File "${name}" has ${stated}, which is not accepted. Accepted types: ${policy.acceptedMimes.join(', ')} (state the type, or use a matching file extension).`,
      'unsupported_file_type',
    );
  }
  return undefined;
}

/**
 * The multipart parser reports a part without a Content-Type as text/plain (RFC 7578's
 * default), so "text/plain" on a file whose extension names another type is read as a missing
 * type and the extension decides, as spec 4.4 asks for missing types.
 */
export function fileMime(declared: string | undefined, filename: string): string | undefined {
  const clean = (declared ?? '').split(';')[0].trim().toLowerCase();
  if (clean === 'text/plain') {
    const byName = mimeFromName(filename);
    if (byName !== undefined && byName !== 'text/plain') return byName;
  }
  return effectiveMime(declared, filename);
}

async function storeFile(part: MultipartFile, policy: FilePolicy, dir: string, ord: number): Promise<ReceivedFile | HttpError> {
  const name = part.filename || part.fieldname;
  const path = join(dir, String(ord));
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(part.file, tap, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  if (part.file.truncated || size > MAX_FILE_BYTES) {
    await rm(path, { force: true });
    return fileTooLarge(name);
  }
  if (size === 0) {
    await rm(path, { force: true });
    return httpError(400, `File "${name}" is empty.`, 'empty_file');
  }
  return {
    field: part.fieldname,
    role: policy.fileFields[part.fieldname],
    name,
    mime: fileMime(part.mimetype, name)!,
    size,
    sha256: hash.digest('hex'),
    path,
  };
}
