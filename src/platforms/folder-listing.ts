// An unzipped download read the way a zip is: '/'-separated paths relative to the folder, folders
// ending in '/', hidden files included. A symbolic link is refused, as in a zip: a download never
// holds one, and following it could read outside the folder.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../api/errors.js';

/** Every file and folder under `root`, relative and sorted, ready for recogniseDownload. */
export async function listDownloadFolder(root: string): Promise<string[]> {
  const paths: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    for (const entry of await readdir(join(root, relative), { withFileTypes: true })) {
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
  return paths.sort();
}
