// The data dir is private to the user who runs the sandbox (docs/sandbox.md, "Data dir and durability"): the
// folder 0700, the database, keys.json and passwords.json 0600, created so rather than tightened after. SQLite
// gives its -wal and -shm files the mode of the database file, so creating sandbox.db 0600
// (empty: SQLite makes it a database) before it is opened makes all three private. A data dir
// made by an older sandbox is tightened here once.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';

const DB_FILE = 'sandbox.db';
const PRIVATE_FILES = [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, 'keys.json', 'passwords.json'];

export function prepareDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  tighten(dataDir, 0o700);
  const db = join(dataDir, DB_FILE);
  if (!existsSync(db)) closeSync(openSync(db, 'wx', 0o600));
  for (const name of PRIVATE_FILES) tighten(join(dataDir, name), 0o600);
}

/** Removes group and other permissions from a file made by an older sandbox (or another umask). */
function tighten(path: string, mode: number): void {
  let current: number;
  try {
    current = statSync(path).mode & 0o777;
  } catch {
    return;
  }
  if ((current & 0o077) !== 0) chmodSync(path, mode);
}
