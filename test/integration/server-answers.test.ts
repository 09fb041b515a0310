// Answers that do not come from the API (a plain web server, a wrong base URL) and settings
// from the environment that are wrong: each gets a clear error, the right exit code, and a hint.

import { existsSync, readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeApi, kctEnv, parseJson, runKct, sendJson, tempDir, useSandbox } from './harness.js';

const KEY = 'kct_test_key_123456';
const PAGE = `<!doctype html>\n<html><head><title>Welcome to nginx!</title></head>\n<body>\n<h1>Welcome</h1>\n${'<p>filler</p>\n'.repeat(50)}</body></html>\n`;

function sendHtml(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'text/html' });
  res.end(PAGE);
}

/** Gives `use` the base URL of a throwaway server, and closes it after. */
async function against(handler: Parameters<typeof fakeApi>[0], use: (baseUrl: string) => Promise<void>): Promise<void> {
  const api = await fakeApi(handler);
  try {
    await use(api.baseUrl);
  } finally {
    await api.close();
  }
}

const shared = useSandbox();

describe('a server that is not the API', () => {
  it('auth login refuses a web server that answers 200 with an HTML page, and stores nothing', async () => {
    await against(
      (_req, res) => sendHtml(res, 200),
      async (baseUrl) => {
        const dir = tempDir();
        const run = await runKct(['auth', 'login', '--with-key', '--base-url', baseUrl], { env: kctEnv(dir), input: KEY });
        expect(run.code).toBe(1);
        expect(run.stdout).not.toContain('Logged in');
        expect(run.stderr).toContain(
          `error: the server at ${baseUrl} did not answer like the Public Evaluation API: GET /credits returned an HTML page`,
        );
        expect(run.stderr).toMatch(/^hint: .*\/v1/m);
        expect(run.stderr).not.toContain('<html');
        expect(run.stderr + run.stdout).not.toContain(KEY);
        expect(existsSync(join(dir, 'config.json'))).toBe(false);
      },
    );
  });

  it('credits and models are unknown answers (exit 1), not "{}" or "No models"', async () => {
    await against(
      (_req, res) => sendHtml(res, 200),
      async (baseUrl) => {
        const env = kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: KEY });
        const credits = await runKct(['credits'], { env });
        expect(credits.code).toBe(1);
        expect(credits.stdout).toBe('');
        expect(credits.stderr).toContain(`the server at ${baseUrl} did not answer like the Public Evaluation API`);
        expect(credits.stderr).not.toContain('This looks like a bug');
        const models = await runKct(['models'], { env });
        expect(models.code).toBe(1);
        expect(models.stderr).not.toContain('No models');
        expect(models.stderr).toContain('GET /models returned an HTML page');
        const json = await runKct(['credits', '--json'], { env });
        expect(json.code).toBe(1);
        expect(parseJson<{ error: { code: string; exit_code: number; suggestion: string } }>(json.stderr).error).toMatchObject({
          code: 'unknown_answer',
          exit_code: 1,
        });
      },
    );
  });

  it('JSON with no credit number, or no list of models, is an unknown answer; login stores nothing', async () => {
    await against(
      (req, res) => sendJson(res, 200, req.url?.endsWith('/models') ? { hello: 'world' } : { status: 'ok', service: 'something else' }),
      async (baseUrl) => {
        const dir = tempDir();
        const login = await runKct(['auth', 'login', '--with-key', '--base-url', baseUrl], { env: kctEnv(dir), input: KEY });
        expect(login.code).toBe(1);
        expect(login.stderr).toContain('GET /credits returned no number of credits');
        expect(existsSync(join(dir, 'config.json'))).toBe(false);
        const models = await runKct(['models'], { env: kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: KEY }) });
        expect(models.code).toBe(1);
        expect(models.stderr).toContain('GET /models returned no list of models');
      },
    );
  });

  it('still accepts the variants a real API may send: envelopes, numbers as strings, nested balances, null lists', async () => {
    const answers: Record<string, unknown>[] = [
      { data: { balance: '42' } },
      { credits: { available: 7, reserved: 1 } },
      { remaining_credits: 0 },
    ];
    for (const answer of answers) {
      await against(
        (req, res) => sendJson(res, 200, req.url?.endsWith('/models') ? { code: 0, msg: 'ok', data: null } : answer),
        async (baseUrl) => {
          const dir = tempDir();
          const login = await runKct(['auth', 'login', '--with-key', '--base-url', baseUrl, '--json'], { env: kctEnv(dir), input: KEY });
          expect(login.code).toBe(0);
          expect(parseJson<{ credits: number }>(login.stdout).credits).toBe([42, 7, 0][answers.indexOf(answer)]);
          expect(
            parseJson<{ profiles: Record<string, { api_key: string }> }>(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default
              .api_key,
          ).toBe(KEY);
          const models = await runKct(['models'], { env: kctEnv(dir) });
          expect(models.code).toBe(0);
          expect(models.stderr).toContain('No models for this key.');
        },
      );
    }
  });
});

describe('HTTP errors that are not JSON', () => {
  it('an HTML 404 page is named in one short line, never printed', async () => {
    await against(
      (_req, res) => sendHtml(res, 404),
      async (baseUrl) => {
        const run = await runKct(['credits'], { env: kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: KEY }) });
        expect(run.code).toBe(6);
        expect(run.stderr).toContain(
          "error: HTTP 404 Not Found from GET /credits (the server answered with an HTML page, not the API's JSON)",
        );
        expect(run.stderr).not.toContain('<');
        expect(run.stderr).not.toContain('filler');
        expect(run.stderr).toMatch(/^hint: The base URL may be wrong\..*\/v1/m);
        expect(run.stderr.trim().split('\n')).toHaveLength(2);
      },
    );
  });

  it('a long plain-text error shows only a one-line excerpt', async () => {
    const text = `upstream exploded: ${'x'.repeat(400)}\nsecond line\nthird line\n`;
    await against(
      (_req, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(text);
      },
      async (baseUrl) => {
        const run = await runKct(['models'], { env: kctEnv(tempDir(), { KCT_BASE_URL: baseUrl, KCT_API_KEY: KEY }) });
        expect(run.code).toBe(9);
        expect(run.stderr).toContain('HTTP 500 Internal Server Error from GET /models (the server answered with plain text');
        expect(run.stderr).toContain('upstream exploded');
        expect(run.stderr).not.toContain('x'.repeat(200));
        expect(run.stderr).not.toContain('second line');
      },
    );
  });
});

describe('a base URL without /v1', () => {
  it('the 404 of a fixed route says the base URL may be wrong (exit stays 6)', async () => {
    const root = shared.sandbox.baseUrl.replace(/\/v1$/, '');
    const run = await shared.kct(['credits'], { env: { KCT_BASE_URL: root } });
    expect(run.code).toBe(6);
    expect(run.stderr).toContain('There is no route GET /credits');
    expect(run.stderr).toContain(`hint: The base URL may be wrong. API routes live under /v1: try ${root}/v1`);
    const models = await shared.kct(['models'], { env: { KCT_BASE_URL: root } });
    expect(models.code).toBe(6);
    expect(models.stderr).toContain(`try ${root}/v1`);
  });

  it('a model that does not exist under a /v1 base URL is not blamed on the base URL', async () => {
    const run = await shared.kct(['one-pass', '--model', '99999', '--text', 'An essay about rivers and why they matter.']);
    expect(run.code).toBe(6);
    expect(run.stderr).not.toContain('base URL may be wrong');
  });
});

describe('settings from the environment', () => {
  it('a bad KCT_POLL_INTERVAL is blamed on KCT_POLL_INTERVAL, a bad --poll-interval on the flag', async () => {
    const fromEnv = await shared.kct(['status', 'tsk_x', '--watch'], { env: { KCT_POLL_INTERVAL: 'xyz' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('KCT_POLL_INTERVAL: "xyz" is not a duration');
    expect(fromEnv.stderr).not.toContain('--poll-interval');
    const fromFlag = await shared.kct(['status', 'tsk_x', '--watch', '--poll-interval', 'abc'], { env: { KCT_POLL_INTERVAL: 'xyz' } });
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toContain('--poll-interval: "abc" is not a duration');
  });

  it('a KCT_MAX_RETRIES that is not a whole number of 0 or more is a usage error', async () => {
    for (const value of ['abc', '-1', '1.5']) {
      const run = await shared.kct(['credits'], { env: { KCT_MAX_RETRIES: value } });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`KCT_MAX_RETRIES must be a whole number, 0 or more, not "${value}"`);
      expect(run.stderr).toContain(
        'hint: It sets retries of a failed request (0 turns them off; default 3). Fix the value, or unset KCT_MAX_RETRIES.',
      );
    }
    expect((await shared.kct(['credits'], { env: { KCT_MAX_RETRIES: '0' } })).code).toBe(0);
  });

  it('a profile that does not exist is named, with the ones that do and how to create it', async () => {
    const dir = tempDir();
    const env = kctEnv(dir, { KCT_API_KEY: shared.sandbox.keys.user });
    const none = await runKct(['credits'], { env: { ...env, KCT_PROFILE: 'ghost' } });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('the profile "ghost" (from KCT_PROFILE) does not exist; there are no profiles yet');
    expect(none.stderr).toContain('kct auth login --profile ghost');
    expect((await runKct(['--profile', 'school', 'config', 'set', 'model', '12'], { env })).code).toBe(0);
    const flag = await runKct(['--profile', 'ghost', 'credits'], { env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('the profile "ghost" (from --profile) does not exist; the profiles that exist are "school"');
    // an existing profile without a base URL keeps the usual message
    const school = await runKct(['credits'], { env: { ...env, KCT_PROFILE: 'school' } });
    expect(school.code).toBe(2);
    expect(school.stderr).toContain('no API base URL is set');
    expect(school.stderr).not.toContain('does not exist');
    // a CI job with the key and the URL in the environment: a typo in KCT_PROFILE is still refused, nothing sent
    const ci = { ...env, KCT_BASE_URL: shared.sandbox.baseUrl };
    expect((await runKct(['credits'], { env: ci })).code).toBe(0);
    for (const args of [['credits'], ['one-pass', '--model', '12', '--text', 'An answer.']]) {
      const typo = await runKct(args, { env: { ...ci, KCT_PROFILE: 'shcool' } });
      expect(typo.code, typo.stderr).toBe(2);
      expect(typo.stderr).toContain('the profile "shcool" (from KCT_PROFILE) does not exist; the profiles that exist are "school"');
    }
  });

  it('a key pasted where a task id goes is refused before any request: it would reach the server in a URL', async () => {
    for (const args of [
      ['status', shared.sandbox.keys.user],
      ['result', shared.sandbox.keys.broke],
      ['cancel', 'kct_typo_of_a_key_1234'],
    ]) {
      const run = await shared.kct([...args, '--debug']);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('that looks like an API key, where an id goes: a key is never sent in a URL');
      expect(run.stderr).not.toMatch(/> (GET|POST) /);
      expect(run.stderr).not.toContain(args[1]);
    }
  });

  it('an empty key on stdin is a usage mistake (exit 2) and says to pipe the key in', async () => {
    const run = await runKct(['auth', 'login', '--with-key', '--base-url', shared.sandbox.baseUrl], { env: kctEnv(tempDir()), input: '' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no API key on standard input');
    expect(run.stderr).toContain('hint: Pipe the key in: printf %s "$KEY" | kct auth login --with-key');
    expect(run.stderr).not.toContain('Run `kct auth login`');
  });
});
