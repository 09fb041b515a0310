// kct result in-process: the score table for a person (coloured only on a terminal that allows
// it), and csv, ndjson and json for a script; a batch is one row per item.
import { describe, expect, it } from 'vitest';
import { mockApi, runKct } from '../cli/run-kct.js';

const ESC = '\u001b[';
const RESULT = {
  task_id: 'tsk_1',
  status: 'SUCCESS',
  student_id: 's-17',
  score: 7,
  max_score: 10,
  evaluation: [
    { item: 'Argument', score: 4, max_score: 6, feedback: 'Clear thesis.' },
    { item: 'Evidence, cited', score: 3, max_score: 4, feedback: 'Cite, then explain.' },
  ],
};

function withResult(body: unknown = RESULT) {
  const api = mockApi();
  api.reply('GET', '/evaluations/tsk_1', 200, { data: body, request_id: 'req_test1' });
  return api;
}

describe('kct result', () => {
  it('prints the total and a table of criteria, plain when piped', async () => {
    const run = await runKct(['result', 'tsk_1'], { api: withResult() });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout.split('\n').slice(0, 2)).toEqual(['Task tsk_1  SUCCESS  student s-17', 'Total: 7 / 10']);
    expect(run.stdout).toMatch(/Argument\s*│\s*4 \/ 6\s*│\s*Clear thesis\./);
    expect(run.stdout).toMatch(/Evidence, cited\s*│\s*3 \/ 4/);
  });

  it('--output csv: a header and one row, a score column per criterion, quoted where CSV needs it, no file for a task read by id', async () => {
    const run = await runKct(['result', 'tsk_1', '--output', 'csv'], { api: withResult() });
    expect(run).toEqual({
      code: 0,
      stdout:
        'file,student_id,task_id,status,score,Argument,"Evidence, cited",max_score,message,duplicate_of\n,s-17,tsk_1,SUCCESS,7,4,3,10,,\n',
      stderr: '',
    });
  });

  it('--output ndjson: one JSON object per line; --output json and --json: the record', async () => {
    const ndjson = await runKct(['result', 'tsk_1', '--output', 'ndjson'], { api: withResult() });
    const lines = ndjson.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ task_id: 'tsk_1', status: 'SUCCESS', score: 7, max_score: 10 });
    for (const args of [['--output', 'json'], ['--json']]) {
      const json = await runKct(['result', 'tsk_1', ...args], { api: withResult() });
      expect(JSON.parse(json.stdout)).toEqual(RESULT);
    }
  });

  it('a batch in csv is one row per item; one item that failed makes it exit 3 after printing', async () => {
    const batch = {
      task_id: 'tsk_b',
      status: 'SUCCESS',
      items: [
        { task_id: 'tsk_b1', student_id: 'a', status: 'SUCCESS', score: 5, max_score: 10 },
        { task_id: 'tsk_b2', student_id: 'b', status: 'FAILURE', message: 'unreadable' },
      ],
    };
    const api = mockApi();
    api.reply('GET', '/evaluations/tsk_b', 200, { data: batch });
    const run = await runKct(['result', 'tsk_b', '--output', 'csv'], { api });
    expect(run.code).toBe(3);
    const rows = run.stdout.trim().split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toContain('tsk_b1');
    expect(rows[2]).toContain('tsk_b2');
    expect(run.stderr).toContain('error: 1 of 2 items did not succeed');
  });

  it('a terminal gets colour; NO_COLOR, --no-color and a pipe get none', async () => {
    const tty = await runKct(['result', 'tsk_1'], { api: withResult(), tty: true });
    expect(tty.stdout).toContain(`${ESC}32mSUCCESS`); // green
    expect(tty.stdout).toContain(`${ESC}1mTotal: 7 / 10`); // bold
    const noColorEnv = await runKct(['result', 'tsk_1'], { api: withResult(), tty: true, env: { NO_COLOR: '1' } });
    const noColorFlag = await runKct(['result', 'tsk_1', '--no-color'], { api: withResult(), tty: true });
    const piped = await runKct(['result', 'tsk_1'], { api: withResult() });
    for (const run of [noColorEnv, noColorFlag, piped]) {
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain(ESC);
      expect(run.stdout).toContain('Total: 7 / 10');
    }
    const forced = await runKct(['result', 'tsk_1'], { api: withResult(), env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(`${ESC}32mSUCCESS`);
  });

  it('control characters from the server are stripped on a terminal, kept in a pipe', async () => {
    const body = { ...RESULT, evaluation: [{ item: 'Argument', score: 4, max_score: 6, feedback: `ok${'\u001b'}]0;pwned${'\u0007'}` }] };
    const tty = await runKct(['result', 'tsk_1', '--no-color'], { api: withResult(body), tty: true });
    expect(tty.stdout).not.toContain('\u001b]0;');
    const json = await runKct(['result', 'tsk_1', '--json'], { api: withResult(body) });
    expect(JSON.parse(json.stdout).evaluation[0].feedback).toBe(body.evaluation[0].feedback);
  });
});
