// The single executable's first script (scripts/build-exe.js): small, so `kct --version` reads
// one asset and nothing else. The CLI, the sandbox and the sandbox's pool thread are bundles
// kept as assets of the executable, each a function expression compiled when needed, with the
// V8 code cache made at build time (scripts/exe/code-cache.cjs).
'use strict';
const sea = require('node:sea');

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${sea.getAsset('version', 'utf8')}\n`);
} else {
  // the CLI bundle loads the sandbox bundle through this when `kct sandbox` runs, and the
  // sandbox's pool starts each worker thread with this function's source (threads/embedded.ts)
  globalThis[Symbol.for('kct.loadBundle')] = loadBundle;
  loadBundle('cli')
    .main(args, { exit: (code) => process.exit(code), sandbox: async () => loadBundle('sandbox') })
    .then(
      (code) => {
        process.exitCode = code;
      },
      (error) => {
        process.stderr.write(`kct: could not start: ${error?.message}\n`);
        process.exitCode = 1;
      },
    );
}

/**
 * Compiles and runs a bundle kept as an asset (CommonJS in a function expression), returning its
 * exports. Self-contained (it uses only `require`): a worker thread runs it from its source.
 */
function loadBundle(name) {
  const sea = require('node:sea');
  const vm = require('node:vm');
  const { dirname } = require('node:path');
  let cachedData;
  try {
    cachedData = Buffer.from(sea.getRawAsset(`${name}.cache`));
  } catch {
    // no code cache for this bundle: V8 compiles it from source
  }
  const script = new vm.Script(sea.getAsset(`${name}.cjs`, 'utf8'), { filename: `kct-${name}.cjs`, cachedData });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, require, module, process.execPath, dirname(process.execPath));
  return module.exports;
}
