// Folders made one level at a time, each one known. Node's recursive mkdir never returns for a path
// it cannot create under some file systems (/proc/nope spins at 100% CPU), and it returns only the
// first folder it made, spelled in a way that may not compare with the one asked for (Windows'
// \\?\ paths, "x/../y"): what a command made is what it may remove again (kct models new).
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A folder that could not be made: `folder` names the one of the way that failed. */
export type FolderError = NodeJS.ErrnoException & { folder: string };

/** Makes the folders missing on the way to `path`: those made, the shallowest first. Throws a FolderError. */
export function makeFolders(path: string): string[] {
  const missing: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    try {
      statSync(dir);
      break;
    } catch {
      missing.unshift(dir);
      if (dirname(dir) === dir) break;
    }
  }
  const made: string[] = [];
  for (const dir of missing) {
    try {
      mkdirSync(dir);
      made.push(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw Object.assign(error as NodeJS.ErrnoException, { folder: dir });
    }
  }
  return made;
}
