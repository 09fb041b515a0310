// A sandbox killed (SIGKILL) with a task in flight: its database stays whole, and after a restart
// the task finishes, charged exactly once. The sandbox is a real process; kct runs in-process.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseDriver, openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { type Sandbox, startSandbox } from '../e2e/harness.js';
import { asUser, parseJson, tempDir } from './harness.js';

const essay =
  'School uniforms reduce pressure on families. For example, a study found costs fell because clothing competition ended. However, uniforms limit expression, so schools should allow choice within a dress code.';

let sandbox: Sandbox | undefined;
afterAll(async () => {
  await sandbox?.stop();
});

describe(`sandbox durability (SQLite driver: ${chooseDriver()})`, () => {
  it('a task in flight when the sandbox is killed finishes after restart, charged exactly once', async () => {
    const dataDir = tempDir('kct-durable-');
    sandbox = await startSandbox({ dataDir, latencyMs: 150 });
    let kct = asUser(sandbox);
    const before = parseJson<{ credits: number }>((await kct(['credits', '--json'])).stdout).credits;
    const task = parseJson<{ task_id: string; credit_cost: number }>(
      (await kct(['one-pass', '--model', '12', '--text', essay, '--no-wait', '--json'])).stdout,
    );
    // let it get into processing, then crash the server
    for (let i = 0; i < 100; i++) {
      const status = parseJson<{ status: string }>((await kct(['status', task.task_id, '--json'])).stdout).status;
      if (status !== 'QUEUED') break;
      await new Promise((r) => setTimeout(r, 30));
    }
    await sandbox.kill();
    const db = openSqlite(join(dataDir, 'sandbox.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }

    sandbox = await startSandbox({ dataDir, latencyMs: 10 });
    kct = asUser(sandbox);
    const watch = await kct(['status', task.task_id, '--watch', '--json']);
    expect(watch.code).toBe(0);
    expect(parseJson<{ status: string }>(watch.stdout).status).toBe('SUCCESS');
    const result = parseJson<{ credits_charged: number }>((await kct(['result', task.task_id, '--json'])).stdout);
    expect(result.credits_charged).toBe(task.credit_cost);
    const after = parseJson<{ credits: number }>((await kct(['credits', '--json'])).stdout).credits;
    expect(before - after).toBe(task.credit_cost);

    // a second restart changes nothing: no second charge
    await sandbox.stop();
    sandbox = await startSandbox({ dataDir });
    kct = asUser(sandbox);
    expect(parseJson<{ credits: number }>((await kct(['credits', '--json'])).stdout).credits).toBe(after);
  });
});
