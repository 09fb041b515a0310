// A file's identity on disk: its device and inode. Node's numbers lose the low bits of an NTFS file id
// past 2^53, so two files may share a number id: a match of numbers is confirmed by the exact (bigint)
// ids before two paths are called one file (a student's file is never taken for another, or for kct's).
import { statSync } from 'node:fs';

/** The exact "device:inode" of the file at `path`, or undefined when it cannot be read. */
export function exactId(path: string): string | undefined {
  const info = statSync(path, { bigint: true, throwIfNoEntry: false });
  return info === undefined ? undefined : `${info.dev}:${info.ino}`;
}

/** Whether two paths are one file, by their exact ids. */
export function sameFile(a: string, b: string): boolean {
  const id = exactId(a);
  return id !== undefined && id === exactId(b);
}
