// The V8 flags kct sets for itself, by command: --optimize-for-size for client commands (a run of
// 100,000 answers peaks at 138 MB with it, 278 MB without: docs/benchmarks.md), none for
// `kct sandbox`, a server whose OCR needs V8's optimising compiler. Global flags may come first.
'use strict';

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

module.exports = { v8FlagsFor, commandOf };
