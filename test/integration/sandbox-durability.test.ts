import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chooseDriver, openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { ESSAY, launch, makeDataDir } from '../unit/sandbox-helpers.js';

const root = resolve(import.meta.dirname, '../..');

// Node 20 runs these on better-sqlite3, Node 22 and 24 on node:sqlite (.ci/run runs all three).
describe(`durability across restarts (SQLite driver: ${chooseDriver()})`, () => {
  test('closed mid-task, restarted on the same data dir: the task finishes and is charged once', async () => {
    const dataDir = await makeDataDir();
    const first = await launch({ latencyMs: 60, workers: 1 }, dataDir);
    const accepted = await first.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: ESSAY } });
    const queued = await first.call('POST', '/evaluations/one-pass', { json: { model_id: 13, paper_content: ESSAY } });
    const { task_id: taskId, credit_cost: cost } = accepted.body.data;
    await first.waitFor(taskId, first.keys.user, (s) => s.status === 'PROGRESS' && s.cur_step >= 2);
    await first.close();

    const second = await launch({ latencyMs: 5, workers: 1 }, dataDir);
    expect(second.keys).toEqual(first.keys);
    const final = await second.waitFor(taskId, second.keys.user);
    expect(final.status).toBe('SUCCESS');
    expect((await second.waitFor(queued.body.data.task_id, second.keys.user)).status).toBe('SUCCESS');
    const credits = (await second.call('GET', '/credits')).body.data;
    expect(credits).toMatchObject({ credits: 1000 - cost - queued.body.data.credit_cost, reserved: 0 });
    const result = (await second.call('GET', `/evaluations/${taskId}`)).body.data;
    expect(result.credits_charged).toBe(cost);
    await second.dispose();
  });

  describe('killed with SIGKILL at arbitrary moments', () => {
    let build: string;
    beforeAll(async () => {
      // A child process needs JavaScript: the sandbox as built (its worker threads already require
      // the build to be newer than the sources, packages/sandbox/src/threads/compiled.ts).
      build = await mkdtemp(join(tmpdir(), 'kct-sbx-child-'));
      const server = pathToFileURL(join(root, 'packages', 'sandbox', 'dist', 'server.js')).href;
      await writeFile(
        join(build, 'child.mjs'),
        `
        import { startSandbox } from ${JSON.stringify(server)};
        const sb = await startSandbox({ port: 0, dataDir: process.argv[2], latencyMs: 15, workers: 2 });
        console.log(JSON.stringify({ baseUrl: sb.baseUrl, keys: sb.keys }));
      `,
      );
    });
    afterAll(async () => {
      if (build) await rm(build, { recursive: true, force: true });
    });

    async function startChild(dataDir: string): Promise<{ child: ChildProcess; baseUrl: string; keys: Record<string, string> }> {
      const child = spawn(process.execPath, [join(build, 'child.mjs'), dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
      const line = await new Promise<string>((res, rej) => {
        createInterface({ input: child.stdout! }).once('line', res);
        child.once('exit', (code) => rej(new Error(`sandbox child exited with ${code}`)));
      });
      return { child, ...JSON.parse(line) };
    }

    /** Unfinished tasks in the database a killed process left; it must be intact whatever the moment. */
    function unfinished(dataDir: string): number {
      const db = openSqlite(join(dataDir, 'sandbox.db'), { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        // users.reserved is written by triggers inside each committed change: a kill cannot leave it apart from the queue
        const drift = db
          .prepare(`SELECT u.name, u.reserved, (SELECT COALESCE(SUM(credit_cost), 0) FROM tasks t WHERE t.owner_user_id = u.id
          AND kind IN ('one_pass', 'batch_item') AND status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS')) AS counted
          FROM users u WHERE u.reserved <> counted`)
          .all();
        expect(drift).toEqual([]);
        return (db.prepare(`SELECT COUNT(*) AS n FROM tasks WHERE status NOT IN ('SUCCESS', 'FAILURE', 'CANCEL')`).get() as { n: number })
          .n;
      } finally {
        db.close();
      }
    }

    async function kill(child: ChildProcess): Promise<void> {
      const exited = new Promise((res) => child.once('exit', res));
      child.kill('SIGKILL');
      await exited;
    }

    test('every task still finishes, each charged exactly once, the balance never below zero', async () => {
      const dataDir = await makeDataDir();
      let { child, baseUrl, keys } = await startChild(dataDir);
      const tasks: { task_id: string; credit_cost: number }[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await request(`${baseUrl}/evaluations/one-pass`, {
          method: 'POST',
          headers: { 'x-api-key': keys.user, 'content-type': 'application/json' },
          body: JSON.stringify({ model_id: i % 2 ? 13 : 12, paper_content: `${ESSAY} #${i}` }),
        });
        expect(res.statusCode).toBe(202);
        tasks.push(((await res.body.json()) as any).data);
      }
      const unfinishedAtKill: number[] = [];
      for (const delay of [40, 90, 25]) {
        await new Promise((r) => setTimeout(r, delay));
        await kill(child);
        unfinishedAtKill.push(unfinished(dataDir));
        ({ child, baseUrl, keys } = await startChild(dataDir));
      }
      // The first kill really interrupted work in progress.
      expect(unfinishedAtKill[0]).toBeGreaterThan(0);
      await kill(child);

      const sb = await launch({}, dataDir);
      expect(sb.keys).toEqual(keys);
      for (const t of tasks) expect((await sb.waitFor(t.task_id, sb.keys.user)).status).toBe('SUCCESS');
      let charged = 0;
      for (const t of tasks) {
        const result = (await sb.call('GET', `/evaluations/${t.task_id}`)).body.data;
        expect(result.credits_charged).toBe(t.credit_cost);
        charged += t.credit_cost;
      }
      expect((await sb.call('GET', '/credits')).body.data).toMatchObject({ credits: 1000 - charged, reserved: 0 });
      await sb.dispose();
    }, 60_000);
  });
});
