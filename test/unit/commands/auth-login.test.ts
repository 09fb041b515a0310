// kct auth login in-process: the key read from the test IO's stdin, checked against the mocked
// API (the request must carry it), stored in a private config dir, and only ever shown masked.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE_URL, mockApi, ORIGIN, runKct, tempConfigDir } from '../cli/run-kct.js';

const NEW_KEY = 'kct_live_newkey0123456789PRIVATEtail';

function freshConfig(): { env: NodeJS.ProcessEnv; file: string } {
  const dir = tempConfigDir();
  // no key in the environment: the one on stdin is the one checked and stored
  return { env: { KCT_CONFIG_DIR: dir, KCT_API_KEY: undefined }, file: join(dir, 'config.json') };
}

describe('kct auth login', () => {
  it('--with-key reads the key from stdin, checks it with that key, stores it, and shows it masked', async () => {
    const api = mockApi();
    api.agent
      .get(ORIGIN)
      .intercept({ method: 'GET', path: '/v1/credits', headers: { 'x-api-key': NEW_KEY } })
      .reply(200, JSON.stringify({ credits: 40 }), { headers: { 'content-type': 'application/json' } });
    const { env, file } = freshConfig();
    const run = await runKct(['auth', 'login', '--with-key'], { api, env, stdin: `${NEW_KEY}\n` });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Logged in: profile "default", ${BASE_URL}, key kct_\\S+, 40 credits\\.\\n$`));
    expect(run.stdout + run.stderr).not.toContain('PRIVATEtail');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, { api_key: string; base_url: string }> };
    expect(stored.profiles.default).toEqual({ api_key: NEW_KEY, base_url: BASE_URL });
    api.assertAllCalled();
  });

  it('a key the server refuses (401) exits 4 and stores nothing', async () => {
    const api = mockApi();
    api.reply('GET', '/credits', 401, { error: { code: 'unauthorized', message: 'invalid API key', status: 401 } });
    const { env, file } = freshConfig();
    const run = await runKct(['auth', 'login', '--with-key'], { api, env, stdin: NEW_KEY });
    expect(run.code).toBe(4);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error: the service refused this key: invalid API key (HTTP 401');
    expect(run.stderr).not.toContain('PRIVATEtail');
    expect(existsSync(file)).toBe(false);
  });

  it('without --with-key it asks only where it may: never when piped, never in CI; exit 2 (usage), saying how', async () => {
    const { env, file } = freshConfig();
    const piped = await runKct(['auth', 'login'], { env });
    expect(piped.code).toBe(2);
    expect(piped.stdout).toBe('');
    expect(piped.stderr).toBe(
      'error: cannot ask for the key: standard input is not a terminal\n' +
        'hint: Without a terminal, pipe the key in with --with-key: printf %s "$KEY" | kct auth login --with-key (never pass it as an argument).\n',
    );
    const ci = await runKct(['auth', 'login'], { tty: true, env: { ...freshConfig().env, CI: 'true' } });
    expect(ci.code).toBe(2);
    expect(ci.stderr).toContain('cannot ask for the key: CI is set (CI=true)');
    expect(ci.stderr).toContain('kct auth login --with-key');
    const json = await runKct(['auth', 'login', '--json'], { env });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr)).toMatchObject({
      error: { code: 'usage', exit_code: 2, suggestion: expect.stringContaining('--with-key') },
    });
    expect(existsSync(file)).toBe(false);
  });

  it("kct sandbox's whole key line pasted: exit 4 before anything is sent, saying to paste only the key, masked", async () => {
    const { env, file } = freshConfig();
    const run = await runKct(['auth', 'login', '--with-key'], { env, stdin: 'user          kct_sbx_108e3b0fee6b118dca3a08b4fa4c71fd\n' });
    expect(run.code).toBe(4);
    expect(run.stderr).toBe(
      'error: the text given as the API key holds a key (kct_****71fd) among other words\n' +
        'hint: Paste only the key, the word that begins with kct_, not the account name or anything else on its line.\n',
    );
    expect(existsSync(file)).toBe(false);
  });

  it('an empty stdin is a usage error (exit 2) naming what to do', async () => {
    const run = await runKct(['auth', 'login', '--with-key'], { ...freshConfig(), stdin: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no API key on standard input (it was empty)');
    expect(run.stderr).toContain('hint: Pipe the key in');
  });
});
