// Chaos: a class of answers (JSON and multipart, some failing on purpose) goes to a sandbox that
// is killed with SIGKILL at random moments and restarted on the same data dir; the client
// retries with the same Idempotency-Key, as kct does. The end state is read from the database.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FormData } from 'undici';
import { afterAll, describe, expect, test } from 'vitest';
import type { SandboxProcess } from './lib.js';
import {
  Client,
  ESSAY,
  FULL,
  INTERNALS,
  openReadOnly,
  random,
  removeDir,
  SEED,
  secretsFound,
  sleep,
  startSandbox,
  Transcript,
  tempDir,
} from './lib.js';

const ANSWERS = FULL ? 300 : 60;
const KILLS = FULL ? 10 : 3;
const ARGS = ['--latency', '5', '--workers', '4', '--threads', '2'];

type Kind = 'json' | 'file' | 'json-fail' | 'file-fail' | 'corrupt-pdf';

function kindOf(r: number): Kind {
  if (r < 0.6) return 'json';
  if (r < 0.85) return 'file';
  if (r < 0.9) return 'json-fail';
  if (r < 0.95) return 'file-fail';
  return 'corrupt-pdf';
}

const transcript = new Transcript();
const dataDir = tempDir('kct-chaos-');
let current: SandboxProcess | undefined;
afterAll(async () => {
  await current?.stop();
  removeDir(dataDir);
});

describe(`chaos: ${ANSWERS} answers, ${KILLS} kill -9 and restarts (seed ${SEED})`, () => {
  test('every accepted task ends final, charged exactly once, one task per key, no orphan file, a sound database', async () => {
    const rand = random(SEED);
    const kinds = Array.from({ length: ANSWERS }, () => kindOf(rand()));
    current = await startSandbox(transcript, { dataDir, args: ARGS });
    const keys = current.keys;
    const client = new Client(transcript, 30_000);
    const accepted = new Map<string, string>();
    const violations: string[] = [];
    const counts = { retries: 0, replays: 0 };
    let restarting: Promise<void> | undefined;

    async function submit(i: number): Promise<void> {
      const key = `chaos-${SEED}-${i}`;
      const kind = kinds[i];
      const text = `${kind.endsWith('fail') ? 'KCT-SANDBOX-FAIL ' : ''}${ESSAY} (answer ${i})`;
      for (let attempt = 0; attempt < 200; attempt++) {
        await restarting;
        const sandbox = current!;
        const url = `${sandbox.baseUrl}/evaluations/one-pass`;
        try {
          let res;
          if (kind === 'json' || kind === 'json-fail') {
            res = await client.call(url, {
              key: keys.user,
              json: { model_id: 12, student_id: `s-${i}`, paper_content: text },
              headers: { 'idempotency-key': key },
            });
          } else {
            const form = new FormData();
            form.append('model_id', '12');
            form.append('student_id', `s-${i}`);
            if (kind === 'corrupt-pdf')
              form.append('answer_file', new Blob([`%PDF-1.7\n1 0 obj broken ${i}`], { type: 'application/pdf' }), `answer-${i}.pdf`);
            else form.append('answer_file', new Blob([text], { type: 'text/plain' }), `answer-${i}.txt`);
            res = await client.call(url, { key: keys.user, form, headers: { 'idempotency-key': key } });
          }
          if (res.status !== 202) {
            violations.push(`answer ${i}: HTTP ${res.status} ${res.text.slice(0, 200)}`);
            return;
          }
          const taskId = res.body.data.task_id as string;
          if (res.headers['idempotent-replayed'] === 'true') counts.replays++;
          const earlier = accepted.get(key);
          if (earlier !== undefined && earlier !== taskId) violations.push(`key ${key} gave ${earlier} and then ${taskId}`);
          accepted.set(key, taskId);
          return;
        } catch {
          // The sandbox was killed under this request: retry, with the same key, once it is back.
          counts.retries++;
          await sleep(50);
        }
      }
      violations.push(`answer ${i}: never accepted`);
    }

    let next = 0;
    const submitters = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < ANSWERS) await submit(next++);
      }),
    );
    const killer = (async () => {
      for (let k = 0; k < KILLS; k++) {
        await sleep(150 + rand() * 500);
        let done!: () => void;
        restarting = new Promise<void>((resolve) => {
          done = resolve;
        });
        await current!.kill();
        current = await startSandbox(transcript, { dataDir, args: ARGS });
        if (JSON.stringify(current.keys) !== JSON.stringify(keys)) violations.push('the keys changed across a restart');
        done();
        restarting = undefined;
      }
    })();
    await Promise.all([submitters, killer]);
    expect(violations).toEqual([]);
    expect(accepted.size).toBe(ANSWERS);

    // Every task final (polled through the API).
    const deadline = Date.now() + 180_000;
    let unfinished = [...accepted.values()];
    while (unfinished.length > 0 && Date.now() < deadline) {
      const still: string[] = [];
      for (const taskId of unfinished) {
        const res = await client.call(`${current.baseUrl}/evaluations/${taskId}/status`, { key: keys.user });
        if (!['SUCCESS', 'FAILURE', 'CANCEL'].includes(res.body?.data?.status)) still.push(taskId);
      }
      unfinished = still;
      if (unfinished.length > 0) await sleep(200);
    }
    expect(unfinished).toEqual([]);
    await client.close();
    await current.stop();
    current = undefined;

    const db = await openReadOnly(join(dataDir, 'sandbox.db'));
    try {
      expect(db.get<{ integrity_check: string }>('PRAGMA integrity_check')).toEqual({ integrity_check: 'ok' });
      expect(db.all('PRAGMA foreign_key_check')).toEqual([]);
      const tasks = db.all<{
        task_id: string;
        status: string;
        credits_charged: number;
        credit_cost: number;
        student_id: string;
        message: string | null;
        owner_user_id: number;
      }>(`SELECT task_id, status, credits_charged, credit_cost, student_id, message, owner_user_id FROM tasks WHERE kind = 'one_pass'`);
      // One task per answer: no retry made a second one.
      expect(tasks.length).toBe(ANSWERS);
      const byId = new Map(tasks.map((t) => [t.task_id, t]));
      for (const [key, taskId] of accepted) {
        const task = byId.get(taskId);
        expect(task, key).toBeDefined();
        const i = Number(key.split('-').pop());
        const expected = kinds[i] === 'json' || kinds[i] === 'file' ? 'SUCCESS' : 'FAILURE';
        expect([key, task!.status]).toEqual([key, expected]);
        expect(task!.credits_charged).toBe(expected === 'SUCCESS' ? task!.credit_cost : 0);
        if (task!.message) expect(task!.message).not.toMatch(INTERNALS);
      }
      // Idempotency: each key maps to the one task the client was given, and no task to two keys.
      const idem = db.all<{ key: string; task_id: string }>('SELECT key, task_id FROM idempotency');
      expect(idem.length).toBe(ANSWERS);
      expect(new Set(idem.map((r) => r.task_id)).size).toBe(ANSWERS);
      for (const r of idem) expect(r.task_id).toBe(accepted.get(r.key));
      // Balance change = what was charged.
      const user = db.get<{ id: number; credits: number }>(`SELECT id, credits FROM users WHERE name = 'user'`)!;
      const charged = tasks.filter((t) => t.owner_user_id === user.id).reduce((n, t) => n + t.credits_charged, 0);
      expect(1000 - user.credits).toBe(charged);
      // Files: every stored file has its task, every task's file is there, nothing half-received.
      const taskDirs = readdirSync(join(dataDir, 'files', 'tasks'));
      for (const dir of taskDirs) expect(byId.has(dir), `orphan folder ${dir}`).toBe(true);
      for (const f of db.all<{ path: string }>('SELECT path FROM task_files')) expect(existsSync(join(dataDir, f.path)), f.path).toBe(true);
      expect(readdirSync(join(dataDir, 'files', 'incoming'))).toEqual([]);
    } finally {
      db.close();
    }
    expect(secretsFound(keys, transcript, dataDir)).toEqual([]);
    console.log(
      `[reliability] chaos: ${ANSWERS} answers, ${KILLS} kills, ${counts.retries} requests cut by a kill and retried, ${counts.replays} answered as replays (accepted before the kill), 0 violations`,
    );
  });
});
