// `npm run demo` when its sandbox dies: it says so, with the sandbox's last stderr lines, and
// exits non-zero. The demo is a script of its own, run as a person runs it. kct itself facing a
// dead server is test/integration/dead-server.test.ts.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, type RunResult, tempDir } from './harness.js';

function runDemo(env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the demo did not finish\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, 50_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

describe('npm run demo', () => {
  it('says when its sandbox dies, with the sandbox’s last lines, and exits non-zero', async () => {
    const preload = join(ROOT, 'test', 'e2e', 'preload', 'crash-sandbox.mjs');
    // kct's own retries against the dead sandbox, shortened: the demo's report is the point
    const demo = await runDemo({
      PATH: process.env.PATH,
      HOME: tempDir(),
      NO_COLOR: '1',
      NODE_OPTIONS: `--import=${preload}`,
      KCT_RETRY_BASE_DELAY: '20ms',
    });
    expect(demo.code).not.toBe(0);
    expect(demo.stderr).toContain('demo: the sandbox stopped unexpectedly (killed by SIGKILL) while kct was marking the essay.');
    expect(demo.stderr).toContain('demo: its last lines on stderr:\n  Assertion failed: simulated crash');
    // kct said it too, by itself, before the demo's own report
    expect(demo.stderr.indexOf('the server stopped answering')).toBeGreaterThan(-1);
    expect(demo.stderr.indexOf('the server stopped answering')).toBeLessThan(demo.stderr.indexOf('demo: the sandbox stopped'));
  });
});
