// Idempotency keys derived from what is sent: the same submission (model, every field, the
// content of every file) always gets the same key, so running a command again after a crash or
// a time-out returns the tasks already created instead of charging twice.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { canonicalJson } from '../api/canonical.js';
import { ONE_READ_BYTES, type LocalFile } from './files.js';

export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  // One reused buffer: hashing 200 MB allocates nothing per chunk, so peak memory stays flat.
  const buffer = Buffer.allocUnsafe(ONE_READ_BYTES);
  const handle = await open(path, 'r');
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

export interface KeyedFile {
  field: string;
  file: LocalFile;
}

/** The SHA-256 of a file's content: of its bytes when it fit in one read, else streamed from disk. */
export type FileHasher = (file: LocalFile) => Promise<string>;

export const hashFile: FileHasher = async (file) => (file.data !== undefined ? createHash('sha256').update(file.data).digest('hex') : fileSha256(file.path));

/** A hasher that reads each file on disk once, however many submissions share it (rubric files). */
export function cachedHasher(): FileHasher {
  const cache = new Map<string, Promise<string>>();
  return (file) => {
    if (file.data !== undefined) return hashFile(file);
    let hash = cache.get(file.path);
    if (!hash) {
      hash = fileSha256(file.path);
      cache.set(file.path, hash);
    }
    return hash;
  };
}

/** A stable key for a submission to `endpoint`: "kct-" + 40 hex characters of a SHA-256. */
export async function deriveIdempotencyKey(endpoint: string, fields: Record<string, unknown>, files: readonly KeyedFile[] = [], hash: FileHasher = hashFile): Promise<string> {
  const described = await Promise.all(files.map(async ({ field, file }) => ({ field, name: file.name, type: file.type, sha256: await hash(file) })));
  const canonical = canonicalJson({ v: 1, endpoint, fields, files: described });
  return `kct-${createHash('sha256').update(canonical).digest('hex').slice(0, 40)}`;
}
