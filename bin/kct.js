#!/usr/bin/env node
// Kept tiny: `--version` and `--help` are answered without loading the CLI (see
// scripts/build-help.js); everything else goes to the CLI entry.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const last = args[args.length - 1];
if (args.length === 1 && (last === '--version' || last === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if ((last === '--help' || last === '-h') && args.slice(0, -1).every((arg) => /^[a-z][a-z-]*$/.test(arg)) && cachedHelp(args.slice(0, -1))) {
  // printed by cachedHelp
} else {
  // undici parses HTTP with WebAssembly; V8's optimising tier for it costs ~30 MB of peak memory
  // and buys nothing a command-line client can measure (docs/benchmarks.md).
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
  const { main } = await import('../dist/cli/main.js');
  process.exitCode = await main(args);
}

/** Prints the pre-rendered help of a command path; false when there is none or it would not fit. */
function cachedHelp(path) {
  if (process.env.KCT_NO_HELP_CACHE || (process.stdout.isTTY && process.stdout.columns < 80)) return false;
  let cache;
  try {
    cache = JSON.parse(readFileSync(new URL('../dist/help-cache.json', import.meta.url), 'utf8'));
  } catch {
    return false;
  }
  const text = cache.help[path.join(' ')];
  if (text === undefined) return false;
  process.stdout.write(text);
  return true;
}
