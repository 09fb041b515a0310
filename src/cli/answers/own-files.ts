// Files the command itself writes (its --resume journal, its --report, the file its output is
// redirected to) are never answers. Found among them, in the folder being marked (`kct one-pass .
// --resume run.journal > marks.csv`), they would stop the same command run again: left out and said.
// Known by device and inode, as the check knows every file it reads (plan.ts).
import { type BigIntStats, fstatSync, type Stats, statSync } from 'node:fs';
import type { IO } from '../core/io.js';
import { exactId } from './file-id.js';

/** A file this command writes, by the flag that names it. */
export interface WrittenFile {
  path: string;
  what: string;
}

/** The command's own files, by device and inode, a match confirmed by the exact id (file-id.ts). */
export class OwnFiles {
  private readonly byNumber = new Map<string, { exact: string; what: string }>();

  static of(written: readonly WrittenFile[], io: Pick<IO, 'stdout' | 'stderr'>): OwnFiles {
    const own = new OwnFiles();
    for (const { path, what } of written) {
      const info = statSync(path, { bigint: true, throwIfNoEntry: false });
      if (info?.isFile()) own.add(info, what);
    }
    // a redirection (> marks.csv) makes the file before kct starts: empty, among the answers
    for (const [stream, what] of [
      [io.stdout, 'its output'],
      [io.stderr, 'its messages'],
    ] as const) {
      const fd = (stream as { fd?: unknown }).fd;
      if (typeof fd !== 'number') continue;
      try {
        const info = fstatSync(fd, { bigint: true });
        if (info.isFile()) own.add(info, what);
      } catch {
        // a stream that is no file: nothing of ours to leave out
      }
    }
    return own;
  }

  /** True when the command writes no file (its output goes to a terminal or a pipe): nothing to look for. */
  get none(): boolean {
    return this.byNumber.size === 0;
  }

  /** What the file at `path` is of the command's (its stat taken only when the command writes any), or undefined. */
  at(path: string): string | undefined {
    if (this.byNumber.size === 0) return undefined;
    const info = statSync(path, { throwIfNoEntry: false });
    return info?.isFile() ? this.whatOf(path, info) : undefined;
  }

  /** What the file at `path` (whose stat the check has) is of the command's, or undefined for any other file. */
  whatOf(path: string, info: Pick<Stats, 'dev' | 'ino'>): string | undefined {
    if (this.byNumber.size === 0) return undefined;
    const found = this.byNumber.get(`${info.dev}:${info.ino}`);
    return found !== undefined && exactId(path) === found.exact ? found.what : undefined;
  }

  private add(info: BigIntStats, what: string): void {
    const key = `${Number(info.dev)}:${Number(info.ino)}`;
    if (!this.byNumber.has(key)) this.byNumber.set(key, { exact: `${info.dev}:${info.ino}`, what });
  }
}
