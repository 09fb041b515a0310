// A server that stops answering is said, not waited on: `kct` watching a task exits 9 once its
// retries are spent (not at --timeout), and `npm run demo` names the sandbox's last stderr lines.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, asUser, parseJson, startSandbox, tempDir, type RunResult, type Sandbox } from './harness.js';

const essay = 'School uniforms reduce pressure on families. For example, costs fell. However, uniforms limit expression, so schools should allow choice.';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

/** Kills the sandbox (SIGKILL, as a crash) once `child` has written `marker` on stderr. */
function killSandboxWhen(child: { stderr: NodeJS.ReadableStream | null }, marker: RegExp): void {
  let seen = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    if (marker.test(seen)) void sandbox?.kill();
  });
}

describe('a sandbox that dies while kct watches', () => {
  it('kct status --watch exits 9 at once, naming the task and how to resume, long before --timeout', async () => {
    sandbox = await startSandbox({ latencyMs: 2000 });
    const kct = asUser(sandbox);
    const task = parseJson<{ task_id: string }>((await kct(['one-pass', '--model', '12', '--text', essay, '--no-wait', '--json'])).stdout);
    const watch = await kct(['status', task.task_id, '--watch', '--timeout', '30m'], {
      onSpawn: (child) => killSandboxWhen(child, /kct: tsk_\w+ [A-Z]+/),
    });
    expect(watch.code).toBe(9);
    expect(watch.stderr).toContain(`the server stopped answering while task ${task.task_id} was being watched`);
    expect(watch.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v1 \((connection refused|ECONNRESET|UND_ERR_SOCKET)\)/);
    expect(watch.stderr).toContain(`resume with: kct status ${task.task_id} --watch`);
    expect(watch.stderr).not.toContain('still watching');
  });

  it('kct one-pass exits 9 with --json, and says the same command finds the task again', async () => {
    sandbox = await startSandbox({ latencyMs: 2000 });
    const kct = asUser(sandbox);
    const run = await kct(['one-pass', '--model', '12', '--text', essay, '--json', '--timeout', '30m'], {
      onSpawn: (child) => killSandboxWhen(child, /accepted tsk_/),
    });
    expect(run.code).toBe(9);
    const error = parseJson<{ error: { code: string; message: string; exit_code: number; suggestion: string } }>(run.stderr.trim().split('\n').pop()!).error;
    expect(error).toMatchObject({ code: 'connection', exit_code: 9 });
    expect(error.message).toMatch(/^the server stopped answering while task tsk_\w+ was being watched/);
    expect(error.suggestion).toContain('resume with: the same command');
  });
});

describe('a sandbox that dies while kct marks a class', () => {
  it('one-pass on a folder stops sending and watching, prints what it has, and exits 9', async () => {
    sandbox = await startSandbox({ latencyMs: 1500 });
    const kct = asUser(sandbox);
    const dir = tempDir('kct-dead-class-');
    for (let i = 1; i <= 12; i++) writeFileSync(join(dir, `student-${String(i).padStart(2, '0')}.txt`), `${essay} (${i})`);
    const running = sandbox;
    const run = await kct(['one-pass', dir, '--model', '12', '--jobs', '2', '--output', 'ndjson', '--timeout', '30m'], {
      // once answers are accepted and being marked (credits reserved), the sandbox dies
      onSpawn: () => void (async () => {
        for (;;) {
          const credits = parseJson<{ reserved: number }>((await kct(['credits', '--json'])).stdout);
          if (credits.reserved > 0) return running.kill();
        }
      })(),
    });
    expect(run.code).toBe(9);
    const rows = run.stdout.trim().split('\n').filter(Boolean).map((line) => parseJson<{ file: string; status: string; message?: string }>(line));
    expect(rows).toHaveLength(12);
    expect(rows.some((row) => row.status === 'SUCCESS')).toBe(false);
    expect(rows.every((row) => ['ERROR', 'NOT_SENT'].includes(row.status))).toBe(true);
    expect(run.stderr).toMatch(/error: (the server stopped answering while|cannot reach)/);
    expect(run.stderr).toContain('resume with: the same command');
  });
});

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
    const demo = await runDemo({ PATH: process.env.PATH, HOME: tempDir(), NO_COLOR: '1', NODE_OPTIONS: `--import=${preload}` });
    expect(demo.code).not.toBe(0);
    expect(demo.stderr).toContain('demo: the sandbox stopped unexpectedly (killed by SIGKILL) while kct was marking the essay.');
    expect(demo.stderr).toContain('demo: its last lines on stderr:\n  Assertion failed: simulated crash');
    // kct said it too, by itself, before the demo's own report
    expect(demo.stderr.indexOf('the server stopped answering')).toBeGreaterThan(-1);
    expect(demo.stderr.indexOf('the server stopped answering')).toBeLessThan(demo.stderr.indexOf('demo: the sandbox stopped'));
  });
});
