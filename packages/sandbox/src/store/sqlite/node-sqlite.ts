// The store on Node's built-in SQLite (`node:sqlite`, unflagged from Node 22.13): no native
// module to build or load. It has no transaction or pragma helpers; they are written here.
import type { Database, OpenOptions, RunResult, Statement, Transaction } from './types.js';

/** The parts of node:sqlite used here (@types/node 20 does not describe the module). */
interface StatementSync {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** Node 22.16 / 24.0 and later. */
  setReturnArrays?(on: boolean): void;
}

interface DatabaseSync {
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
  /** Node 22.16 / 24.0 and later. */
  readonly isTransaction?: boolean;
}

interface NodeSqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => DatabaseSync;
}

let loaded: NodeSqliteModule | null | undefined;

/** node:sqlite, or undefined on a Node.js without it (20.x; 22.x before 22.13 without a flag). */
export function nodeSqlite(): NodeSqliteModule | undefined {
  if (loaded === undefined) {
    const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
    loaded = (withoutSqliteWarning(() => getBuiltin?.call(process, 'node:sqlite')) as NodeSqliteModule | undefined) ?? null;
  }
  return loaded ?? undefined;
}

/**
 * Runs `load` with node:sqlite's one "SQLite is an experimental feature" ExperimentalWarning
 * dropped, so `kct sandbox` prints only its own lines; every other warning passes through.
 */
export function withoutSqliteWarning<T>(load: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function emitWarning(this: unknown, warning: string | Error, ...rest: unknown[]) {
    if (isSqliteExperimentalWarning(warning, rest[0])) return;
    return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return load();
  } finally {
    process.emitWarning = emit;
  }
}

export function isSqliteExperimentalWarning(warning: string | Error, typeOrOptions: unknown): boolean {
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : ((typeOrOptions as { type?: unknown } | undefined)?.type ?? (warning instanceof Error ? warning.name : undefined));
  const message = typeof warning === 'string' ? warning : warning.message;
  return type === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(message);
}

export function openNodeSqlite(path: string, options: OpenOptions = {}): Database {
  const sqlite = nodeSqlite();
  if (!sqlite) throw new Error(`node:sqlite is not available in Node.js ${process.version} (it needs 22.13 or later)`);
  return new NodeDatabase(new sqlite.DatabaseSync(path, { readOnly: options.readonly ?? false }));
}

class NodeStatement implements Statement {
  /** Arrays made from row objects, where the runtime cannot return arrays itself (before 22.16). */
  private valuesOnly = false;

  constructor(private readonly statement: StatementSync) {}

  run(...params: unknown[]): RunResult {
    return this.statement.run(...params);
  }

  get(...params: unknown[]): unknown {
    const row = this.statement.get(...params);
    return this.valuesOnly && row !== undefined ? Object.values(row as object) : row;
  }

  all(...params: unknown[]): unknown[] {
    const rows = this.statement.all(...params);
    return this.valuesOnly ? rows.map((row) => Object.values(row as object)) : rows;
  }

  raw(on = true): this {
    if (this.statement.setReturnArrays) this.statement.setReturnArrays(on);
    else this.valuesOnly = on;
    return this;
  }
}

type Mode = 'DEFERRED' | 'IMMEDIATE' | 'EXCLUSIVE';

export class NodeDatabase implements Database {
  readonly driver = 'node:sqlite' as const;
  /** Open transactions, for runtimes without `isTransaction` (before 22.16). */
  private depth = 0;
  /** BEGIN/COMMIT/ROLLBACK/SAVEPOINT statements, prepared once: the queue runs two transactions per task. */
  private readonly control = new Map<string, StatementSync>();

  /** `db`: an open node:sqlite DatabaseSync (typed loosely: @types/node 20 has no node:sqlite). */
  constructor(private readonly db: DatabaseSync) {}

  get inTransaction(): boolean {
    return this.db.isTransaction ?? this.depth > 0;
  }

  prepare(sql: string): Statement {
    return new NodeStatement(this.db.prepare(sql));
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const rows = this.db.prepare(`PRAGMA ${source}`).all() as Record<string, unknown>[];
    return options.simple ? (rows[0] === undefined ? undefined : Object.values(rows[0])[0]) : rows;
  }

  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F> {
    const inMode =
      (mode: Mode) =>
      (...args: Parameters<F>): ReturnType<F> =>
        this.runInTransaction(mode, fn, args);
    return Object.assign(inMode('DEFERRED'), {
      deferred: inMode('DEFERRED'),
      immediate: inMode('IMMEDIATE'),
      exclusive: inMode('EXCLUSIVE'),
    });
  }

  close(): void {
    this.control.clear();
    this.db.close();
  }

  // The same steps as better-sqlite3's own transaction functions: a failed COMMIT rolls back too.
  private runInTransaction<F extends (...args: never[]) => unknown>(mode: Mode, fn: F, args: Parameters<F>): ReturnType<F> {
    const nested = this.inTransaction;
    this.sql(nested ? 'SAVEPOINT kct_nested' : `BEGIN ${mode}`).run();
    this.depth++;
    try {
      const result = fn(...args) as ReturnType<F>;
      this.sql(nested ? 'RELEASE kct_nested' : 'COMMIT').run();
      return result;
    } catch (error) {
      if (this.inTransaction) {
        try {
          this.sql(nested ? 'ROLLBACK TO kct_nested' : 'ROLLBACK').run();
          if (nested) this.sql('RELEASE kct_nested').run();
        } catch (rollbackError) {
          // Counted, not asked (before 22.16): SQLite may already have rolled back by itself.
          if (this.db.isTransaction !== undefined) throw rollbackError;
        }
      }
      throw error;
    } finally {
      this.depth--;
    }
  }

  private sql(text: string): StatementSync {
    let statement = this.control.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.control.set(text, statement);
    }
    return statement;
  }
}
