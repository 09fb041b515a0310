// The IO a rendering function takes (printResult, the exporters), over the test streams of
// test-io.ts, as kct's main() would resolve it: stdout read back as text with output().
import { type IO, processIO } from '../../src/cli/core/io.js';
import { testIO } from './cli/test-io.js';

export function makeIO(options: { stdoutIsTTY?: boolean; color?: boolean; columns?: number } = {}): { io: IO; output: () => string } {
  const { io: streams, stdout } = testIO({ columns: options.columns ?? 120 });
  const io: IO = {
    ...processIO({ env: {} }, streams),
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    color: options.color ?? false,
    columns: options.columns ?? 120,
  };
  return { io, output: () => stdout.text() };
}
