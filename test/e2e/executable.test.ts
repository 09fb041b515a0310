// The single-file executable (npm run build:exe): built once for this file from the built dist/
// (the Node binary in KCT_SEA_NODE, else this Node), then run with an empty PATH, so nothing
// outside the file is found, for --version, credits and a one-pass against the sandbox.
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, GENERATED, parseJson, removeDir, ROOT, runKct, tempDir, useSandbox, type RunOptions } from './harness.js';

const shared = useSandbox();
const dir = tempDir('kct-exe-');
const exe = join(dir, 'kct-linux-x64');
const embeddedNode = process.env.KCT_SEA_NODE ?? process.execPath;
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** Runs the executable with nothing from this environment: an empty PATH, a private HOME and config. */
function runExe(args: string[], env: Record<string, string> = {}, options: Omit<RunOptions, 'env' | 'executable'> = {}) {
  return runKct(args, { ...options, cwd: dir, executable: exe, env: { PATH: '', HOME: dir, KCT_CONFIG_DIR: dir, NO_COLOR: '1', CI: '1', KCT_POLL_INTERVAL: '50ms', ...env } });
}

const asUser = () => ({ KCT_BASE_URL: shared.sandbox.baseUrl, KCT_API_KEY: shared.sandbox.keys.user });

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'build-exe.js'), '--out', exe, '--node', embeddedNode], { cwd: ROOT, timeout: 300_000 });
}, 320_000);

afterAll(() => removeDir(dir)); // the executable is over 100 MB

describe('the single-file executable, with an empty PATH', () => {
  it('is one executable file, with the Node it was built from inside', async () => {
    expect(statSync(exe).mode & 0o111).toBe(0o111);
    const run = await runExe(['version', '--json']);
    expect(run.code).toBe(0);
    const expectedNode = (await promisify(execFile)(embeddedNode, ['--version'])).stdout.trim().slice(1);
    expect(parseJson(run.stdout)).toEqual({ version, node: expectedNode, platform: 'linux', arch: 'x64' });
  });

  it('--version prints the package version; --help works without any file beside it', async () => {
    const run = await runExe(['--version']);
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await runExe(['one-pass', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: kct one-pass');
    expect(help.stderr).toBe('');
  });

  it('credits against the sandbox', async () => {
    const run = await runExe(['credits', '--json'], asUser());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(typeof parseJson<{ credits: number }>(run.stdout).credits).toBe('number');
  });

  it('one-pass of a text and a PDF answer against the sandbox, and the class report', async () => {
    const report = join(dir, 'class.html');
    const run = await runExe(['one-pass', join(FIXTURES, 'essay.txt'), join(GENERATED, 'essay.pdf'), '--model', '12', '--output', 'ndjson', '--report', report], asUser(), { timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    const rows = run.stdout.trim().split('\n').map((line) => parseJson<{ status: string; score: number; max_score: number }>(line));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.status).toBe('SUCCESS');
      expect(row.score).toBeGreaterThan(0);
      expect(row.max_score).toBe(20);
    }
    expect(readFileSync(report, 'utf8')).toContain(`<meta name="generator" content="kct ${version}">`);
  });

  it('kct sandbox either runs inside it or says plainly that it needs the npm package', async () => {
    let started = '';
    const run = await runExe(['sandbox', '--port', '0', '--json', '--data', join(dir, 'sandbox')], {}, {
      timeoutMs: 60_000,
      onSpawn: (child) => child.stdout!.on('data', (chunk: Buffer) => {
        started += chunk.toString();
        if (started.includes('\n')) child.kill('SIGTERM'); // it started: that is all this test asks of it
      }),
    });
    if (started) {
      expect(parseJson<{ base_url: string }>(started.split('\n')[0]).base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    } else {
      expect(run.code).toBe(2);
      const { error } = parseJson<{ error: { message: string; suggestion: string; exit_code: number } }>(run.stderr);
      expect(error.message).toMatch(/^kct sandbox in this single-file executable needs Node\.js 22\.13 or later inside it: it was built from Node\.js v20\./);
      expect(error.suggestion).toContain('Build the executable from Node.js 24');
      expect(error.suggestion).toContain('install kct with npm (npm install -g kct)');
      expect(error.exit_code).toBe(2);
    }
  });
});
