// An unzipped download read the way a zip is: '/'-separated paths relative to the folder, folders
// ending in '/', hidden files included. A symbolic link is refused, as in a zip: a download never
// holds one, and following it could read outside the folder.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../api/errors.js';

/**
 * Every file and folder under `root`, relative and sorted, ready for recogniseDownload; and the
 * folders in it that cannot be read (permissions, a name not in UTF-8), by path, with the error's
 * code: their student is one that cannot be marked, not one with nothing submitted.
 */
export async function listDownloadFolder(root: string): Promise<{ paths: string[]; unreadable: Map<string, string> }> {
  const paths: string[] = [];
  const unreadable = new Map<string, string>();
  const walk = async (relative: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, relative), { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      if (relative === '') throw new UsageError(`cannot read the folder ${root} (${code})`, { suggestion: 'Check its permissions.' });
      unreadable.set(relative, code);
      return;
    }
    for (const entry of entries) {
      const path = relative + entry.name;
      if (entry.isDirectory()) {
        paths.push(`${path}/`);
        await walk(`${path}/`);
      } else if (entry.isFile()) {
        paths.push(path);
      } else {
        throw new UsageError(
          `${join(root, path)} is ${entry.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; kct reads only plain files and folders in a download folder.`,
          {
            suggestion: 'Remove it from the folder, or give kct the zip as the platform downloaded it.',
          },
        );
      }
    }
  };
  await walk('');
  return { paths: paths.sort(), unreadable };
}
