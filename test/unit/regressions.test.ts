// Bugs found by review, each pinned by a test.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../packages/kct/src/api/errors.js';
import { isUnsuccessfulFinal, statusOf } from '../../packages/kct/src/api/status.js';
import { parseDuration } from '../../packages/kct/src/cli/core/duration.js';
import type { IO } from '../../packages/kct/src/cli/core/io.js';
import { colorAllowed } from '../../packages/kct/src/cli/core/io.js';
import { printResult } from '../../packages/kct/src/cli/render/result.js';
import { parseRetryAfter } from '../../packages/kct/src/client/retry.js';

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

describe('regressions', () => {
  it('Retry-After garbage is ignored rather than read as a date in 2001', () => {
    for (const value of ['-5', '-1', 'later 5', '1.5.2']) expect(parseRetryAfter(value)).toBeUndefined();
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', Date.parse('Sun, 06 Nov 1994 08:49:30 GMT'))).toBe(7000);
  });

  it('a duration that rounds to zero is refused', () => {
    expect(() => parseDuration('0.4ms', '--timeout')).toThrow(UsageError);
  });

  it('a stage-only failed snapshot counts as unsuccessful', () => {
    expect(isUnsuccessfulFinal(statusOf({ stage: 'failed' }))).toBe(true);
    expect(isUnsuccessfulFinal(statusOf({ stage: 'cancelled' }))).toBe(true);
    expect(statusOf({})).toBe('UNKNOWN');
  });

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

  it('colour follows stdout being a terminal, not stderr', () => {
    expect(colorAllowed({}, false, false)).toBe(false);
    expect(colorAllowed({}, false, true)).toBe(true);
    expect(colorAllowed({ NO_COLOR: '1' }, false, true)).toBe(false);
  });
});

describe('strict requests', () => {
  it('a one-pass rubric with a misspelt field is refused before sending', async () => {
    const { OnePassFields } = await import('../../packages/kct/src/api/schemas.js');
    expect(OnePassFields.safeParse({ model_id: 1, paper_content: 'x', rubrics: [{ item: 'A', maxscore: 5 }] }).success).toBe(false);
    expect(
      OnePassFields.safeParse({
        model_id: 1,
        paper_content: 'x',
        rubrics: [{ item: 'A', max_score: 5, levels: [{ score: 5, descriptor: 'all' }] }],
      }).success,
    ).toBe(true);
  });
});
