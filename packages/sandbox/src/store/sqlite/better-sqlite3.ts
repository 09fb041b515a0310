// The store on better-sqlite3 12, for Node 20 (no node:sqlite there). An optional dependency,
// loaded only when chosen: on Node 22 and 24 nothing native is loaded (docs/sandbox.md).
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database, OpenOptions, Statement, Transaction } from './types.js';

const require = createRequire(import.meta.url);

/** better-sqlite3's constructor, or the reason it cannot be loaded in this runtime. */
export function loadBetterSqlite3(): { Driver: typeof BetterSqlite3 } | { error: Error } {
  try {
    return { Driver: require('better-sqlite3') as typeof BetterSqlite3 };
  } catch (error) {
    return { error: error as Error };
  }
}

export function openBetterSqlite3(Driver: typeof BetterSqlite3, path: string, options: OpenOptions = {}): Database {
  return new BetterDatabase(new Driver(path, { readonly: options.readonly ?? false }));
}

// Statements and transactions are better-sqlite3's own (the adapter API has their shape), so
// the hot paths call the native methods directly.
class BetterDatabase implements Database {
  readonly driver = 'better-sqlite3' as const;

  constructor(private readonly db: BetterSqlite3.Database) {}

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  prepare(sql: string): Statement {
    return this.db.prepare(sql) as unknown as Statement;
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    return this.db.pragma(source, options);
  }

  transaction<F extends (...args: never[]) => unknown>(fn: F): Transaction<F> {
    return this.db.transaction(fn as unknown as (...args: unknown[]) => unknown) as unknown as Transaction<F>;
  }

  close(): void {
    this.db.close();
  }
}
