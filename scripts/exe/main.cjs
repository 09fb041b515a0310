// The single executable's first script (scripts/build-exe.js): small, so `kct --version` reads
// one asset and nothing else. The CLI, the sandbox and the sandbox's pool thread are bundles
// kept as assets of the executable, each a function expression compiled when needed, with the
// V8 code cache made at build time (scripts/exe/code-cache.cjs).
'use strict';
const sea = require('node:sea');

// bin/flags.cjs, kept in step by test/unit/v8-flags.test.ts
/** Global flags that take a value: skipped with it when looking for the command. */
const GLOBAL_WITH_VALUE = new Set(['-p', '--profile', '--base-url']);

/** The command word of an argument list: the first argument that is not a flag or a flag's value. */
function commandOf(args) {
  for (let at = 0; at < args.length; at++) {
    if (GLOBAL_WITH_VALUE.has(args[at])) at += 1;
    else if (!args[at].startsWith('-')) return args[at];
  }
  return undefined;
}

function v8FlagsFor(args) {
  return commandOf(args) === 'sandbox' ? [] : ['--optimize-for-size'];
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${sea.getAsset('version', 'utf8')}\n`);
} else {
  // the client's one V8 flag, as bin/kct.js sets it (the rule above is bin/flags.cjs's)
  for (const flag of v8FlagsFor(args)) require('node:v8').setFlagsFromString(flag);
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
