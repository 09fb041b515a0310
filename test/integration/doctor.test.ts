// kct doctor, in-process, against a real sandbox (and a stand-in server for answers the sandbox never gives):
// checks in order, one line each, --json, --mark, and the exit code of the first failing check.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asUser, fakeApi, kctEnv, parseJson, runKct, tempDir, useSandbox } from './harness.js';

const shared = useSandbox();

interface DoctorJson {
  ok: boolean;
  exit_code: number;
  checks: { name: string; label: string; status: string; detail: string; ms?: number; [key: string]: unknown }[];
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => line.split(/\s{2,}/).slice(0, 2));

describe('kct doctor', () => {
  it('passes every check in order, one plain line each when piped', async () => {
    const run = await shared.kct(['doctor']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toEqual([
      ['ok', 'configuration'],
      ['ok', 'API key'],
      ['ok', 'base URL'],
      ['ok', 'key accepted'],
      ['ok', 'models'],
    ]);
    expect(run.stdout).toContain('key from environment (KCT_API_KEY)');
    expect(run.stdout).toMatch(/answers like the API in \d+ ms \(HTTP 401 without a key\)/);
    expect(run.stdout).toContain('scope user, account user (id 1)');
    expect(run.stdout).toMatch(/3 models visible, 2 ready/);
    expect(run.stdout).not.toContain(shared.sandbox.keys.user);
  });

  it('--mark marks the built-in sample end to end; --json is one document', async () => {
    const run = await shared.kct(['doctor', '--mark', '12', '--json']);
    expect(run.code).toBe(0);
    const report = parseJson<DoctorJson>(run.stdout);
    expect(report.ok).toBe(true);
    expect(report.exit_code).toBe(0);
    expect(report.checks.map((check) => [check.name, check.status])).toEqual([
      ['config', 'ok'],
      ['key', 'ok'],
      ['base_url', 'ok'],
      ['access', 'ok'],
      ['models', 'ok'],
      ['mark', 'ok'],
    ]);
    const mark = report.checks.at(-1)!;
    // A plausible score, stated as proof that marking works, not as a judgement.
    expect(mark.detail).toMatch(
      /^SUCCESS in [\d.]+ s: the service marked the built-in sample \([\d.]+ of 20, which shows only that marking works\)/,
    );
    expect(typeof mark.score).toBe('number');
    expect(mark.score).toBeGreaterThanOrEqual(8);
    expect(mark.task_id).toMatch(/^tsk_/);
    const result = parseJson<{ status: string; student_id: string }>((await shared.kct(['result', String(mark.task_id), '--json'])).stdout);
    expect(result).toMatchObject({ status: 'SUCCESS', student_id: 'kct-doctor' });
  });

  it('a refused key: exit 4, the later checks skipped, the base URL still checked', async () => {
    const run = await shared.kct(['doctor', '--json'], { env: { KCT_API_KEY: 'kct_not_a_key_00000000000000' } });
    expect(run.code).toBe(4);
    const report = parseJson<DoctorJson>(run.stdout);
    expect(report).toMatchObject({ ok: false, exit_code: 4 });
    expect(report.checks.map((check) => check.status)).toEqual(['ok', 'ok', 'ok', 'fail', 'skip']);
    expect(parseJson<{ error: { exit_code: number } }>(run.stderr).error.exit_code).toBe(4);
  });

  it('no key: the key check fails (exit 4) and the base URL is still probed', async () => {
    const run = await runKct(['doctor'], { env: kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl }) });
    expect(run.code).toBe(4);
    expect(lines(run.stdout)).toEqual([
      ['ok', 'configuration'],
      ['fail', 'API key'],
      ['ok', 'base URL'],
      ['skip', 'key accepted'],
      ['skip', 'models'],
    ]);
    expect(run.stderr).toContain('no API key');
  });

  it('a profile that does not exist fails the configuration check (exit 2)', async () => {
    const run = await shared.kct(['doctor', '--profile', 'nosuch']);
    expect(run.code).toBe(2);
    expect(lines(run.stdout)[0]).toEqual(['fail', 'configuration']);
    expect(run.stdout).toContain('the profile "nosuch" (from --profile) does not exist');
    expect(
      lines(run.stdout)
        .slice(1)
        .every(([status]) => status === 'skip'),
    ).toBe(true);
  });

  it('a config file that is not JSON fails the configuration check (exit 2), naming it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{"profiles": ');
    const run = await runKct(['doctor'], {
      env: kctEnv(dir, { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user }),
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/fail\s+configuration\s+the config file .*config\.json is not valid JSON/);
  });

  it('a base URL without /v1: the route is missing (404, exit 6) with a hint', async () => {
    const origin = new URL(shared.sandbox.baseUrl).origin;
    const run = await shared.kct(['doctor', '--base-url', origin]);
    expect(run.code).toBe(6);
    expect(lines(run.stdout)[2]).toEqual(['fail', 'base URL']);
    expect(run.stderr).toContain('/v1');
  });

  it('nothing listening: exit 9', async () => {
    const run = await shared.kct(['doctor', '--base-url', 'http://127.0.0.1:9/v1'], { env: { KCT_MAX_RETRIES: '0' } });
    expect(run.code).toBe(9);
    expect(run.stdout).toMatch(/fail\s+base URL\s+cannot reach/);
  });

  it('a web server that is not the API (HTML): exit 1', async () => {
    const web = await fakeApi((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Welcome</title>');
    });
    try {
      const run = await shared.kct(['doctor', '--base-url', web.baseUrl]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/fail\s+base URL\s+.*did not answer like the Public Evaluation API/);
    } finally {
      await web.close();
    }
  });

  it('--mark with a model still training: the models check fails for it (exit 7) and the mark is not sent; a broke key warns first', async () => {
    const training = await shared.kct(['doctor', '--mark', '14']);
    expect(training.code).toBe(7);
    expect(lines(training.stdout).slice(-2)).toEqual([
      ['fail', 'models'],
      ['skip', 'mark (model 14)'],
    ]);
    expect(training.stdout).toMatch(/the model 14 \(from --mark\) is \w+, not ready to mark/);
    const broke = asUser(shared.sandbox, 'broke');
    const run = await broke(['doctor', '--json']);
    const report = parseJson<DoctorJson>(run.stdout);
    expect(report.checks.find((check) => check.name === 'access')).toMatchObject({ status: 'warn' });
    expect(run.code).toBe(0);
    expect((await broke(['doctor', '--mark', '15'])).code).toBe(5);
    // --mark names the model checked: a default the key cannot use is a warning beside it, and the mark is sent (402: exit 5)
    const named = await broke(['doctor', '--mark', '15', '--json'], { env: { KCT_MODEL: '12' } });
    expect(named.code).toBe(5);
    const checks = parseJson<DoctorJson>(named.stdout).checks;
    expect(checks.find((check) => check.name === 'models')).toMatchObject({ status: 'warn', mark_model: 15 });
    expect(checks.find((check) => check.name === 'models')?.detail).toContain(
      'model 15 (--mark) is ready; but the default model 12 (from environment (KCT_MODEL)) is not among the models this key can use',
    );
    expect(checks.at(-1)).toMatchObject({ name: 'mark', status: 'fail' });
  });

  it('the default model must be there and ready: not listed exit 6, training exit 7, with where it was set', async () => {
    const ready = await shared.kct(['doctor'], { env: { KCT_MODEL: '12' } });
    expect(ready.code).toBe(0);
    expect(ready.stdout).toContain('the default model 12 is ready');
    const unknown = await shared.kct(['doctor', '--json'], { env: { KCT_MODEL: '999' } });
    expect(unknown.code).toBe(6);
    const report = parseJson<DoctorJson>(unknown.stdout);
    expect(report.checks.at(-1)).toMatchObject({ name: 'models', status: 'fail' });
    expect(report.checks.at(-1)?.detail).toContain(
      'the default model 999 (from environment (KCT_MODEL)) is not among the models this key can use',
    );
    const training = await shared.kct(['doctor'], { env: { KCT_MODEL: '14' } });
    expect(training.code).toBe(7);
    expect(lines(training.stdout).at(-1)).toEqual(['fail', 'models']);
    expect(training.stdout).toMatch(/the default model 14 \(from environment \(KCT_MODEL\)\) is \w+, not ready to mark/);
  });

  it('flag mistakes are usage errors before any check', async () => {
    const run = await shared.kct(['doctor', '--mark', 'twelve']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('prints a table on a terminal', async () => {
    const env = kctEnv(tempDir(), { KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user });
    const run = await runKct(['doctor'], { env, tty: true, columns: 100 });
    const { code, output } = { code: run.code, output: run.stdout + run.stderr };
    expect(code).toBe(0);
    expect(output).toContain('┌');
    expect(output).toMatch(/Check\s+│\s+Result\s+│\s+Detail/);
  });
});
