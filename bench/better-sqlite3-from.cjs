// Benchmark preload (node --require, e.g. through NODE_OPTIONS): require('better-sqlite3') loads
// the copy installed in BENCH_BETTER_SQLITE3_DIR, a build for the running Node.js made outside the
// project, so that both SQLite drivers can be compared on one runtime (docs/benchmarks.md).
'use strict';
const Module = require('node:module');
const { join } = require('node:path');

const dir = process.env.BENCH_BETTER_SQLITE3_DIR;
if (dir) {
  const resolve = Module._resolveFilename;
  Module._resolveFilename = function resolveFilename(request, ...rest) {
    return resolve.call(this, request === 'better-sqlite3' ? join(dir, 'node_modules', 'better-sqlite3') : request, ...rest);
  };
}
