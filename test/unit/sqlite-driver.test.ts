// The SQLite adapter (src/sandbox/sqlite): the same checks on every driver this runtime can
// load. Node 20 runs them on better-sqlite3, Node 22 and 24 on node:sqlite (.ci/run runs both).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CHECKPOINT_PAGES, openDatabase } from '../../packages/sandbox/src/store/db.js';
import {
  availableDrivers,
  betterSqlite3Missing,
  chooseDriver,
  type Database,
  DRIVER_ENV,
  type DriverName,
  openSqlite,
} from '../../packages/sandbox/src/store/sqlite/driver.js';
import {
  isSqliteExperimentalWarning,
  NodeDatabase,
  nodeSqlite,
  withoutSqliteWarning,
} from '../../packages/sandbox/src/store/sqlite/node-sqlite.js';

const [major, minor] = process.versions.node.split('.').map(Number);
const hasNodeSqlite = major > 22 || (major === 22 && minor >= 13);

describe('choosing a driver', () => {
  test(`this runtime (Node ${process.version}) uses ${hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3'}`, () => {
    expect(chooseDriver({})).toBe(hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3');
    expect(availableDrivers()).toContain(chooseDriver({}));
    expect(nodeSqlite() !== undefined).toBe(hasNodeSqlite);
  });

  test(`${DRIVER_ENV} forces a driver, and an unknown name is refused with the names it takes`, () => {
    expect(chooseDriver({ [DRIVER_ENV]: 'better-sqlite3' })).toBe('better-sqlite3');
    expect(chooseDriver({ [DRIVER_ENV]: 'node:sqlite' })).toBe('node:sqlite');
    expect(chooseDriver({ [DRIVER_ENV]: ' ' })).toBe(chooseDriver({}));
    expect(() => chooseDriver({ [DRIVER_ENV]: 'sqlite3' })).toThrow(
      expect.objectContaining({
        message: 'KCT_SQLITE_DRIVER="sqlite3" is not a SQLite driver kct knows',
        suggestion: 'Use node:sqlite or better-sqlite3, or unset KCT_SQLITE_DRIVER to let kct choose.',
        code: 'ERR_KCT_SQLITE_UNAVAILABLE',
      }),
    );
  });

  test.runIf(!hasNodeSqlite)('forcing node:sqlite where it does not exist says which Node.js has it', () => {
    expect(() => openSqlite(':memory:', { driver: 'node:sqlite' })).toThrow(/node:sqlite is not available in Node.js v20.*22\.13/);
  });
});

describe.runIf(!hasNodeSqlite)('better-sqlite3 unusable on this Node.js', () => {
  test('left out by npm after a failed build: install again (headers on the machine), not a rebuild of nothing', () => {
    const missing = betterSqlite3Missing(Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: 'MODULE_NOT_FOUND' }));
    expect(missing.message).toContain('better-sqlite3 is not installed');
    expect(missing.suggestion).toContain('npm_config_nodedir=/usr npm install');
    expect(missing.suggestion).toContain('When better-sqlite3 did not build');
    expect(missing.suggestion).not.toContain('npm rebuild');
  });

  test('built for another Node.js: a rebuild where it is installed', () => {
    const other = betterSqlite3Missing(new Error('was compiled against a different Node.js version using NODE_MODULE_VERSION 127'));
    expect(other.message).toContain('built for another Node.js version');
    expect(other.suggestion).toContain('npm rebuild better-sqlite3');
  });
});

describe("node:sqlite's experimental warning", () => {
  test('only that warning is dropped while node:sqlite loads; others pass through', () => {
    const seen: string[] = [];
    const emit = process.emitWarning;
    // Recorded instead of printed: the filter wraps whatever emitWarning is in place.
    process.emitWarning = ((warning: string, type: string | { type: string }) => {
      seen.push(`${typeof type === 'string' ? type : type.type}: ${warning}`);
    }) as typeof process.emitWarning;
    try {
      withoutSqliteWarning(() => {
        process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
        process.emitWarning('SQLite is an experimental feature and might change at any time', { type: 'ExperimentalWarning' });
        process.emitWarning('Something else is experimental', 'ExperimentalWarning');
        process.emitWarning('SQLite is an experimental feature, said a library', 'DeprecationWarning');
      });
      process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');
    } finally {
      process.emitWarning = emit;
    }
    expect(seen).toEqual([
      'ExperimentalWarning: Something else is experimental',
      'DeprecationWarning: SQLite is an experimental feature, said a library',
      // after loading, the filter is gone
      'ExperimentalWarning: SQLite is an experimental feature and might change at any time',
    ]);
  });

  test('recognises the warning as a string, with options, or as an Error', () => {
    const message = 'SQLite is an experimental feature and might change at any time';
    expect(isSqliteExperimentalWarning(message, 'ExperimentalWarning')).toBe(true);
    expect(isSqliteExperimentalWarning(message, { type: 'ExperimentalWarning' })).toBe(true);
    expect(isSqliteExperimentalWarning(Object.assign(new Error(message), { name: 'ExperimentalWarning' }), undefined)).toBe(true);
    expect(isSqliteExperimentalWarning(message, undefined)).toBe(false);
    expect(isSqliteExperimentalWarning('VM Modules is an experimental feature', 'ExperimentalWarning')).toBe(false);
  });
});

describe.each(availableDrivers())('driver %s', (driver: DriverName) => {
  let dir: string;
  let db: Database;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kct-sqlite-'));
    db = openSqlite(join(dir, 'test.db'), { driver });
    db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, n INTEGER NOT NULL DEFAULT 0,
      status TEXT NOT NULL DEFAULT 'QUEUED', CHECK (n >= 0))`);
  });
  afterEach(async () => {
    db.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('names itself', () => {
    expect(db.driver).toBe(driver);
  });

  test('run returns changes and lastInsertRowid as numbers; get and all read rows', () => {
    expect(db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').run('a', 1)).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(db.prepare('INSERT INTO t (name, n) VALUES (@name, @n)').run({ name: 'b', n: 2 })).toEqual({ changes: 1, lastInsertRowid: 2 });
    expect(db.prepare('UPDATE t SET n = n + 1').run().changes).toBe(2);
    expect({ ...(db.prepare('SELECT id, name, n FROM t WHERE name = ?').get('b') as object) }).toEqual({ id: 2, name: 'b', n: 3 });
    expect(db.prepare('SELECT id FROM t WHERE name = ?').get('nobody')).toBeUndefined();
    expect((db.prepare('SELECT name FROM t ORDER BY id').all() as { name: string }[]).map((r) => r.name)).toEqual(['a', 'b']);
    expect(db.prepare('SELECT name FROM t WHERE n > ?').all(100)).toEqual([]);
    // a bound whole number is stored as an INTEGER by the column's affinity, on both drivers
    expect(db.prepare('SELECT typeof(n) AS type FROM t WHERE id = ?').get(1)).toMatchObject({ type: 'integer' });
  });

  test('RETURNING reads the changed row; a compare-and-swap that lost changes nothing', () => {
    db.prepare('INSERT INTO t (name) VALUES (?)').run('task');
    const swap = db.prepare(`UPDATE t SET status = ? WHERE name = ? AND status = ? RETURNING id, status`);
    expect({ ...(swap.get('PROGRESS', 'task', 'QUEUED') as object) }).toEqual({ id: 1, status: 'PROGRESS' });
    expect(swap.get('PROGRESS', 'task', 'QUEUED')).toBeUndefined();
    expect(db.prepare('UPDATE t SET status = ? WHERE name = ? AND status = ?').run('SUCCESS', 'task', 'QUEUED').changes).toBe(0);
  });

  test('raw(true) reads rows as arrays in SELECT order, raw(false) as objects again', () => {
    db.prepare('INSERT INTO t (name, n) VALUES (?, ?)').run('a', 7);
    const statement = db.prepare('SELECT n, name, status FROM t WHERE name = ?');
    expect(statement.raw(true).get('a')).toEqual([7, 'a', 'QUEUED']);
    expect(statement.all('a')).toEqual([[7, 'a', 'QUEUED']]);
    expect(statement.get('none')).toBeUndefined();
    expect({ ...(statement.raw(false).get('a') as object) }).toEqual({ n: 7, name: 'a', status: 'QUEUED' });
  });

  test('errors carry SQLite’s message: constraints, syntax', () => {
    db.prepare('INSERT INTO t (name) VALUES (?)').run('a');
    expect(() => db.prepare('INSERT INTO t (name) VALUES (?)').run('a')).toThrow(/UNIQUE constraint failed: t\.name/);
    expect(() => db.prepare('UPDATE t SET n = -1').run()).toThrow(/CHECK constraint failed/);
    expect(() => db.prepare('SELEC 1')).toThrow(/syntax error/);
  });

  test('pragma: WAL on a file database, simple values and rows, integrity_check', () => {
    expect(db.pragma('journal_mode = WAL', { simple: true })).toBe('wal');
    db.pragma('user_version = 7');
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    expect((db.pragma('table_info(t)') as { name: string }[]).map((c) => c.name)).toEqual(['id', 'name', 'n', 'status']);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  test('a transaction commits what it did and returns its value; one that throws leaves nothing', () => {
    const insert = db.prepare('INSERT INTO t (name, n) VALUES (?, ?)');
    const both = db.transaction((first: string, second: string) => {
      insert.run(first, 1);
      insert.run(second, 1);
      return 'done';
    });
    expect(both('a', 'b')).toBe('done');
    const failure = new Error('stop half-way');
    const halfway = db.transaction(() => {
      insert.run('c', 1);
      expect(db.inTransaction).toBe(true);
      throw failure;
    });
    expect(() => halfway()).toThrow(failure);
    expect(() => both('d', 'a')).toThrow(/UNIQUE/);
    expect(db.inTransaction).toBe(false);
    expect((db.prepare('SELECT name FROM t ORDER BY id').all() as { name: string }[]).map((r) => r.name)).toEqual(['a', 'b']);
  });

  test('deferred, immediate and exclusive all commit; a nested transaction is a savepoint', () => {
    const insert = db.prepare('INSERT INTO t (name) VALUES (?)');
    const one = db.transaction((name: string) => insert.run(name).changes);
    expect([one.deferred('a'), one.immediate('b'), one.exclusive('c'), one('d')]).toEqual([1, 1, 1, 1]);
    const inner = db.transaction(() => {
      insert.run('inner');
      throw new Error('inner fails');
    });
    const outer = db.transaction(() => {
      insert.run('outer');
      expect(() => inner()).toThrow('inner fails');
      expect(db.inTransaction).toBe(true);
    });
    outer.immediate();
    expect((db.prepare('SELECT name FROM t ORDER BY id').all() as { name: string }[]).map((r) => r.name)).toEqual([
      'a',
      'b',
      'c',
      'd',
      'outer',
    ]);
  });

  test('immediate takes the write lock at BEGIN: a second connection cannot write meanwhile', () => {
    db.pragma('journal_mode = WAL');
    const other = openSqlite(join(dir, 'test.db'), { driver });
    try {
      other.pragma('busy_timeout = 0');
      let othersWrite: unknown;
      db.transaction(() => {
        try {
          other.prepare('INSERT INTO t (name) VALUES (?)').run('other');
        } catch (error) {
          othersWrite = error;
        }
      }).immediate();
      expect(String(othersWrite)).toMatch(/database is locked/);
      // deferred takes no lock until it writes
      db.transaction(() => {
        other.prepare('INSERT INTO t (name) VALUES (?)').run('other');
      }).deferred();
      expect(other.prepare('SELECT COUNT(*) AS n FROM t').get()).toMatchObject({ n: 1 });
    } finally {
      other.close();
    }
  });

  test('a read-only connection reads and refuses to write', () => {
    db.prepare('INSERT INTO t (name) VALUES (?)').run('a');
    const reader = openSqlite(join(dir, 'test.db'), { driver, readonly: true });
    try {
      expect(reader.prepare('SELECT name FROM t').get()).toMatchObject({ name: 'a' });
      expect(() => reader.prepare('INSERT INTO t (name) VALUES (?)').run('b')).toThrow(/readonly|read-only/i);
    } finally {
      reader.close();
    }
  });
});

// Node 22.13 to 22.15 have node:sqlite without setReturnArrays and isTransaction: the adapter
// counts transactions itself and makes array rows from objects. Checked here by hiding both.
describe.runIf(nodeSqlite() !== undefined)('node:sqlite without setReturnArrays and isTransaction (Node 22.13 to 22.15)', () => {
  const sqlite = nodeSqlite() as unknown as { DatabaseSync: new (path: string) => object; StatementSync: { prototype: object } };
  let hidden: PropertyDescriptor;
  let db: Database;

  beforeEach(() => {
    hidden = Object.getOwnPropertyDescriptor(sqlite.StatementSync.prototype, 'setReturnArrays')!;
    Object.defineProperty(sqlite.StatementSync.prototype, 'setReturnArrays', { value: undefined, configurable: true });
    // isTransaction is an own, fixed property of each database: hidden behind a proxy instead
    const real = new sqlite.DatabaseSync(':memory:') as Record<string | symbol, unknown>;
    const older = new Proxy(real, {
      get: (target, key) =>
        key === 'isTransaction' ? undefined : typeof target[key] === 'function' ? (target[key] as Function).bind(target) : target[key],
    });
    db = new NodeDatabase(older as never);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)');
  });
  afterEach(() => {
    db.close();
    Object.defineProperty(sqlite.StatementSync.prototype, 'setReturnArrays', hidden);
  });

  test('raw rows are arrays in SELECT order', () => {
    db.prepare('INSERT INTO t (id, name) VALUES (?, ?)').run(1, 'a');
    const statement = db.prepare('SELECT name, id FROM t').raw();
    expect(statement.get()).toEqual(['a', 1]);
    expect(statement.all()).toEqual([['a', 1]]);
    expect({ ...(statement.raw(false).get() as object) }).toEqual({ name: 'a', id: 1 });
  });

  test('transactions are counted: commit, rollback, a nested savepoint', () => {
    const insert = db.prepare('INSERT INTO t (name) VALUES (?)');
    const inner = db.transaction(() => {
      insert.run('inner');
      throw new Error('inner fails');
    });
    expect(db.inTransaction).toBe(false);
    db.transaction(() => {
      insert.run('outer');
      expect(db.inTransaction).toBe(true);
      expect(() => inner()).toThrow('inner fails');
    }).immediate();
    expect(db.inTransaction).toBe(false);
    expect(() => db.transaction(() => insert.run('outer'))()).toThrow(/UNIQUE/);
    expect(db.inTransaction).toBe(false);
    expect((db.prepare('SELECT name FROM t').all() as { name: string }[]).map((r) => r.name)).toEqual(['outer']);
  });
});

describe.each(availableDrivers())('the sandbox database on %s', (driver: DriverName) => {
  test('is opened in WAL mode, synchronous NORMAL, checkpointing every 250 pages (small checkpoints hold the request thread briefly)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kct-sandbox-db-'));
    const db = openDatabase(dir, { driver });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(CHECKPOINT_PAGES);
      expect(CHECKPOINT_PAGES).toBe(250);
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
