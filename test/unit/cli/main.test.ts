// main() in-process: every HTTP error answer becomes the README's exit code, with the error on
// stderr, nothing on stdout and never the key; flag errors are exit 2; main itself never exits.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { BASE_URL, KEY, mockApi, ORIGIN, runKct } from './run-kct.js';
import { testIO } from './test-io.js';

const errorBody = (status: number, code: string, message: string) => ({ error: { code, message, status }, request_id: 'req_test1' });

// The README's "Exit codes" table, one row per HTTP answer.
const CASES = [
  { status: 400, code: 'invalid_request', exit: 2 },
  { status: 401, code: 'unauthorized', exit: 4 },
  { status: 402, code: 'insufficient_credits', exit: 5 },
  { status: 403, code: 'forbidden', exit: 4 },
  { status: 404, code: 'not_found', exit: 6 },
  { status: 409, code: 'conflict', exit: 7 },
  { status: 429, code: 'rate_limited', exit: 9 },
  { status: 500, code: 'internal', exit: 9 },
  { status: 503, code: 'unavailable', exit: 9 },
] as const;

describe('an HTTP error answer', () => {
  for (const { status, code, exit } of CASES) {
    it(`${status} exits ${exit}, says so on stderr and prints nothing on stdout`, async () => {
      const api = mockApi();
      // 429 and 503 are retried (KCT_RETRY_BASE_DELAY=1ms in the test env): every attempt gets the same answer
      api.reply('GET', '/evaluations/tsk_1/status', status, errorBody(status, code, `the server says ${code}`), { times: 4 });
      const run = await runKct(['status', 'tsk_1'], { api });
      expect(run.code).toBe(exit);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`error: the server says ${code}`);
      expect(run.stderr).toContain(`(HTTP ${status}, request req_test1)`);
      expect(run.stderr).not.toContain(KEY);
    });
  }

  it('with --json is one JSON object on stderr carrying the exit code', async () => {
    const api = mockApi();
    api.reply('GET', '/credits', 402, errorBody(402, 'insufficient_credits', 'not enough credits'));
    const run = await runKct(['credits', '--json'], { api });
    expect(run.code).toBe(5);
    expect(run.stdout).toBe('');
    const { error } = JSON.parse(run.stderr) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ message: 'not enough credits', exit_code: 5, status: 402, request_id: 'req_test1' });
  });

  it('429 and 503 are retried with a notice, then exit 9', async () => {
    const api = mockApi();
    api.reply('GET', '/credits', 503, errorBody(503, 'unavailable', 'busy'), { times: 4 });
    const run = await runKct(['credits'], { api });
    expect(run.code).toBe(9);
    expect(run.stderr).toMatch(/retrying in .* \(attempt 1\)/);
    api.assertAllCalled();
  });
});

describe('a key is never echoed', () => {
  it('not from a server message that quotes it', async () => {
    const api = mockApi();
    api.reply('GET', '/credits', 401, errorBody(401, 'unauthorized', `the key ${KEY} is revoked`));
    for (const args of [['credits'], ['credits', '--json'], ['credits', '--debug']]) {
      api.reply('GET', '/credits', 401, errorBody(401, 'unauthorized', `the key ${KEY} is revoked`));
      const run = await runKct(args, { api });
      expect(run.code).toBe(4);
      expect(run.stderr).toContain('[redacted]');
      expect(run.stdout + run.stderr).not.toContain(KEY);
      expect(run.stdout + run.stderr).not.toContain('SECRETvalue');
    }
  });

  it('not from an unknown option that carries it (exit 2)', async () => {
    const plain = await runKct(['credits', `--api-key=${KEY}`]);
    const json = await runKct(['credits', '--json', `--api-key=${KEY}`]);
    for (const run of [plain, json]) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('--api-key');
      expect(run.stderr).not.toContain('SECRETvalue');
    }
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'usage', exit_code: 2 } });
  });

  it('not from a malformed key the client refuses to send (exit 4, no request made)', async () => {
    const api = mockApi();
    const run = await runKct(['credits'], { api, env: { KCT_API_KEY: 'kct_has space SECRETvalue' } });
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('white space');
    expect(run.stderr).not.toContain('SECRETvalue');
  });
});

describe('main', () => {
  afterEach(() => vi.restoreAllMocks());

  it('returns the exit code and never exits the process itself', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const run = await runKct(['status', '--no-such-flag']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--no-such-flag'");
    expect(exit).not.toHaveBeenCalled();
  });

  it('on a second Ctrl-C calls the exit it was given with 130, after aborting on the first', async () => {
    const api = mockApi();
    // the status answer never comes: only the signals end the command
    api.agent.get(ORIGIN).intercept({ method: 'GET', path: '/v1/evaluations/tsk_1/status' }).reply(200, '{}').delay(60_000);
    const exits: number[] = [];
    const listeners = process.listenerCount('SIGINT');
    const { io, stderr } = testIO();
    const env = { KCT_BASE_URL: BASE_URL, KCT_API_KEY: KEY, KCT_CONFIG_DIR: '/nonexistent-kct-config' };
    const running = main(['status', 'tsk_1'], { io, env, dispatcher: api.agent, exit: (code) => exits.push(code) });
    // the default second is too short for the first in-process import of the command on a loaded runner
    await vi.waitFor(() => expect(api.agent.pendingInterceptors()).toHaveLength(0), { timeout: 15_000 });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      process.emit('SIGINT', 'SIGINT');
      // a second delivery at once is the same Ctrl-C (`timeout -s INT` signals kct and its group)
      process.emit('SIGINT', 'SIGINT');
      expect(exits).toEqual([]);
      vi.setSystemTime(Date.now() + 600);
      process.emit('SIGINT', 'SIGINT');
    } finally {
      vi.useRealTimers();
    }
    expect(exits).toEqual([130]);
    expect(await running).toBe(130);
    expect(stderr.text()).toContain('kct: interrupted again, exiting now');
    expect(process.listenerCount('SIGINT')).toBe(listeners); // main removed its handlers
    await api.agent.close();
  });
});
