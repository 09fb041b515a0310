// How the build scripts write their output: only a file whose content changed, and through a
// rename, so that a build run again beside a test run (as CI does) never shows a half-written file.
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `content` to `path` unless it holds that already; true when it wrote. */
export function writeIfChanged(path, content) {
  let current;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === content) return false;
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
  return true;
}

/** Removes the files of `folder` that `keep(name)` refuses (pages of commands that are gone). */
export function removeStale(folder, keep) {
  for (const name of readdirSync(folder)) if (!keep(name)) rmSync(join(folder, name), { force: true });
}
