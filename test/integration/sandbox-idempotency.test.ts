import { openAsBlob } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { ESSAY, makeDataDir, sandboxForFile } from '../unit/sandbox-helpers.js';

// Latency keeps tasks unfinished, so reservations are visible in GET /credits.
const sb = sandboxForFile({ latencyMs: 200, workers: 1 });
let work: string;
beforeAll(async () => {
  work = await makeDataDir();
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const submit = (json: unknown, key?: string) =>
  sb.call('POST', '/evaluations/one-pass', { json, headers: key === undefined ? {} : { 'idempotency-key': key } });

function taskCount(): number {
  const db = openSqlite(join(sb.dataDir, 'sandbox.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('Idempotency-Key (spec 4.8 rule 6)', () => {
  test('same key, same request: the same task, the original body, and a replay header', async () => {
    const body = { model_id: 12, paper_content: ESSAY, student_id: 'idem-1' };
    const first = await submit(body, 'key-same');
    expect(first.status).toBe(202);
    const count = taskCount();
    // Field order does not change the fingerprint.
    const again = await submit({ student_id: 'idem-1', paper_content: ESSAY, model_id: 12 }, 'key-same');
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data).toEqual(first.body.data);
    expect(taskCount()).toBe(count);
  });

  test('same key, changed text: 409 idempotency_key_reused saying a new key is needed', async () => {
    const first = await submit({ model_id: 12, paper_content: ESSAY }, 'key-changed');
    expect(first.status).toBe(202);
    const changed = await submit({ model_id: 12, paper_content: `${ESSAY} (edited)` }, 'key-changed');
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('idempotency_key_reused');
    expect(changed.body.error.message).toMatch(/text or files changed/);
    expect(changed.body.error.message).toMatch(/new Idempotency-Key/);
  });

  test('keys are scoped to the key owner: another owner may use the same key', async () => {
    const mine = await submit({ model_id: 12, paper_content: ESSAY }, 'shared-key');
    const theirs = await sb.call('POST', '/evaluations/one-pass', {
      key: sb.keys.org_member,
      json: { model_id: 31, paper_content: ESSAY },
      headers: { 'idempotency-key': 'shared-key' },
    });
    expect(mine.status).toBe(202);
    expect(theirs.status).toBe(202);
    expect(theirs.body.data.task_id).not.toBe(mine.body.data.task_id);
  });

  test('10 concurrent identical requests create exactly one task and reserve its cost once', async () => {
    const before = await sb.call('GET', '/credits', { key: sb.keys.org_admin });
    const count = taskCount();
    const body = { model_id: 21, paper_content: ESSAY, student_id: 'race' };
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        sb.call('POST', '/evaluations/one-pass', { key: sb.keys.org_admin, json: body, headers: { 'idempotency-key': 'race-key' } }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(202));
    const ids = new Set(replies.map((r) => r.body.data.task_id));
    expect(ids.size).toBe(1);
    expect(replies.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(9);
    expect(taskCount()).toBe(count + 1);
    const after = await sb.call('GET', '/credits', { key: sb.keys.org_admin });
    expect(after.body.data.reserved - before.body.data.reserved).toBe(replies[0].body.data.credit_cost);
  });

  test('multipart: same file replays, changed file bytes is 409, and the duplicate upload is not kept', async () => {
    const path = join(work, 'answer.txt');
    await writeFile(path, ESSAY);
    const send = async () => {
      const fd = new FormData();
      fd.append('model_id', '12');
      fd.append('answer_file', await openAsBlob(path, { type: 'text/plain' }), 'answer.txt');
      return sb.call('POST', '/evaluations/one-pass', { form: fd, headers: { 'idempotency-key': 'file-key' } });
    };
    const first = await send();
    expect(first.status).toBe(202);
    const again = await send();
    expect(again.status).toBe(202);
    expect(again.body.data.task_id).toBe(first.body.data.task_id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await writeFile(path, `${ESSAY}!`);
    const changed = await send();
    expect(changed.status).toBe(409);
    const { readdir } = await import('node:fs/promises');
    const dirs = await readdir(join(sb.dataDir, 'files', 'tasks'));
    expect(dirs).toContain(first.body.data.task_id);
    const db = openSqlite(join(sb.dataDir, 'sandbox.db'), { readonly: true });
    const withFiles = db.prepare('SELECT COUNT(DISTINCT task_id) AS n FROM task_files').get() as { n: number };
    db.close();
    expect(dirs).toHaveLength(withFiles.n);
  });
});

describe('magic student_id faults', () => {
  test('kct-429 refuses every submission with Retry-After and stores nothing', async () => {
    const count = taskCount();
    for (let i = 0; i < 2; i++) {
      const res = await submit({ model_id: 12, paper_content: ESSAY, student_id: 'kct-429' }, 'k429');
      expect(res.status).toBe(429);
      expect(res.body.error.code).toBe('rate_limited');
      expect(res.headers['retry-after']).toBe('1');
    }
    expect(taskCount()).toBe(count);
  });

  test('kct-503 refuses with 503 and Retry-After', async () => {
    const res = await submit({ model_id: 12, paper_content: ESSAY, student_id: 'kct-503' });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
  });

  test('kct-429-once / kct-503-once: the retry with the same key is accepted', async () => {
    for (const student of ['kct-429-once', 'kct-503-once']) {
      const body = { model_id: 12, paper_content: ESSAY, student_id: student };
      const first = await submit(body, `once-${student}`);
      expect(first.status).toBe(student.includes('429') ? 429 : 503);
      const retry = await submit(body, `once-${student}`);
      expect(retry.status).toBe(202);
      // A new logical submission (new key) meets the fault again.
      const next = await submit(body, `once-${student}-2`);
      expect(next.status).toBe(first.status);
    }
  });

  test('without a key, "-once" is tracked by the request fingerprint', async () => {
    const body = { model_id: 12, paper_content: `${ESSAY} fp`, student_id: 'kct-503-once' };
    expect((await submit(body)).status).toBe(503);
    expect((await submit(body)).status).toBe(202);
  });
});
