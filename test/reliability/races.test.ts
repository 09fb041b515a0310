// Races, counted: storms of the same Idempotency-Key, a balance run dry by concurrent
// submissions, cancel against finish (tasks and a batch). Every count is checked against the
// database of a real `kct sandbox` process.
import { join } from 'node:path';
import { FormData } from 'undici';
import { describe, expect, test } from 'vitest';
import { ESSAY, FULL, openReadOnly, random, SEED, sandboxForFile, sleep, Transcript, until } from './lib.js';

const transcript = new Transcript();
const env = sandboxForFile(transcript, {
  args: ['--latency', '20', '--workers', '4', '--max-connections', '400', '--max-key-connections', '400'],
});

const onePass = (key: string, json: unknown, idempotencyKey?: string) =>
  env.client.call(`${env.sb.baseUrl}/evaluations/one-pass`, {
    key,
    json,
    ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
  });

async function final(key: string, taskId: string): Promise<any> {
  for (;;) {
    const res = await env.client.call(`${env.sb.baseUrl}/evaluations/${taskId}`, { key });
    if (['SUCCESS', 'FAILURE', 'CANCEL'].includes(res.body.data.status)) return res.body.data;
    await sleep(50);
  }
}

const tally = (values: (string | number)[]) => values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});

describe(`races (seed ${SEED})`, () => {
  test('50 identical requests with one Idempotency-Key: 50 × 202 with one task id, one task stored', async () => {
    const body = { model_id: 12, student_id: 'storm-same', paper_content: ESSAY };
    const answers = await Promise.all(Array.from({ length: 50 }, () => onePass(env.sb.keys.user, body, 'storm-1')));
    expect(tally(answers.map((a) => a.status))).toEqual({ 202: 50 });
    expect(new Set(answers.map((a) => a.body.data.task_id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true').length).toBe(49);
    const db = await openReadOnly(join(env.sb.dataDir, 'sandbox.db'));
    try {
      expect(db.get(`SELECT COUNT(*) AS n FROM tasks WHERE student_id = 'storm-same'`)).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  test('50 different bodies with one Idempotency-Key: one 202, 49 × 409 idempotency_key_reused', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        onePass(env.sb.keys.user, { model_id: 12, student_id: `storm-diff-${i}`, paper_content: ESSAY }, 'storm-2'),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 202: 1, 409: 49 });
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('idempotency_key_reused');
  });

  test('20 identical multipart uploads with one key: one task, and the replays leave no file behind', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => {
        const form = new FormData();
        form.append('model_id', '12');
        form.append('student_id', 'storm-files');
        form.append('answer_file', new Blob([ESSAY], { type: 'text/plain' }), 'essay.txt');
        return env.client.call(`${env.sb.baseUrl}/evaluations/one-pass`, {
          key: env.sb.keys.user,
          form,
          headers: { 'idempotency-key': 'storm-3' },
        });
      }),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 202: 20 });
    const taskId = answers[0].body.data.task_id;
    const { readdirSync } = await import('node:fs');
    await final(env.sb.keys.user, taskId);
    expect(readdirSync(join(env.sb.dataDir, 'files', 'tasks')).filter((d) => d === taskId)).toHaveLength(1);
    expect(readdirSync(join(env.sb.dataDir, 'files', 'incoming'))).toEqual([]);
  });

  test('a balance run dry by concurrent submissions: exactly the balance is accepted and charged, never more', async () => {
    const tries = FULL ? 300 : 220;
    const answers = await Promise.all(
      Array.from({ length: tries }, (_, i) =>
        onePass(
          env.sb.keys.org_member,
          { model_id: 31, student_id: `dry-${i}`, paper_content: 'A short answer about a turning point in my life.' },
          `dry-${i}`,
        ),
      ),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 202: 200, 402: tries - 200 });
    for (const a of answers.filter((x) => x.status === 402)) expect(a.body.error.code).toBe('insufficient_credits');
    const results = await Promise.all(
      answers.filter((a) => a.status === 202).map((a) => final(env.sb.keys.org_member, a.body.data.task_id)),
    );
    expect(tally(results.map((r) => r.status))).toEqual({ SUCCESS: 200 });
    const credits = (await env.client.call(`${env.sb.baseUrl}/credits`, { key: env.sb.keys.org_member })).body.data;
    expect(credits).toMatchObject({ credits: 0, reserved: 0, available: 0 });
    expect(results.reduce((n, r) => n + r.credits_charged, 0)).toBe(200);
  });

  test('cancel against finish: each task ends CANCEL uncharged or final and charged, never both; the balance agrees', async () => {
    const rand = random(SEED + 1);
    const count = FULL ? 100 : 30;
    const before = (await env.client.call(`${env.sb.baseUrl}/credits`, { key: env.sb.keys.user })).body.data.credits;
    const outcomes = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const task = (await onePass(env.sb.keys.user, { model_id: 12, student_id: `race-${i}`, paper_content: ESSAY }, `race-${SEED}-${i}`))
          .body.data;
        await sleep(rand() * (FULL ? 3_000 : 1_000));
        const cancel = await env.client.call(`${env.sb.baseUrl}/evaluations/${task.task_id}/cancel`, {
          key: env.sb.keys.user,
          method: 'POST',
        });
        const end = await final(env.sb.keys.user, task.task_id);
        return { cancel: cancel.status, status: end.status, charged: end.credits_charged, cost: end.credit_cost };
      }),
    );
    for (const o of outcomes) {
      if (o.cancel === 200) expect(o).toMatchObject({ status: 'CANCEL', charged: 0 });
      else {
        expect(o.cancel).toBe(409);
        expect(o.status).toBe('SUCCESS');
        expect(o.charged).toBe(o.cost);
      }
    }
    const after = (await env.client.call(`${env.sb.baseUrl}/credits`, { key: env.sb.keys.user })).body.data;
    expect(after.reserved).toBe(0);
    expect(before - after.credits).toBe(outcomes.reduce((n, o) => n + o.charged, 0));
    console.log(
      `[reliability] cancel against finish: ${count} tasks, ${tally(outcomes.map((o) => o.status)).CANCEL ?? 0} cancelled in time, ${tally(outcomes.map((o) => o.status)).SUCCESS ?? 0} finished first`,
    );
  });

  test('a batch cancelled while its items run: finished items keep their charge, the rest are cancelled uncharged', async () => {
    const before = (await env.client.call(`${env.sb.baseUrl}/credits`, { key: env.sb.keys.user })).body.data.credits;
    const evaluations = Array.from({ length: 20 }, (_, i) => ({ model_id: 12, student_id: `batch-${i}`, paper_content: ESSAY }));
    const batch = (await env.client.call(`${env.sb.baseUrl}/evaluations/batch`, { key: env.sb.keys.user, json: { evaluations } })).body
      .data;
    // cancelled once its items are under way (one no longer queued), not after a guessed pause
    await until('an item of the batch under way', async () => {
      const record = (await env.client.call(`${env.sb.baseUrl}/evaluations/${batch.task_id}`, { key: env.sb.keys.user })).body.data;
      return ((record.items ?? []) as { status: string }[]).some((item) => item.status !== 'QUEUED');
    });
    const cancel = await env.client.call(`${env.sb.baseUrl}/evaluations/${batch.task_id}/cancel`, {
      key: env.sb.keys.user,
      method: 'POST',
    });
    expect([200, 409]).toContain(cancel.status);
    const record = await final(env.sb.keys.user, batch.task_id);
    const items = record.items as { status: string; credits_charged: number; credit_cost: number }[];
    for (const item of items) {
      expect(['SUCCESS', 'CANCEL']).toContain(item.status);
      expect(item.credits_charged).toBe(item.status === 'SUCCESS' ? item.credit_cost : 0);
    }
    const after = (await env.client.call(`${env.sb.baseUrl}/credits`, { key: env.sb.keys.user })).body.data;
    expect(before - after.credits).toBe(items.reduce((n, i) => n + i.credits_charged, 0));
    expect(record.credits_charged).toBe(before - after.credits);
  });
});
