// A server that stops answering is said, not waited on: `kct` watching a task exits 9 once its
// retries are spent (not at --timeout). kct runs in-process; the sandbox is a real process, killed
// with SIGKILL as a crash would. `npm run demo` naming the sandbox's last lines is test/e2e/demo.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../e2e/harness.js';
import { asUser, parseJson, type RunOptions, tempDir } from './harness.js';

const essay =
  'School uniforms reduce pressure on families. For example, costs fell. However, uniforms limit expression, so schools should allow choice.';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.stop();
  sandbox = undefined;
});

/** Kills the sandbox (SIGKILL, as a crash) once kct has written `marker` on stderr. */
function killSandboxWhen(marker: RegExp): Pick<RunOptions, 'onStderr'> {
  let killed = false;
  return {
    onStderr: (_, all) => {
      if (!killed && marker.test(all)) {
        killed = true;
        void sandbox?.kill();
      }
    },
  };
}

describe('a sandbox that dies while kct watches', () => {
  it('kct status --watch exits 9 at once, naming the task and how to resume, long before --timeout', async () => {
    sandbox = await startSandbox({ latencyMs: 2000 });
    const kct = asUser(sandbox);
    const task = parseJson<{ task_id: string }>((await kct(['one-pass', '--model', '12', '--text', essay, '--no-wait', '--json'])).stdout);
    const watch = await kct(['status', task.task_id, '--watch', '--timeout', '30m'], killSandboxWhen(/kct: tsk_\w+ [A-Z]+/));
    expect(watch.code).toBe(9);
    expect(watch.stderr).toContain(`the server stopped answering while task ${task.task_id} was being watched`);
    expect(watch.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v1 \((connection refused|ECONNRESET|UND_ERR_SOCKET)\)/);
    expect(watch.stderr).toContain(`resume with: kct status ${task.task_id} --watch`);
    expect(watch.stderr).not.toContain('still watching');
  });

  it('kct one-pass exits 9 with --json, and says the same command finds the task again', async () => {
    sandbox = await startSandbox({ latencyMs: 2000 });
    const kct = asUser(sandbox);
    const run = await kct(['one-pass', '--model', '12', '--text', essay, '--json', '--timeout', '30m'], killSandboxWhen(/accepted tsk_/));
    expect(run.code).toBe(9);
    const error = parseJson<{ error: { code: string; message: string; exit_code: number; suggestion: string } }>(
      run.stderr.trim().split('\n').pop()!,
    ).error;
    expect(error).toMatchObject({ code: 'connection', exit_code: 9 });
    expect(error.message).toMatch(/^the server stopped answering while task tsk_\w+ was being watched/);
    expect(error.suggestion).toContain('resume with: the same command');
  });
});

describe('a sandbox not running when kct follows a task of an earlier run', () => {
  it("an answer marked before, run again with the sandbox stopped: the connection's own hint (is the sandbox running?), exit 9", async () => {
    sandbox = await startSandbox({ latencyMs: 0 });
    const kct = asUser(sandbox);
    const file = join(tempDir(), 'essay.txt');
    writeFileSync(file, essay);
    expect((await kct(['one-pass', file, '--model', '12'])).code).toBe(0);
    await sandbox.stop();
    sandbox = undefined;
    const again = await kct(['one-pass', file, '--model', '12']);
    expect(again.code, again.stderr).toBe(9);
    expect(again.stderr).toMatch(/error: cannot watch task tsk_\w+: cannot reach http:\/\/127\.0\.0\.1:\d+\/v1 \(connection refused\)/);
    expect(again.stderr).toMatch(
      /hint: Is the sandbox running\? Start it with `kct sandbox --port \d+` \(with the --data folder it had: it keeps the tasks there\)/,
    );
    expect(again.stderr).not.toContain('stopped answering');
  });
});

describe('a sandbox that dies while kct marks a class', () => {
  it('one-pass on a folder stops sending and watching, prints what it has, and exits 9', async () => {
    sandbox = await startSandbox({ latencyMs: 1500 });
    const kct = asUser(sandbox);
    const dir = tempDir('kct-dead-class-');
    for (let i = 1; i <= 12; i++) writeFileSync(join(dir, `student-${String(i).padStart(2, '0')}.txt`), `${essay} (${i})`);
    const running = sandbox;
    const marking = kct(['one-pass', dir, '--model', '12', '--jobs', '2', '--output', 'ndjson', '--timeout', '30m']);
    // once answers are accepted and being marked (credits reserved), the sandbox dies
    for (;;) {
      const credits = parseJson<{ reserved: number }>((await kct(['credits', '--json'])).stdout);
      if (credits.reserved > 0) break;
    }
    await running.kill();
    const run = await marking;
    expect(run.code).toBe(9);
    const rows = run.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => parseJson<{ file: string; status: string; message?: string }>(line));
    expect(rows).toHaveLength(12);
    expect(rows.some((row) => row.status === 'SUCCESS')).toBe(false);
    expect(rows.every((row) => ['ERROR', 'NOT_SENT'].includes(row.status))).toBe(true);
    expect(run.stderr).toMatch(/error: (the server stopped answering while|cannot reach)/);
    expect(run.stderr).toContain('resume with: the same command');
  });
});
