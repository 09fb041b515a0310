// Idempotency keys, by one rule for one-pass and batch: derived from what is sent (the
// submission's identity and its labels, identity.ts: the same submission always gets the same
// key), or the caller's base key joined to the answer's name (a path or a student id). Either way
// running a command again after a crash or a time-out returns the tasks already created instead
// of charging twice.
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { canonicalJson } from '../api/canonical.js';
import { UsageError } from '../api/errors.js';
import { ONE_READ_BYTES } from './files.js';
import { type FileHasher, identityOf, type KeyedFile, labelsOf, sha256 } from './identity.js';

export type { FileHasher, KeyedFile };

export async function fileSha256(path: string, size = ONE_READ_BYTES): Promise<string> {
  const hash = createHash('sha256');
  // One reused buffer: hashing 200 MB allocates nothing per chunk, so peak memory stays flat; a small
  // file gets a buffer of its own size (one more byte, to see its end), not 256 KiB of garbage each
  const buffer = Buffer.allocUnsafe(Math.min(ONE_READ_BYTES, size + 1));
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

/** A file's SHA-256, of its bytes when held, else read from disk now: a key is of what is sent (never a digest taken earlier). */
export const hashFile: FileHasher = async (file) => (file.data !== undefined ? sha256(file.data) : fileSha256(file.path, file.size));

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

/**
 * A stable key for a submission to `endpoint`: "kct-" + 40 hex characters of a SHA-256 of what is
 * sent: the submission's identity (identity.ts: its content and marking) and its labels (student
 * id, file names). A batch's is of its items' identities and labels, in order.
 */
export async function deriveIdempotencyKey(
  endpoint: string,
  fields: Record<string, unknown>,
  files: readonly KeyedFile[] = [],
  hash: FileHasher = hashFile,
): Promise<string> {
  if (endpoint === 'batch' && Array.isArray(fields.evaluations)) {
    const items = fields.evaluations as Record<string, unknown>[];
    return batchKeyFromIdentities(fields, await Promise.all(items.map((item) => identityOf(item, [], hash))));
  }
  return keyFromIdentity(endpoint, await identityOf(fields, files, hash), labelsOf(fields, files));
}

/**
 * The derived key of a batch request whose items' identities are known (in order): theirs and their labels;
 * and, for an item a task did not mark, that task (`again`), so the service makes a new one rather than replay it.
 */
export function batchKeyFromIdentities(
  fields: Record<string, unknown>,
  identities: readonly string[],
  again: readonly (string | undefined)[] = [],
): string {
  const { evaluations, ...rest } = fields;
  const items = (evaluations as Record<string, unknown>[]).map((item, i) => ({
    identity: identities[i],
    labels: labelsOf(item, []),
    ...(again[i] !== undefined ? { again: again[i] } : {}),
  }));
  return keyOf({ v: 2, endpoint: 'batch', items, rest });
}

/** The derived key of a submission whose identity is known: its identity and its labels. */
export function keyFromIdentity(endpoint: string, identity: string, labels: Record<string, unknown>): string {
  return keyOf({ v: 2, endpoint, identity, labels });
}

function keyOf(described: unknown): string {
  return `kct-${sha256(canonicalJson(described)).slice(0, 40)}`;
}

/**
 * How a submission's Idempotency-Key is made: derived from everything sent (the default), or
 * from the caller's base key and the answer's name, never its position in the run.
 */
export type KeyRule = { kind: 'derived' } | { kind: 'base'; base: string };

/** How the library says a key is derived when none is given (src/cli/core/hints.ts words it for kct). */
const DERIVED_ADVICE = "to have one derived from each answer's content";

/** The longest base key: room is left for the name (the service takes up to 255 characters). */
const MAX_BASE_KEY = 200;
const MAX_KEY = 255;
/** What a header value of a key may hold: visible ASCII, no spaces. */
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * A caller's base key, checked before anything is sent: an empty key would send no key at all
 * (every run charged again), and a header can hold only visible ASCII.
 */
export function checkBaseKey(base: string, what = 'the idempotency key'): string {
  if (base.trim() === '') {
    throw new UsageError(`${what} is empty: with no key, every run would be charged again`, {
      suggestion: `Give a key such as class9-essay, or leave out ${what} ${DERIVED_ADVICE}. In a script, check that the variable you pass is set.`,
    });
  }
  // one test a key: every answer's key passes here (the position is looked for only when one fails)
  const bad = VISIBLE_ASCII.test(base) ? -1 : [...base].findIndex((char) => !VISIBLE_ASCII.test(char));
  if (bad >= 0) {
    const char = [...base][bad];
    const shown = char === ' ' ? 'a space' : /\s/.test(char) ? 'white space' : `"${char}"`;
    throw new UsageError(
      `${what} may hold only visible ASCII characters (letters, digits, punctuation; no spaces): it has ${shown} at position ${bad + 1}`,
      {
        suggestion: 'Use letters, digits and - _ . : / only, e.g. class9-essay.',
      },
    );
  }
  if (base.length > MAX_BASE_KEY) throw new UsageError(`${what} is ${base.length} characters long; the limit is ${MAX_BASE_KEY}`);
  return base;
}

/**
 * "<base>-<name>": the name (a path relative to its folder, or a student id) with every character
 * other than letters, digits and - _ . ~ / percent-encoded, so the key is visible ASCII and two
 * names never share one. A name too long for a key is replaced by its SHA-256.
 */
export function keyForName(base: string, name: string): string {
  const key = `${checkBaseKey(base)}-${encodeURIComponent(name)
    .replace(/%2F/g, '/')
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
  if (key.length <= MAX_KEY) return key;
  return `${base}-sha256-${sha256(name).slice(0, 32)}`;
}

/** The name of a batch request: its items' names, in order. */
function batchName(itemNames: readonly string[]): string {
  return `batch-${sha256(itemNames.join('\n')).slice(0, 32)}`;
}

/**
 * How a submission's Idempotency-Key is chosen: derived from everything sent, the caller's own key
 * as it is, or the caller's base key joined to the submission's name (a path or a student id;
 * for a batch, its items' names in order).
 */
export type OnePassIdempotency = 'derive' | { key: string } | { base: string; name: string };
export type BatchIdempotency = 'derive' | { key: string } | { base: string; names: readonly string[] };

/** What a key is derived from: the endpoint, every field as given, and every file's content. */
export interface KeyedSubmission {
  endpoint: 'one-pass' | 'batch';
  fields: Record<string, unknown>;
  files?: readonly KeyedFile[];
}

/**
 * The key of one submission: the one rule one-pass and batch share (so re-runs find the tasks
 * earlier runs created). Undefined when no idempotency was asked for.
 */
export async function idempotencyKeyFor(
  choice: OnePassIdempotency | BatchIdempotency | undefined,
  submission: KeyedSubmission,
  hash: FileHasher = hashFile,
): Promise<string | undefined> {
  if (choice === undefined) return undefined;
  if (choice === 'derive') return deriveIdempotencyKey(submission.endpoint, submission.fields, submission.files ?? [], hash);
  if ('key' in choice) return checkBaseKey(choice.key, 'the Idempotency-Key');
  return keyForName(choice.base, 'names' in choice ? batchName(choice.names) : choice.name);
}
