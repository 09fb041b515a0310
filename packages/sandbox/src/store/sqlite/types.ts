// The SQLite API the sandbox's store is written against: the subset both drivers share, in
// better-sqlite3's shape (driver.ts picks the driver; docs/design/sandbox-notes.md, "SQLite driver", says which and why).

export type DriverName = 'node:sqlite' | 'better-sqlite3';

export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared statement. Numbers bind as REAL on both drivers; column affinity stores integers. */
export interface Statement {
  run(...params: unknown[]): RunResult;
  /** The first row, or undefined. */
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** From now on, rows are arrays of column values in SELECT order (no keys to build: hot reads). */
  raw(on?: boolean): this;
}

/** A function run inside BEGIN … COMMIT (rolled back if it throws); nested calls use a savepoint. */
export interface Transaction<F extends (...args: never[]) => unknown> {
  (...args: Parameters<F>): ReturnType<F>;
  deferred(...args: Parameters<F>): ReturnType<F>;
  /** BEGIN IMMEDIATE: takes the write lock first, so a read-then-write cannot fail half-way with SQLITE_BUSY. */
  immediate(...args: Parameters<F>): ReturnType<F>;
  exclusive(...args: Parameters<F>): ReturnType<F>;
}

export interface Database {
  readonly driver: DriverName;
  readonly inTransaction: boolean;
  prepare(sql: string): Statement;
  /** One or more statements, no parameters, no result. */
  exec(sql: string): void;
  /** `PRAGMA <source>`: its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F>;
  close(): void;
}

export interface OpenOptions {
  readonly?: boolean;
}
