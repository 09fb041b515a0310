// A task row's long text (its request's fields, the text read from its files) is written to a
// file in the task's folder, and the row keeps only the file's name, as `{"file":"<name>"}`:
// SQLite rewrites a whole row on every status change, and a row holding 300 KB of text made
// each change, and each read of the row, cost the request thread that much (docs/sandbox.md,
// "Data dir and durability"). Readers go through readSpilled, whichever the row holds.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Text longer than this (in characters of JSON) goes to a file. */
export const SPILL_CHARS = 64 * 1024;

/** What the row holds instead of a spilled text. */
interface SpilledRef {
  file: string;
}

const ref = (file: string) => JSON.stringify({ file } satisfies SpilledRef);

/** Whether a column's value names a file (a request's fields and a prepared text never start so). */
export function isSpilled(json: string): boolean {
  return json.startsWith('{"file":');
}

/** Writes `json` as `file` of the task's folder (0600, in one rename); returns the row's value. On a worker thread. */
export function spillSync(json: string, taskDir: string, file: string): string {
  mkdirSync(taskDir, { recursive: true, mode: 0o700 });
  const path = join(taskDir, file);
  writeFileSync(`${path}.tmp`, json, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
  return ref(file);
}

/** spillSync without holding the calling thread: the request thread's. */
export async function spill(json: string, taskDir: string, file: string): Promise<string> {
  await mkdir(taskDir, { recursive: true, mode: 0o700 });
  const path = join(taskDir, file);
  await writeFile(`${path}.tmp`, json, { mode: 0o600 });
  await rename(`${path}.tmp`, path);
  return ref(file);
}

/** The JSON text a column holds, or that the file it names holds. */
export function readSpilledSync(json: string, taskDir: string): string {
  return isSpilled(json) ? readFileSync(join(taskDir, (JSON.parse(json) as SpilledRef).file), 'utf8') : json;
}

/** readSpilledSync without holding the calling thread. */
export async function readSpilled(json: string, taskDir: string): Promise<string> {
  return isSpilled(json) ? readFile(join(taskDir, (JSON.parse(json) as SpilledRef).file), 'utf8') : json;
}
