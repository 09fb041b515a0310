// The single executable's entry (bundled by scripts/build-exe.js into one CommonJS script):
// bin/kct.js without the files beside it. The version is compiled in; help is rendered live.
import { setFlagsFromString } from 'node:v8';
import { main } from '../../dist/cli/main.js';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${KCT_VERSION}\n`);
} else {
  // the same V8 settings as bin/kct.js (docs/benchmarks.md)
  setFlagsFromString('--liftoff-only');
  setFlagsFromString('--semi-space-growth-factor=1');
  main(args).then((code) => {
    process.exitCode = code;
  });
}
