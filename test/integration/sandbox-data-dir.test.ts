// The data dir at rest: private modes from creation, keys only as hashes (keys.json 0600 beside
// the database keeps the seeded ones), and a data dir of an older sandbox (clear keys, 0644
// files in a 0755 folder) migrated at start.

import { chmodSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FormData } from 'undici';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { hashKey } from '../../packages/sandbox/src/accounts/api-keys.js';
import { KEY_TTL_MS } from '../../packages/sandbox/src/http/auth.js';
import { createSandbox } from '../../packages/sandbox/src/server.js';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { launch, makeDataDir } from '../unit/sandbox-helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function dataDir(): Promise<string> {
  const dir = join(await makeDataDir(), 'data');
  cleanups.push(() => rm(join(dir, '..'), { recursive: true, force: true }));
  return dir;
}

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every file under a folder, with its path. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** Files of the data dir whose bytes hold any of the keys in clear (keys.json aside). */
function filesHolding(dir: string, keys: string[]): string[] {
  return filesUnder(dir)
    .filter((f) => !f.endsWith('keys.json'))
    .filter((f) => {
      const bytes = readFileSync(f);
      return keys.some((k) => bytes.includes(k));
    });
}

describe('a new data dir', () => {
  test('is 0700, its database, WAL, shared memory, keys.json and uploaded files 0600, its folders 0700', async () => {
    const dir = await dataDir();
    const sb = await launch({}, dir);
    cleanups.push(() => sb.close());
    const fd = new FormData();
    fd.append('file', new Blob(['An essay.']), 'essay.txt');
    expect((await sb.call('POST', '/uploads/file', { form: fd })).status).toBe(201);
    expect(mode(dir)).toBe(0o700);
    for (const name of ['sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm', 'keys.json'])
      expect([name, mode(join(dir, name))]).toEqual([name, 0o600]);
    for (const file of filesUnder(join(dir, 'files'))) expect([file, mode(file)]).toEqual([file, 0o600]);
    for (const sub of ['files', 'files/tasks', 'files/uploads', 'files/incoming'])
      expect([sub, mode(join(dir, sub))]).toEqual([sub, 0o700]);
  });

  test('holds no key in clear: the database has hashes, keys.json the seeded keys', async () => {
    const dir = await dataDir();
    const sb = await launch({}, dir);
    expect((await sb.call('GET', '/credits')).status).toBe(200);
    const keys = Object.values(sb.keys);
    await sb.close();
    expect(filesHolding(dir, keys)).toEqual([]);
    expect(JSON.parse(readFileSync(join(dir, 'keys.json'), 'utf8'))).toEqual(sb.keys);
    const db = openSqlite(join(dir, 'sandbox.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT label, key_hash, prefix, last4, revoked_at FROM api_keys ORDER BY id').all() as {
        label: keyof typeof sb.keys;
        key_hash: string;
        prefix: string;
        last4: string;
        revoked_at: null;
      }[];
      expect(rows).toHaveLength(5);
      for (const r of rows)
        expect(r).toEqual({
          label: r.label,
          key_hash: hashKey(sb.keys[r.label]),
          prefix: 'kct_sbx_',
          last4: sb.keys[r.label].slice(-4),
          revoked_at: null,
        });
    } finally {
      db.close();
    }
    // The same keys on the next start.
    const again = await createSandbox({ dataDir: dir });
    expect(again.keys).toEqual(sb.keys);
    await again.close();
  });

  test('a revoked key is 401 revoked_api_key naming the date', async () => {
    const dir = await dataDir();
    const sb = await launch({}, dir);
    cleanups.push(() => sb.close());
    // the key is in the key cache when it is revoked behind the sandbox's back
    expect((await sb.call('GET', '/credits', { key: sb.keys.broke })).status).toBe(200);
    const db = openSqlite(join(dir, 'sandbox.db'));
    db.prepare(`UPDATE api_keys SET revoked_at = '2026-03-01T10:00:00.000Z' WHERE label = 'broke'`).run();
    db.close();
    // the key cache keeps a row for a second (KEY_TTL_MS): its clock moves on, nothing waits
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + KEY_TTL_MS + 100);
    const res = await sb.call('GET', '/credits', { key: sb.keys.broke }).finally(() => vi.useRealTimers());
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({
      code: 'revoked_api_key',
      message: 'The API key in X-API-Key was revoked on 2026-03-01: use another key, or create a new one.',
    });
    expect((await sb.call('GET', '/credits')).status).toBe(200);
  });

  test('keys.json deleted: new keys are issued for the seeded accounts, the old ones stop working', async () => {
    const dir = await dataDir();
    const first = await createSandbox({ dataDir: dir });
    await first.close();
    await rm(join(dir, 'keys.json'));
    const lines: string[] = [];
    const sb = await launch({ log: (line) => lines.push(line) }, dir);
    cleanups.push(() => sb.close());
    expect(sb.keys.user).not.toBe(first.keys.user);
    expect((await sb.call('GET', '/credits', { key: first.keys.user })).status).toBe(401);
    expect((await sb.call('GET', '/credits', { key: sb.keys.user })).status).toBe(200);
    expect(lines.some((l) => l.startsWith('keys.json did not hold the seeded keys user, broke, org_admin, org_member, former_admin'))).toBe(
      true,
    );
    expect(mode(join(dir, 'keys.json'))).toBe(0o600);
  });
});

describe('a data dir of an older sandbox', () => {
  test('clear keys are hashed (the seeded ones kept in keys.json), no copy stays on disk, and the modes are tightened', async () => {
    const dir = await dataDir();
    await (await createSandbox({ dataDir: dir })).close();
    // Turn it back into what the previous version left: clear keys at schema version 4, wide modes.
    const old = {
      user: `kct_sbx_${'1'.repeat(32)}`,
      broke: `kct_sbx_${'2'.repeat(32)}`,
      org_admin: `kct_sbx_${'3'.repeat(32)}`,
      org_member: `kct_sbx_${'4'.repeat(32)}`,
      former_admin: `kct_sbx_${'5'.repeat(32)}`,
    };
    const extra = `kct_sbx_${'6'.repeat(32)}`;
    const db = openSqlite(join(dir, 'sandbox.db'));
    db.exec(`CREATE TABLE old_keys AS SELECT user_id, scope, org_id, label, created_at FROM api_keys;
      DROP TABLE api_keys;
      CREATE TABLE api_keys (key TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
        scope TEXT NOT NULL CHECK (scope IN ('user', 'organization')), org_id INTEGER REFERENCES organizations(id),
        label TEXT UNIQUE, created_at TEXT NOT NULL, CHECK ((scope = 'organization') = (org_id IS NOT NULL)));`);
    const rows = db.prepare('SELECT * FROM old_keys').all() as {
      user_id: number;
      scope: string;
      org_id: number | null;
      label: keyof typeof old;
      created_at: string;
    }[];
    const insert = db.prepare('INSERT INTO api_keys (key, user_id, scope, org_id, label, created_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (const r of rows) insert.run(old[r.label], r.user_id, r.scope, r.org_id, r.label, r.created_at);
    insert.run(extra, rows[0].user_id, 'user', null, null, rows[0].created_at);
    // and without what later versions added (issue 15: accounts' passwords; issue 13: reserved credits)
    db.exec(`DROP TABLE old_keys; ALTER TABLE users DROP COLUMN password_hash;
      DROP TRIGGER tasks_reserve_insert; DROP TRIGGER tasks_reserve_update; DROP TRIGGER tasks_reserve_delete;
      ALTER TABLE users DROP COLUMN reserved; PRAGMA user_version = 4`);
    db.close();
    await rm(join(dir, 'keys.json'));
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'sandbox.db'), 0o644);

    const sb = await launch({}, dir);
    cleanups.push(() => sb.close());
    expect(sb.keys).toEqual(old);
    expect((await sb.call('GET', '/credits', { key: old.user })).status).toBe(200);
    expect((await sb.call('GET', '/credits', { key: extra })).status).toBe(200);
    expect(JSON.parse(readFileSync(join(dir, 'keys.json'), 'utf8'))).toEqual(old);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'sandbox.db'))).toBe(0o600);
    expect(mode(join(dir, 'keys.json'))).toBe(0o600);
    expect(filesHolding(dir, [...Object.values(old), extra])).toEqual([]);
    const check = openSqlite(join(dir, 'sandbox.db'), { readonly: true });
    try {
      expect(check.prepare(`SELECT name FROM sqlite_master WHERE name = 'api_keys_clear'`).get()).toBeUndefined();
      expect(check.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(5);
    } finally {
      check.close();
    }
    expect(existsSync(join(dir, 'keys.json'))).toBe(true);
  });
});
