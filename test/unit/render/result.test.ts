// printResult on a terminal: a stage-only failure shows its reason, and control characters in
// ids and statuses never reach the screen.
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import type { IO } from '../../../src/cli/core/io.js';
import { printResult } from '../../../src/cli/render/result.js';

function ttyIO(): { io: IO; text: () => string } {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const io: IO = {
    stdin: new PassThrough(),
    stdout,
    stderr: new PassThrough(),
    stdinIsTTY: false,
    stdoutIsTTY: true,
    stderrIsTTY: false,
    color: false,
    columns: 100,
    noPrompt: true,
  };
  return { io, text: () => text };
}

it('printResult shows the reason of a stage-only failure and strips controls from ids and statuses', async () => {
  const { io, text } = ttyIO();
  await printResult(io, { task_id: 't\u001b]0;owned\u0007', stage: 'failed', evaluation: [{ type: 'error', comment: 'boom' }] });
  expect(text()).toContain('Reason: boom');
  expect(text()).not.toContain('Total');
  expect(text()).not.toContain('\u001b');
  const second = ttyIO();
  await printResult(second.io, { task_id: 't', status: 'SUCCESS\u001b[2J', score: 1, evaluation: [] });
  expect(second.text()).not.toContain('\u001b');
});
