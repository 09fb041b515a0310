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

it('a batch says its callback failed, in one line, and nothing while it is pending or once delivered', async () => {
  const batch = (callback: object) => ({
    task_id: 'tsk_b',
    status: 'SUCCESS',
    items: [{ index: 0, status: 'SUCCESS', score: 1 }],
    callback,
  });
  const failed = ttyIO();
  await printResult(failed.io, batch({ url: 'https://hooks.example.org:8443/kct', status: 'failed', attempts: 7, last_error: 'HTTP 502' }));
  expect(failed.text().split('\n')).toContain('Callback to hooks.example.org:8443 failed after 7 attempts: HTTP 502');
  for (const status of ['pending', 'delivered', 'waiting_for_batch']) {
    const other = ttyIO();
    await printResult(other.io, batch({ url: 'https://hooks.example.org/kct', status, attempts: 1 }));
    expect(other.text(), status).not.toContain('Callback');
  }
});
