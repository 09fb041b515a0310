// The IO of a command run with no terminal and nothing read or kept: for tests of what is
// collected or decided, not of what is printed.
import { PassThrough } from 'node:stream';
import type { IO } from '../../src/cli/core/io.js';

export function quietIO(): IO {
  return {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    color: false,
    columns: 100,
    noPrompt: true,
  };
}
