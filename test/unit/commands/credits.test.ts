// kct credits in-process (test/unit/cli/run-kct.ts): the number for a person, the record for a script.
import { describe, expect, it } from 'vitest';
import { mockApi, runKct } from '../cli/run-kct.js';

describe('kct credits', () => {
  it('prints the balance as a line, with what unfinished tasks reserve', async () => {
    const api = mockApi();
    api.reply('GET', '/credits', 200, { data: { credits: 1200, reserved: 30, billing_mode: 'account' }, request_id: 'req_test1' });
    const run = await runKct(['credits'], { api });
    expect(run).toEqual({ code: 0, stdout: '1200 credits (30 reserved by unfinished tasks)\n', stderr: '' });
    api.assertAllCalled();
  });

  it('--json prints the record as received, keeping fields kct does not know', async () => {
    const api = mockApi();
    const record = { credits: 1200, reserved: 0, billing_mode: 'account', plan: 'school' };
    api.reply('GET', '/credits', 200, { data: record, request_id: 'req_test1' });
    const run = await runKct(['credits', '--json'], { api });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(record);
    expect(run.stderr).toBe('');
  });

  it('a balance with no count: printed with a warning as JSON, an unknown answer (exit 1) as a line', async () => {
    const api = mockApi();
    api.reply('GET', '/credits', 200, { tokens: 'many' }, { times: 3 });
    const json = await runKct(['credits', '--json'], { api });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ tokens: 'many' });
    // under --json the warning is a JSON line too
    expect(JSON.parse(json.stderr).notice).toMatchObject({
      code: 'warning',
      message: expect.stringContaining('the balance from https://api.kct.test/v1 has no credit count kct recognises'),
    });
    const ndjson = await runKct(['credits', '--output', 'ndjson'], { api });
    expect(ndjson.stderr).toContain('warning: the balance from https://api.kct.test/v1 has no credit count kct recognises');
    const table = await runKct(['credits'], { api });
    expect(table.code).toBe(1);
    expect(table.stdout).toBe('');
    expect(table.stderr).toMatch(/^error: /);
  });

  it('KCT_OUTPUT=ndjson is followed like --output', async () => {
    const api = mockApi();
    api.reply('GET', '/credits', 200, { credits: 7 });
    const run = await runKct(['credits'], { api, env: { KCT_OUTPUT: 'ndjson' } });
    expect(run.stdout).toBe('{"credits":7}\n');
  });
});
