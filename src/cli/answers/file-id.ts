// A file's identity on disk: its device and inode. Node's numbers lose the low bits of an NTFS file id
// past 2^53, so two files may share a number id: a match of numbers is confirmed by the exact (bigint)
// ids before two paths are called one file (a student's file is never taken for another, or for kct's).
import { type Stats, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** The exact "device:inode" of the file at `path`, or undefined when it cannot be read. */
export function exactId(path: string): string | undefined {
  const info = statSync(path, { bigint: true, throwIfNoEntry: false });
  return info === undefined ? undefined : `${info.dev}:${info.ino}`;
}

/**
 * Whether two paths are one file: by their exact ids (a link, a hard link, another spelling of the
 * path), or by the paths themselves when either is not there (a file about to be written).
 */
export function sameFile(a: string, b: string): boolean {
  const [idA, idB] = [exactId(a), exactId(b)];
  return idA !== undefined && idB !== undefined ? idA === idB : resolve(a) === resolve(b);
}

/**
 * Files a walk reached, by device and inode, to the first path reached there: its number in the
 * answer list, or a path the list does not hold (a file that cannot be sent, or any once the run is
 * refused), so the same file reached again (a link, a folder and one of its files) names it.
 */
export class SeenFiles {
  private readonly seen = new Map<number, Map<number, number>>();
  private readonly unlisted: string[] = [];

  constructor(private readonly listedPath: (file: number) => string) {}

  /** The path first reached at the file `info` describes, when `path` is that same file; else undefined, and `next` (the list's next file) is kept for it. */
  earlier(path: string, info: Stats, next: number): string | undefined {
    const byInode = this.byInode(info);
    const earlier = byInode.get(info.ino);
    if (earlier === undefined) {
      byInode.set(info.ino, next);
      return undefined;
    }
    const earlierPath = earlier >= 0 ? this.listedPath(earlier) : this.unlisted[-1 - earlier];
    // numbers alike are not enough: two files whose NTFS ids round alike are two answers
    return sameFile(path, earlierPath) ? earlierPath : undefined;
  }

  /** The file at `path` is not in the list: reached again, it is named by this path. */
  unlist(path: string, info: Stats | undefined): void {
    if (!info) return;
    this.byInode(info).set(info.ino, -1 - this.unlisted.length);
    this.unlisted.push(path);
  }

  private byInode(info: Stats): Map<number, number> {
    let byInode = this.seen.get(info.dev);
    if (!byInode) this.seen.set(info.dev, (byInode = new Map()));
    return byInode;
  }
}
