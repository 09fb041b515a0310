// Progress while watching (src/cli/core/watch.ts), in-process: a spinner on a terminal, one plain
// line per change when stderr is piped; stdout holds only the result either way.
import { describe, expect, it } from 'vitest';
import { mockApi, runKct } from './run-kct.js';

function threeSnapshots() {
  const api = mockApi();
  const reply = (status: string, extra: object = {}) =>
    api.reply('GET', '/evaluations/tsk_1/status', 200, { data: { task_id: 'tsk_1', status, ...extra } });
  reply('QUEUED', { position: 1, length: 1 });
  reply('PROGRESS', { progress: 50 });
  reply('SUCCESS');
  // a task that ended SUCCESS: its result is read once, for a batch's items
  api.reply('GET', '/evaluations/tsk_1', 200, { data: { task_id: 'tsk_1', status: 'SUCCESS', score: 3 } });
  return api;
}

describe('kct status --watch', () => {
  it('piped: one "kct:" line per change on stderr, no spinner, the final line on stdout', async () => {
    const api = threeSnapshots();
    const run = await runKct(['status', 'tsk_1', '--watch', '--poll-interval', '1ms'], { api });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('tsk_1  SUCCESS\n');
    expect(run.stderr.split('\n')).toEqual([
      'kct: tsk_1 QUEUED · position 1 of 1',
      'kct: tsk_1 PROGRESS · 50%',
      'kct: tsk_1 SUCCESS',
      'See the scores with: kct result tsk_1',
      '',
    ]);
    api.assertAllCalled();
  });

  it('on a terminal: an ora spinner redrawn in place (cursor moves, hidden cursor), no "kct:" lines', async () => {
    const api = threeSnapshots();
    const run = await runKct(['status', 'tsk_1', '--watch', '--poll-interval', '1ms'], { api, tty: true });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('tsk_1  SUCCESS');
    expect(run.stderr).toContain('\u001b[?25l'); // cli-cursor hides the cursor while spinning
    expect(run.stderr).toContain('\u001b[1G⠋ waiting for the first status'); // cursorTo(0), then a frame
    expect(run.stderr).toContain('\u001b[0K'); // the line cleared when it stops
    expect(run.stderr).not.toContain('kct: tsk_1');
    expect(run.stderr).toContain('See the scores with: kct result tsk_1');
  });

  it('--json: stdout holds the final snapshot as one JSON object', async () => {
    const api = threeSnapshots();
    const run = await runKct(['status', 'tsk_1', '--watch', '--poll-interval', '1ms', '--json'], { api });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ task_id: 'tsk_1', status: 'SUCCESS' });
  });
});
