// Files the command itself writes (its --resume journal, its --report, the file its output is
// redirected to) are never answers. Found among them, in the folder being marked (`kct one-pass .
// --resume run.journal > marks.csv`), they would stop the same command run again: left out and said.
// Known by device and inode, as the check knows every file it reads (plan.ts).
import { fstatSync, type Stats, statSync } from 'node:fs';
import type { IO } from '../core/io.js';

/** A file this command writes, by the flag that names it. */
export interface WrittenFile {
  path: string;
  what: string;
}

/** What each of the command's own files is, by "device:inode". */
export type OwnFiles = ReadonlyMap<string, string>;

export const fileId = (info: Pick<Stats, 'dev' | 'ino'>): string => `${info.dev}:${info.ino}`;

export function ownFiles(written: readonly WrittenFile[], io: Pick<IO, 'stdout' | 'stderr'>): OwnFiles {
  const own = new Map<string, string>();
  for (const { path, what } of written) {
    const info = statSync(path, { throwIfNoEntry: false });
    if (info?.isFile()) own.set(fileId(info), what);
  }
  // a redirection (> marks.csv) makes the file before kct starts: empty, among the answers
  for (const [stream, what] of [
    [io.stdout, 'its output'],
    [io.stderr, 'its messages'],
  ] as const) {
    const fd = (stream as { fd?: unknown }).fd;
    if (typeof fd !== 'number') continue;
    try {
      const info = fstatSync(fd);
      if (info.isFile() && !own.has(fileId(info))) own.set(fileId(info), what);
    } catch {
      // a stream that is no file: nothing of ours to leave out
    }
  }
  return own;
}
