// Output scripts can rely on (issue 11, items 8, 9, 10, 15, 17): the configured format followed by
// every command that prints data, config unset, logout of a missing profile, global flags in any
// place, rewrite from any file or stdin, deadlines in local time, a model's criteria, and a balance
// of a shape kct does not know.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asUser, FIXTURES, fakeApi, kctEnv, parseJson, runKct, sendJson, tempDir, useSandbox } from './harness.js';

const essay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const shared = useSandbox();

/** A kct with its own config folder, so `config set` changes only this test's profile. */
function withConfig() {
  const dir = tempDir('kct-cfg-');
  return { dir, kct: asUser(shared.sandbox, 'user', dir) };
}

describe('kct config set output json', () => {
  it('is followed by every command that prints data', async () => {
    const { kct } = withConfig();
    expect((await kct(['config', 'set', 'output', 'json'])).code).toBe(0);
    const done = parseJson<{ task_id: string }>((await kct(['one-pass', '--model', '12', '--text', `${essay} (configured json)`])).stdout);
    const queued = parseJson<{ task_id: string }>(
      (await kct(['one-pass', '--model', '12', '--text', `${essay} KCT-SANDBOX-SLOW (to cancel)`, '--no-wait'])).stdout,
    );
    const upload = join(tempDir(), 'rubric.txt');
    writeFileSync(upload, 'Organisation (5 marks)');
    const cancel = await kct(['cancel', queued.task_id]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(parseJson<{ status: string }>(cancel.stdout).status).toBe('CANCEL');
    const commands = [
      ['credits'],
      ['status', done.task_id],
      ['result', done.task_id],
      ['models'],
      ['models', 'show', '12'],
      ['upload', upload],
      ['assign', '--model', '12', '--name', 'n', '--desc', 'd', '--deadline', '2030-01-31', '--expected', '3'],
      ['auth', 'status'],
      ['config', 'get', 'output'],
      ['config', 'list'],
      ['config', 'path'],
    ];
    for (const args of commands) {
      const run = await kct(args);
      expect(run.code, `kct ${args.join(' ')}: ${run.stderr}`).toBe(0);
      expect(() => JSON.parse(run.stdout), `kct ${args.join(' ')} printed: ${run.stdout}`).not.toThrow();
      // what follows the configured format takes --output too (auth status refused it: "unknown option")
      const flagged = await kct([...args, '--output', 'ndjson']);
      expect(flagged.code, `kct ${args.join(' ')} --output ndjson: ${flagged.stderr}`).toBe(0);
      for (const line of flagged.stdout.trim().split('\n'))
        expect(() => JSON.parse(line), `kct ${args.join(' ')} --output ndjson`).not.toThrow();
    }
    const exitCodes = await kct(['help', 'exit-codes', '--output', 'csv']);
    expect(exitCodes.code, exitCodes.stderr).toBe(0);
    expect(exitCodes.stdout.split('\n')[0]).toBe('code,meaning');
    // and csv, for a record
    expect((await kct(['config', 'set', 'output', 'csv'])).code).toBe(0);
    const csv = await kct(['credits']);
    expect(csv.stdout.split('\n')[0]).toMatch(/^credits,/);
  });

  it('kct config set of a value it cannot take: exit 2, what it takes, and an example to type', async () => {
    const { kct } = withConfig();
    for (const [args, message, hint] of [
      [['output', 'xml'], 'output must be one of table, json, ndjson, csv, not "xml"', 'hint: For example: kct config set output ndjson'],
      [
        ['base_url', 'not-a-url'],
        'base_url must be a URL such as https://host/v1',
        'hint: For example: kct config set base_url https://host/v1',
      ],
      [['base_url', 'ftp://x'], 'base_url must use http or https, not ftp', 'hint: For example: kct config set base_url'],
    ]) {
      const run = await kct(['config', 'set', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(run.stderr).toContain(hint);
    }
  });

  it('kct config set key=value (as npm config takes it) sets it; a key with no value says how to give one', async () => {
    const { kct } = withConfig();
    const set = await kct(['config', 'set', 'output=json']);
    expect(set.code, set.stderr).toBe(0);
    expect(parseJson(set.stdout)).toEqual({ profile: 'default', key: 'output', value: 'json' });
    const none = await kct(['config', 'set', 'model']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('error: no value given for model');
    expect(none.stderr).toContain('hint: Give it after the key: kct config set model <value>.');
  });

  it('kct config unset removes it again (the table comes back); unsetting what is not set changes nothing', async () => {
    const { dir, kct } = withConfig();
    // set and unset print in the format that applies once the change is made
    expect(parseJson((await kct(['config', 'set', 'output', 'json'])).stdout)).toEqual({
      profile: 'default',
      key: 'output',
      value: 'json',
    });
    const unset = await kct(['config', 'unset', 'output']);
    expect(unset.code).toBe(0);
    expect(unset.stdout).toBe('Removed output from profile "default".\n');
    expect(parseJson((await kct(['config', 'unset', 'output', '--json'])).stdout)).toEqual({
      profile: 'default',
      key: 'output',
      removed: false,
    });
    expect((await kct(['credits'])).stdout).toMatch(/^\d[\d,]* credits/);
    const before = statSync(join(dir, 'config.json')).mtimeMs;
    const again = await kct(['config', 'unset', 'output']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('output was not set');
    expect(statSync(join(dir, 'config.json')).mtimeMs).toBe(before);
    expect((await kct(['config', 'unset', 'api_key'])).code).toBe(2);
  });
});

describe('profiles', () => {
  it('kct auth logout --profile nope is exit 2 naming the profiles that exist, and writes nothing', async () => {
    const dir = tempDir('kct-logout-');
    const login = await runKct(['auth', 'login', '--with-key', '--base-url', shared.sandbox.baseUrl, '--profile', 'school'], {
      env: kctEnv(dir),
      input: shared.sandbox.keys.user,
    });
    expect(login.code).toBe(0);
    const file = join(dir, 'config.json');
    const before = readFileSync(file, 'utf8');
    const run = await runKct(['auth', 'logout', '--profile', 'nope'], { env: kctEnv(dir) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the profile "nope" (from --profile) does not exist; the profiles that exist are "school"');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('global flags', () => {
  it('kct --json help exit-codes prints the table as JSON', async () => {
    const run = await shared.kct(['--json', 'help', 'exit-codes']);
    expect(run.code).toBe(0);
    const table = parseJson<{ code: number; meaning: string }[]>(run.stdout);
    expect(table.map((row) => row.code)).toContain(143);
  });

  it('work before or after the command', async () => {
    const env = kctEnv(tempDir(), { KCT_API_KEY: shared.sandbox.keys.user });
    const base = shared.sandbox.baseUrl;
    const forms = [
      [
        ['--base-url', base, 'credits'],
        ['credits', '--base-url', base],
      ],
      [
        ['--base-url', base, '--json', 'credits'],
        ['credits', '--base-url', base, '--json'],
      ],
      [
        ['--base-url', base, '--debug', 'credits'],
        ['credits', '--debug', '--base-url', base],
      ],
      [
        ['--base-url', base, '--no-color', 'credits'],
        ['credits', '--no-color', '--base-url', base],
      ],
      [
        ['--base-url', base, '-p', 'default', 'credits'],
        ['credits', '-p', 'default', '--base-url', base],
      ],
    ];
    for (const [before, after] of forms) {
      const a = await runKct(before, { env });
      const b = await runKct(after, { env });
      expect(a.code, before.join(' ')).toBe(0);
      expect(b.code, after.join(' ')).toBe(0);
      expect(b.stdout).toBe(a.stdout);
      if (before.includes('--debug')) expect(b.stderr).toContain('[debug] > GET');
    }
  });
});

describe('kct rewrite', () => {
  it('takes any existing file, and - for stdin', async () => {
    const done = await shared.kct(['one-pass', '--model', '12', '--text', `${essay} (rewrite source)`, '--json']);
    const saved = join(tempDir(), 'result-of-ann');
    writeFileSync(saved, done.stdout);
    const fromFile = await shared.kct(['rewrite', saved, '--style', 'paragraph', '--json']);
    expect(fromFile.code).toBe(0);
    expect(parseJson<{ sections: unknown[] }>(fromFile.stdout).sections.length).toBeGreaterThan(0);
    const fromStdin = await shared.kct(['rewrite', '-', '--style', 'paragraph', '--json'], { input: done.stdout });
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
  });
});

describe('what a teacher reads', () => {
  it('kct assign prints the deadline in local time and in UTC', async () => {
    const run = await shared.kct(
      ['assign', '--model', '12', '--name', 'Essay', '--desc', 'Draft', '--deadline', '2030-12-01', '--expected', '28'],
      { env: { TZ: 'America/New_York' } },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Deadline: Sun, 1 Dec 2030, 23:59 America/New_York (2030-12-02T04:59:59Z)');
  });

  it('kct models show lists the criteria with their maximums', async () => {
    const run = await shared.kct(['models', 'show', '12']);
    expect(run.code).toBe(0);
    for (const [item, max] of [
      ['Thesis & position', 5],
      ['Evidence & reasoning', 6],
      ['Organisation', 5],
      ['Language & conventions', 4],
    ] as const) {
      expect(run.stdout).toMatch(new RegExp(`${item.replace('&', '&')}\\s*│\\s*${max}\\s`));
    }
    expect(run.stdout).toMatch(/Sum of maxima\s*│\s*20/);
  });
});

describe('a balance of a shape kct does not know', () => {
  it('--json prints the record as received with a warning; the table and auth login keep the base-URL check', async () => {
    const api = await fakeApi((_req, res) => sendJson(res, 200, { data: { wallet: { tokens: 12 }, plan: 'school' } }));
    try {
      const env = kctEnv(tempDir(), { KCT_BASE_URL: api.baseUrl, KCT_API_KEY: 'kct_sbx_x' });
      const json = await runKct(['credits', '--json'], { env });
      expect(json.code).toBe(0);
      expect(parseJson(json.stdout)).toEqual({ wallet: { tokens: 12 }, plan: 'school' });
      // under --json the warning is a JSON line, as everything on stderr
      expect(parseJson<{ notice: { code: string; message: string } }>(json.stderr).notice).toMatchObject({
        code: 'warning',
        message: expect.stringContaining('the balance from'),
      });
      const table = await runKct(['credits'], { env });
      expect(table.code).toBe(1);
      expect(table.stderr).toContain('did not answer like the Public Evaluation API');
      const login = await runKct(['auth', 'login', '--with-key', '--base-url', api.baseUrl], {
        env: kctEnv(tempDir()),
        input: 'kct_sbx_x',
      });
      expect(login.code).toBe(1);
    } finally {
      await api.close();
    }
  });
});
