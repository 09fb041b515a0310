import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kctEnv, parseJson, runKct, type Sandbox, startSandbox, tempDir } from './harness.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

describe('kct auth and config', () => {
  it('logs in with --with-key, stores key and base URL privately, and never prints the key', async () => {
    const dir = tempDir();
    const env = kctEnv(dir);
    const login = await runKct(['auth', 'login', '--with-key', '--base-url', sandbox.baseUrl], { env, input: `${sandbox.keys.user}\n` });
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('Logged in');
    expect(login.stdout).toContain('1000 credits');
    expect(login.stdout + login.stderr).not.toContain(sandbox.keys.user);

    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const stored = parseJson<{ profiles: Record<string, { api_key: string; base_url: string }> }>(readFileSync(file, 'utf8'));
    expect(stored.profiles.default.base_url).toBe(sandbox.baseUrl);

    const credits = await runKct(['credits', '--json'], { env });
    expect(credits.code).toBe(0);
    expect(parseJson<{ credits: number }>(credits.stdout).credits).toBe(1000);

    const status = await runKct(['auth', 'status', '--json'], { env });
    expect(status.code).toBe(0);
    const report = parseJson<{ key: string; key_source: string; base_url: string }>(status.stdout);
    expect(report.key).toMatch(/^kct_\*{4}.{4}$/);
    expect(report.key_source).toBe('profile "default"');
    expect(status.stdout).not.toContain(sandbox.keys.user);

    const fromEnv = await runKct(['auth', 'status', '--json'], { env: { ...env, KCT_API_KEY: sandbox.keys.broke } });
    expect(parseJson<{ key_source: string }>(fromEnv.stdout).key_source).toBe('environment (KCT_API_KEY)');

    const logout = await runKct(['auth', 'logout'], { env });
    expect(logout.code).toBe(0);
    const after = await runKct(['auth', 'status'], { env });
    expect(after.code).toBe(4);
    expect(after.stderr).toContain('not logged in');
  });

  it('refuses a key that does not begin with kct_ before sending anything', async () => {
    const env = kctEnv(tempDir());
    const result = await runKct(['auth', 'login', '--with-key', '--base-url', sandbox.baseUrl], {
      env,
      input: 'sk-proj-abcdef1234567890\n',
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('does not begin with kct_');
    expect(result.stderr).not.toContain('sk-proj-abcdef1234567890');
  });

  it('rejects an invalid key with 401 and stores nothing', async () => {
    const dir = tempDir();
    const env = kctEnv(dir);
    const result = await runKct(['auth', 'login', '--with-key', '--base-url', sandbox.baseUrl], {
      env,
      input: 'kct_not_a_real_key_000000\n',
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).not.toContain('kct_not_a_real_key_000000');
    // the hint is for a login: nothing stored, get the key again (not "store a working one with kct auth login")
    expect(result.stderr).toContain('error: the service refused this key:');
    expect(result.stderr).toContain('hint: Nothing was stored. Copy the key again');
    expect(result.stderr).not.toContain('with `kct auth login`');
    const status = await runKct(['auth', 'status'], { env });
    expect(status.code).toBe(4);
  });

  it('never prompts in CI or off a TTY: a usage error (exit 2) saying how to pipe the key in', async () => {
    const env = kctEnv(tempDir());
    const result = await runKct(['auth', 'login', '--base-url', sandbox.baseUrl], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--with-key');
  });

  it('config set/get/list/path with precedence flags > env > profile', async () => {
    const dir = tempDir();
    const env = kctEnv(dir);
    expect((await runKct(['config', 'set', 'model', '12'], { env })).code).toBe(0);
    expect((await runKct(['config', 'get', 'model'], { env })).stdout.trim()).toBe('12');
    expect((await runKct(['config', 'get', 'model'], { env: { ...env, KCT_MODEL: '13' } })).stdout.trim()).toBe('13');
    const list = parseJson<Record<string, { value: string | null; source: string | null }>>(
      (await runKct(['config', 'list', '--json'], { env: { ...env, KCT_MODEL: '13' } })).stdout,
    );
    expect(list.model).toEqual({ value: '13', source: 'environment (KCT_MODEL)' });
    expect((await runKct(['config', 'path'], { env })).stdout.trim()).toBe(join(dir, 'config.json'));
    const bad = await runKct(['config', 'set', 'model', 'twelve'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('model must be a positive whole number');
    const unknown = await runKct(['config', 'set', 'colour', 'blue'], { env });
    expect(unknown.code).toBe(2);
    const key = await runKct(['config', 'set', 'api_key', 'kct_x'], { env });
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('kct auth login');
    // profiles are separate
    expect((await runKct(['--profile', 'school', 'config', 'set', 'model', '21'], { env })).code).toBe(0);
    expect((await runKct(['--profile', 'school', 'config', 'get', 'model'], { env })).stdout.trim()).toBe('21');
    expect((await runKct(['config', 'get', 'model'], { env: { ...env, KCT_PROFILE: 'school' } })).stdout.trim()).toBe('21');
    expect((await runKct(['config', 'get', 'model'], { env })).stdout.trim()).toBe('12');
  });

  it('reports a broken config file by its path (exit 2) and leaves it as it is', async () => {
    const dir = tempDir();
    const env = kctEnv(dir, { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user });
    writeFileSync(join(dir, 'config.json'), '{"profiles": {');
    for (const args of [['credits'], ['config', 'set', 'output', 'json']]) {
      const run = await runKct(args, { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`the config file ${join(dir, 'config.json')} is not valid JSON`);
      expect(run.stderr).toContain('kct auth login');
    }
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{"profiles": {');
  });

  it('reads settings and prints the config path without creating anything', async () => {
    const dir = join(tempDir(), 'not-yet');
    const env = kctEnv(dir, { KCT_BASE_URL: sandbox.baseUrl, KCT_API_KEY: sandbox.keys.user });
    expect((await runKct(['credits', '--json'], { env })).code).toBe(0);
    expect((await runKct(['config', 'path'], { env })).stdout.trim()).toBe(join(dir, 'config.json'));
    expect(existsSync(dir)).toBe(false);
  });
});
