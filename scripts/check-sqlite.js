#!/usr/bin/env node
// After `npm install` in a clone (the root's prepare): says at once when the sandbox cannot open
// SQLite here (Node.js 20 without better-sqlite3, which npm leaves out when its build fails,
// silently, as an optional dependency), rather than at the first `kct sandbox` or `npm run demo`.
// Never fails the install: everything but the sandbox works without it.
import { openSqlite } from '../packages/sandbox/dist/store/sqlite/driver.js';

try {
  openSqlite(':memory:').close();
} catch (error) {
  const { message, suggestion } = /** @type {{ message: string, suggestion?: string }} */ (error);
  process.stderr.write(
    `\nkct: warning: ${message}.\n${suggestion ? `kct: ${suggestion}\n` : ''}kct: every command but the sandbox works as it is.\n\n`,
  );
}
