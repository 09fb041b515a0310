#!/usr/bin/env node
// A CommonJS file (bin/package.json says so) kept tiny: `--version` and `--help` are answered
// without Node's ESM loader or the CLI (see scripts/build-help.js and docs/benchmarks.md);
// everything else imports the CLI, an ES module bundle (scripts/build-bundle.js).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const args = process.argv.slice(2);
const last = args[args.length - 1];
if (args.length === 1 && (last === '--version' || last === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version}\n`);
} else if (
  (last === '--help' || last === '-h') &&
  args.slice(0, -1).every((arg) => /^[a-z][a-z-]*$/.test(arg)) &&
  cachedHelp(args.slice(0, -1))
) {
  // printed by cachedHelp
} else {
  import('../dist/bundle/main.js').then(
    // main returns the exit code; it ends the process itself only through `exit` (src/cli/main.ts)
    async ({ main }) => {
      process.exitCode = await main(args, { exit: (code) => process.exit(code), signalsToTheEnd: true });
    },
    (error) => {
      process.stderr.write(`kct: could not start: ${String(error?.message).replace(/kct_[A-Za-z0-9_-]+/g, '[redacted]')}\n`);
      process.exitCode = 1;
    },
  );
}

/** Prints the pre-rendered help of a command path; false when there is none or it would not fit. */
function cachedHelp(path) {
  if (process.env.KCT_NO_HELP_CACHE || (process.stdout.isTTY && process.stdout.columns < 80)) return false;
  let cache;
  try {
    cache = JSON.parse(readFileSync(join(root, 'dist', 'help-cache.json'), 'utf8'));
  } catch {
    return false;
  }
  const text = cache.help[path.join(' ')];
  if (text === undefined) return false;
  process.stdout.write(text);
  return true;
}
