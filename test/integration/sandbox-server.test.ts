// Start-up failures: nothing the half-started sandbox opened is left behind.
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createSandbox, startSandbox } from '../../packages/sandbox/src/server.js';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { launch, makeDataDir } from '../unit/sandbox-helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function dataDir(): Promise<string> {
  const dir = await makeDataDir();
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Files of `dir` this process still holds open (Linux; elsewhere, none are seen). */
function openUnder(dir: string): string[] {
  if (!existsSync('/proc/self/fd')) return [];
  const held: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(dir)) held.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return held;
}

/**
 * The database was closed: in WAL mode the last connection to close removes the -wal file, and
 * no file of the data dir is still open; and another process could take it over.
 */
function expectClosed(dir: string): void {
  expect(openUnder(dir)).toEqual([]);
  expect(existsSync(join(dir, 'sandbox.db-wal'))).toBe(false);
  const db = openSqlite(join(dir, 'sandbox.db'));
  db.exec('BEGIN EXCLUSIVE; COMMIT');
  db.close();
}

describe('start-up failures', () => {
  test('a second sandbox on a port in use rejects with a clear error and closes its database', async () => {
    const first = await launch();
    cleanups.push(() => first.dispose());
    const port = Number(new URL(first.baseUrl).port);
    const dir = await dataDir();
    const attempt = startSandbox({ port, dataDir: dir });
    await expect(attempt).rejects.toThrow(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    await expect(attempt).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expectClosed(dir);
    // The first one is unaffected.
    expect((await first.call('GET', '/credits')).status).toBe(200);
  });

  test('a failure after the database is open (here: the files area cannot be made) closes it again', async () => {
    const dir = await dataDir();
    await mkdir(join(dir, 'files'), { recursive: true });
    await writeFile(join(dir, 'files', 'tasks'), 'not a directory');
    await expect(createSandbox({ dataDir: dir })).rejects.toThrow();
    expectClosed(dir);
    // Once the cause is gone, the same data dir starts.
    await rm(join(dir, 'files', 'tasks'));
    const sb = await createSandbox({ dataDir: dir });
    await sb.close();
    expectClosed(dir);
  });

  test('a sandbox.db that is not a database: rejects, and the handle is not kept', async () => {
    const dir = await dataDir();
    await writeFile(join(dir, 'sandbox.db'), 'this is not an SQLite database, just text that is long enough to look like a header');
    await expect(createSandbox({ dataDir: dir })).rejects.toThrow(/not a database/);
    expect(openUnder(dir)).toEqual([]);
  });
});
