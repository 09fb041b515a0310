// Which SQLite driver the store uses: Node's built-in node:sqlite wherever it exists (Node
// 22.13 and later), better-sqlite3 12 only where it does not (Node 20). better-sqlite3 12
// aborts the process on Node 24.19+ when a statement is garbage-collected; 13 fixes that but
// crashes on Node 20; node:sqlite needs no native module at all (docs/design/sandbox-notes.md, "SQLite driver").
import { loadBetterSqlite3, openBetterSqlite3 } from './better-sqlite3.js';
import { nodeSqlite, openNodeSqlite } from './node-sqlite.js';
import type { Database, DriverName, OpenOptions } from './types.js';

export type { Database, DriverName, OpenOptions, Statement, Transaction } from './types.js';

const DRIVERS: readonly DriverName[] = ['node:sqlite', 'better-sqlite3'];

/** Set to one of DRIVERS to force a driver (tests and benchmarks compare them on one runtime). */
export const DRIVER_ENV = 'KCT_SQLITE_DRIVER';

/** No SQLite driver can be used as asked or installed: `suggestion` says what to change. */
class SqliteUnavailableError extends Error {
  readonly code = 'ERR_KCT_SQLITE_UNAVAILABLE';
  constructor(
    message: string,
    readonly suggestion: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The driver this runtime uses: KCT_SQLITE_DRIVER if set, else node:sqlite where it exists. */
export function chooseDriver(env: NodeJS.ProcessEnv = process.env): DriverName {
  const forced = env[DRIVER_ENV]?.trim();
  if (forced) {
    if (!(DRIVERS as readonly string[]).includes(forced)) {
      throw new SqliteUnavailableError(
        `${DRIVER_ENV}="${forced}" is not a SQLite driver kct knows`,
        `Use ${DRIVERS.join(' or ')}, or unset ${DRIVER_ENV} to let kct choose.`,
      );
    }
    return forced as DriverName;
  }
  return nodeSqlite() ? 'node:sqlite' : 'better-sqlite3';
}

/** The drivers that can open a database in this runtime (tests run their checks on each). */
export function availableDrivers(): DriverName[] {
  return DRIVERS.filter((driver) => {
    try {
      openSqlite(':memory:', { driver }).close();
      return true;
    } catch {
      return false;
    }
  });
}

export function openSqlite(path: string, options: OpenOptions & { driver?: DriverName } = {}): Database {
  const driver = options.driver ?? chooseDriver();
  if (driver === 'node:sqlite') {
    if (!nodeSqlite()) {
      throw new SqliteUnavailableError(
        `node:sqlite is not available in Node.js ${process.version}: it comes with Node.js 22.13 and later`,
        `Unset ${DRIVER_ENV} to use better-sqlite3, or use Node.js 22.13 or later.`,
      );
    }
    return openNodeSqlite(path, options);
  }
  const loaded = loadBetterSqlite3();
  if ('error' in loaded) throw betterSqlite3Missing(loaded.error);
  try {
    return openBetterSqlite3(loaded.Driver, path, options);
  } catch (error) {
    // The native addon loads with the first database, not with the package.
    if (isAddonLoadError(error)) throw betterSqlite3Missing(error as Error);
    throw error;
  }
}

function isAddonLoadError(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION|Could not locate the bindings file/.test(String(message));
}

/** Why better-sqlite3 cannot be used, and what to do: exported for its test. */
export function betterSqlite3Missing(cause: Error): SqliteUnavailableError {
  const code = (cause as NodeJS.ErrnoException).code;
  // a single-file executable (scripts/build-exe.js) holds no native module
  if (code === 'KCT_NOT_IN_EXE') {
    return new SqliteUnavailableError(
      `kct sandbox in this single-file executable needs Node.js 22.13 or later inside it: it was built from Node.js ${process.version}, which has no node:sqlite, and better-sqlite3 (a native module) cannot be embedded`,
      'Build the executable from Node.js 24 (KCT_SEA_NODE=<node 24 binary> npm run build:exe), or install kct and its sandbox with npm (both tarballs of `npm run pack` in one npm install -g: docs/guides/install.md). Every other command works in this executable.',
      { cause },
    );
  }
  const missing = code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND';
  const why = missing
    ? 'better-sqlite3 is not installed (an optional dependency: its build may have failed)'
    : /NODE_MODULE_VERSION/.test(cause.message)
      ? 'better-sqlite3 was built for another Node.js version'
      : `better-sqlite3 could not be loaded (${cause.message.split('\n')[0]})`;
  // after a failed build npm leaves the optional package out, so a rebuild has nothing to rebuild
  const remedy = nodeSqlite()
    ? `Unset ${DRIVER_ENV} to use node:sqlite.`
    : missing
      ? 'Use Node.js 22.13 or later (its built-in node:sqlite needs nothing installed), or install again so that better-sqlite3 builds: its build downloads a prebuilt binary or Node\'s headers, and without a network that reaches them, npm_config_nodedir=/usr npm install (headers from Debian\'s nodejs package) works: docs/guides/install.md, "When better-sqlite3 did not build".'
      : 'Use Node.js 22.13 or later (its built-in node:sqlite needs nothing installed), or build better-sqlite3 for this Node.js: `npm rebuild better-sqlite3` where it is installed, or install the tarballs again with --allow-scripts=better-sqlite3,tesseract.js (docs/guides/install.md).';
  return new SqliteUnavailableError(`the sandbox needs SQLite, and on Node.js ${process.version} ${why}`, remedy, { cause });
}
