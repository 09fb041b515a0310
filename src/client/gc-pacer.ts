// Keeps memory flat while a large multipart body streams. Node reads a file-backed Blob in
// 64 KiB chunks, each a fresh buffer outside V8's heap; V8 frees spent chunks only when it
// collects the young generation, which the few small objects made per chunk rarely fill. Tens
// of MB of sent chunks then pile up before a collection. A young-generation collection every
// 20 ms while the body streams frees them as they go (~0.2 ms each: docs/benchmarks.md).
// Opt-in (HttpClientOptions.paceUploads): a library should not touch its host's V8 flags.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bodies with less than this in files are not paced: their chunks are too few to matter. */
export const PACE_MIN_BYTES = 8 * 1024 * 1024;
const INTERVAL_MS = 20;

type Collect = (options?: { type?: 'minor' | 'major' }) => void;
let collect: Collect | null | undefined;

/** V8's gc(), exposed into a fresh context (the way Jest finds it); null where that is refused. */
function collector(): Collect | null {
  if (collect === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const gc = runInNewContext('gc') as unknown;
      collect = typeof gc === 'function' ? (gc as Collect) : null;
    } catch {
      collect = null;
    }
  }
  return collect;
}

/** Starts pacing for a body carrying `fileBytes` of files; returns the function that stops it. */
export function paceCollections(fileBytes: number): () => void {
  if (fileBytes < PACE_MIN_BYTES) return () => {};
  const gc = collector();
  if (!gc) return () => {};
  const timer = setInterval(() => gc({ type: 'minor' }), INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The bytes of the files in a form (its Blob and File entries). */
export function formFileBytes(form: Iterable<[string, unknown]>): number {
  let bytes = 0;
  for (const [, value] of form) {
    if (value instanceof Blob) bytes += value.size;
  }
  return bytes;
}

/**
 * While a long run makes many small requests, their short-lived objects outlive V8's small young
 * generation (kept small for uploads) and fill the old generation with garbage that V8 collects
 * only once it has grown by half again: a full collection every `intervalMs` keeps the heap near
 * what is live (~10 ms each: docs/benchmarks.md "Scale"). Returns the function that stops it.
 */
export function paceFullCollections(intervalMs = 1000): () => void {
  const gc = collector();
  if (!gc) return () => {};
  // gc() with no options: Node 20's V8 runs a scavenge for gc({ type: 'major' })
  const timer = setInterval(() => gc(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A full collection now, where V8 allows it: for long synchronous loops (listing a folder of
 * 100,000 answers) in which no timer of paceFullCollections can fire.
 */
export function collectNow(): void {
  collector()?.();
}
