// kct status in-process: one line per snapshot for a person, the snapshot for a script, and
// exit 3 for a task that ended FAILURE or CANCEL (README "Exit codes"), in every format.
import { describe, expect, it } from 'vitest';
import { mockApi, runKct } from '../cli/run-kct.js';

const SNAPSHOTS = [
  { status: 'QUEUED', stage: 'queued', position: 2, length: 5, line: 'QUEUED · position 2 of 5', exit: 0 },
  { status: 'UPLOADING', stage: 'uploading', line: 'UPLOADING', exit: 0 },
  { status: 'SUBMITTED', stage: 'submitted', line: 'SUBMITTED', exit: 0 },
  {
    status: 'PROGRESS',
    stage: 'grading',
    cur_step: 2,
    total_step: 4,
    cur_step_name: 'marking',
    progress: 50,
    line: 'PROGRESS (grading) · step 2/4 marking · 50%',
    exit: 0,
  },
  { status: 'SUCCESS', stage: 'success', line: 'SUCCESS', exit: 0 },
  { status: 'FAILURE', stage: 'failure', message: 'the answer file is empty', line: 'FAILURE · the answer file is empty', exit: 3 },
  { status: 'CANCEL', stage: 'cancel', line: 'CANCEL', exit: 3 },
  { status: 'PAUSED', line: 'PAUSED', exit: 0 },
];

describe('kct status', () => {
  for (const { line, exit, ...snapshot } of SNAPSHOTS) {
    it(`${snapshot.status}: "${line}", exit ${exit}`, async () => {
      const api = mockApi();
      api.reply(
        'GET',
        '/evaluations/tsk_1/status',
        200,
        { data: { task_id: 'tsk_1', ...snapshot }, request_id: 'req_test1' },
        { times: 2 },
      );
      // a task that ended SUCCESS: its result is read once, for a batch's items
      if (snapshot.status === 'SUCCESS')
        api.reply('GET', '/evaluations/tsk_1', 200, { data: { task_id: 'tsk_1', status: 'SUCCESS', score: 3 } }, { times: 2 });
      const run = await runKct(['status', 'tsk_1'], { api });
      expect(run.code).toBe(exit);
      expect(run.stdout).toBe(`tsk_1  ${line}\n`);
      if (exit === 3) expect(run.stderr).toContain(`error: task tsk_1 ended ${snapshot.status}`);
      else expect(run.stderr).toBe('');

      const json = await runKct(['status', 'tsk_1', '--json'], { api });
      expect(json.code).toBe(exit);
      expect(JSON.parse(json.stdout)).toEqual({ task_id: 'tsk_1', ...snapshot });
      if (exit === 3) expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'task_unsuccessful', exit_code: 3 } });
    });
  }

  it('a batch that ended SUCCESS with an item that failed: exit 3, as kct result says (its result is read once)', async () => {
    const api = mockApi();
    api.reply('GET', '/evaluations/tsk_b/status', 200, {
      data: { task_id: 'tsk_b', status: 'SUCCESS', message: '1 of 2 items succeeded; 1 failed.' },
    });
    api.reply('GET', '/evaluations/tsk_b', 200, {
      data: {
        task_id: 'tsk_b',
        status: 'SUCCESS',
        items: [
          { task_id: 'tsk_b1', status: 'SUCCESS', score: 3 },
          { task_id: 'tsk_b2', status: 'FAILURE' },
        ],
      },
    });
    const run = await runKct(['status', 'tsk_b'], { api });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('tsk_b  SUCCESS · 1 of 2 items succeeded; 1 failed.\n');
    expect(run.stderr).toContain('error: 1 of 2 items did not succeed');
    api.assertAllCalled();
  });

  it('a SUCCESS whose result cannot be read: the status printed is the answer, exit 0', async () => {
    const api = mockApi();
    api.reply('GET', '/evaluations/tsk_c/status', 200, { data: { task_id: 'tsk_c', status: 'SUCCESS' } });
    api.reply('GET', '/evaluations/tsk_c', 404, { error: { code: 'not_found', message: 'no result here' } });
    const run = await runKct(['status', 'tsk_c'], { api });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('tsk_c  SUCCESS\n');
    api.assertAllCalled();
  });
});
