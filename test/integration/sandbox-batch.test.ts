import { describe, expect, test } from 'vitest';
import { ESSAY, launch, sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile({ workers: 4 });

const items = (n: number, extra: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: n }, (_, i) => ({ model_id: 12, paper_content: `${ESSAY} #${i}`, student_id: `s${i}`, ...extra(i) }));
const post = (body: unknown, key?: string, headers?: Record<string, string>) =>
  sb.call('POST', '/evaluations/batch', { json: body, ...(key ? { key } : {}), ...(headers ? { headers } : {}) });
const credits = async (key = sb.keys.user) => (await sb.call('GET', '/credits', { key })).body.data;

describe('POST /evaluations/batch', () => {
  test('202 with count; items run as their own tasks; the record lists them; charged per item on success', async () => {
    const before = await credits();
    const res = await post({ evaluations: items(5) });
    expect(res.status).toBe(202);
    const batch = res.body.data;
    expect(batch).toMatchObject({
      status: 'QUEUED',
      stage: 'queued',
      count: 5,
      credits_charged: 0,
      retryable: true,
      billing_mode: 'owner_user',
      scope: 'user',
    });
    expect(batch.task_id).toMatch(/^tsk_/);
    expect(Number.isInteger(batch.credit_cost) && batch.credit_cost >= 5).toBe(true);

    const final = await sb.waitFor(batch.task_id, sb.keys.user);
    expect(final).toMatchObject({ status: 'SUCCESS', stage: 'completed', message: '5 of 5 items succeeded.' });
    const record = (await sb.call('GET', `/evaluations/${batch.task_id}`)).body.data;
    expect(record).toMatchObject({
      status: 'SUCCESS',
      count: 5,
      succeeded: 5,
      failed: 0,
      cancelled: 0,
      credits_charged: batch.credit_cost,
    });
    expect(record.items.map((i: any) => i.index)).toEqual([0, 1, 2, 3, 4]);
    expect(record.items.map((i: any) => i.student_id)).toEqual(['s0', 's1', 's2', 's3', 's4']);
    for (const item of record.items) {
      expect(item).toMatchObject({ status: 'SUCCESS', batch_id: batch.task_id, max_score: 20, graded_by: "the sandbox's offline grader" });
      expect(item.evaluation).toHaveLength(4);
    }
    const alone = (await sb.call('GET', `/evaluations/${record.items[2].task_id}`)).body.data;
    // The result names who marked it: a sandbox score is not the service's.
    expect(alone).toMatchObject({
      task_id: record.items[2].task_id,
      status: 'SUCCESS',
      batch_id: batch.task_id,
      index: 2,
      student_id: 's2',
      graded_by: "the sandbox's offline grader",
    });
    expect((await credits()).credits).toBe(before.credits - batch.credit_cost);
  });

  test('some items fail: the batch is SUCCESS with per-item statuses; failed items are not charged', async () => {
    const before = await credits();
    const res = await post({ evaluations: items(3, (i) => (i === 1 ? { paper_content: `${ESSAY} KCT-SANDBOX-FAIL` } : {})) });
    const final = await sb.waitFor(res.body.data.task_id, sb.keys.user);
    expect(final.status).toBe('SUCCESS');
    expect(final.message).toBe('2 of 3 items succeeded; 1 failed.');
    const record = (await sb.call('GET', `/evaluations/${res.body.data.task_id}`)).body.data;
    expect(record.items.map((i: any) => i.status)).toEqual(['SUCCESS', 'FAILURE', 'SUCCESS']);
    expect(record.items[1].evaluation[0]).toMatchObject({ type: 'error' });
    expect(record.items[1].credits_charged).toBe(0);
    const charged = record.items.filter((i: any) => i.status === 'SUCCESS').reduce((s: number, i: any) => s + i.credit_cost, 0);
    expect(record.credits_charged).toBe(charged);
    expect((await credits()).credits).toBe(before.credits - charged);
  });

  test('every item fails: the batch is FAILURE', async () => {
    const res = await post({ evaluations: items(2, () => ({ paper_content: 'KCT-SANDBOX-FAIL' })) });
    expect((await sb.waitFor(res.body.data.task_id, sb.keys.user)).status).toBe('FAILURE');
  });

  test('400 outside 1 to 100 items, for an item without text, and for unknown item fields', async () => {
    for (const evaluations of [[], items(101)]) {
      const res = await post({ evaluations });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_batch_size');
    }
    const noText = await post({ evaluations: [{ model_id: 12, paper_content: ESSAY }, { model_id: 12 }] });
    expect(noText.status).toBe(400);
    expect(noText.body.error.message).toContain('evaluations[1]');
    const unknown = await post({ evaluations: [{ model_id: 12, paper_content: ESSAY, file: 'x' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details[0].path).toBe('evaluations[0]');
  });

  test('100 items are accepted in one request', async () => {
    const res = await post({ evaluations: items(100) });
    expect(res.status).toBe(202);
    expect(res.body.data.count).toBe(100);
    await sb.call('POST', `/evaluations/${res.body.data.task_id}/cancel`);
  });

  test('model errors name the item: 403, 404, 409', async () => {
    const forbidden = await post({ evaluations: [...items(2), { model_id: 21, paper_content: ESSAY }] });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.message).toMatch(/^evaluations\[2\]/);
    expect((await post({ evaluations: [{ model_id: 404, paper_content: ESSAY }] })).status).toBe(404);
    expect((await post({ evaluations: [{ model_id: 14, paper_content: ESSAY }] })).status).toBe(409);
  });

  test('402 when the items together cost more than is available; nothing is queued', async () => {
    const res = await post({ evaluations: items(3, () => ({ model_id: 15 })) }, sb.keys.broke);
    expect(res.status).toBe(402);
    expect(await credits(sb.keys.broke)).toMatchObject({ reserved: 0 });
  });

  test('idempotency: same key and body replays the batch; a changed body is 409', async () => {
    const body = { evaluations: items(2, () => ({ model_id: 13 })) };
    const headers = { 'idempotency-key': 'batch-key' };
    const first = await post(body, undefined, headers);
    const again = await post(body, undefined, headers);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.task_id).toBe(first.body.data.task_id);
    const changed = await post({ evaluations: items(3) }, undefined, headers);
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe('idempotency_key_reused');
  });

  test('cancel a batch: unfinished items are cancelled, the batch is CANCEL, a second cancel is 409', async () => {
    const slow = await launch({ latencyMs: 100, workers: 1 });
    try {
      const res = await slow.call('POST', '/evaluations/batch', { json: { evaluations: items(4) } });
      const batchId = res.body.data.task_id;
      const cancelled = await slow.call('POST', `/evaluations/${batchId}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ task_id: batchId, status: 'CANCEL', stage: 'cancelled', credits_charged: 0 });
      expect(cancelled.body.data.items.every((i: any) => i.status === 'CANCEL')).toBe(true);
      expect((await slow.call('GET', `/evaluations/${batchId}/status`)).body.data.status).toBe('CANCEL');
      expect((await slow.call('POST', `/evaluations/${batchId}/cancel`)).status).toBe(409);
      expect((await slow.call('GET', '/credits')).body.data).toMatchObject({ credits: 1000, reserved: 0 });
    } finally {
      await slow.dispose();
    }
  });

  test('while running, the batch snapshot shows items done as steps', async () => {
    const slow = await launch({ latencyMs: 15, workers: 1 });
    try {
      const res = await slow.call('POST', '/evaluations/batch', { json: { evaluations: items(3) } });
      const seen = await slow.waitFor(res.body.data.task_id, slow.keys.user, (s) => s.status === 'PROGRESS' && s.cur_step >= 1);
      expect(seen).toMatchObject({ stage: 'processing', cur_step_name: 'Marking items', total_step: 3 });
      expect(seen.progress).toBe(Math.round((seen.cur_step / 3) * 100));
      expect((await slow.waitFor(res.body.data.task_id, slow.keys.user)).status).toBe('SUCCESS');
    } finally {
      await slow.dispose();
    }
  });
});
