import { FormData } from 'undici';
import { describe, expect, test } from 'vitest';
import { ESSAY, sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile({ latencyMs: 30, workers: 2 });

const submit = async (json: Record<string, unknown>, key = sb.keys.user) => {
  const res = await sb.call('POST', '/evaluations/one-pass', { json, key });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.data as { task_id: string; credit_cost: number };
};
const credits = async (key = sb.keys.user) => (await sb.call('GET', '/credits', { key })).body.data;

describe('task flow', () => {
  test('QUEUED → UPLOADING → SUBMITTED → PROGRESS (steps) → SUCCESS, charged exactly once', async () => {
    const before = await credits();
    const task = await submit({ model_id: 12, paper_content: ESSAY });
    const during = await credits();
    expect(during.reserved - before.reserved).toBe(task.credit_cost);
    expect(during.available).toBe(before.available - task.credit_cost);

    const seen: any[] = [];
    const final = await sb.waitFor(task.task_id, sb.keys.user, (s) => {
      seen.push(s);
      return s.status === 'SUCCESS' || s.status === 'FAILURE';
    });
    expect(final).toEqual({ task_id: task.task_id, status: 'SUCCESS', stage: 'completed' });
    const order = ['QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS', 'SUCCESS'];
    const statuses = seen.map((s) => s.status);
    expect(statuses.map((s) => order.indexOf(s))).toEqual([...statuses.map((s) => order.indexOf(s))].sort((a, b) => a - b));
    const progress = seen.filter((s) => s.status === 'PROGRESS');
    expect(progress.length).toBeGreaterThan(1);
    for (const s of progress) {
      expect(s.stage).toBe('processing');
      expect(s.total_step).toBe(4);
      expect(Number.isInteger(s.cur_step) && s.cur_step >= 1 && s.cur_step <= 4).toBe(true);
      expect(typeof s.cur_step_name).toBe('string');
      expect(s.progress).toBeGreaterThanOrEqual(0);
      expect(s.progress).toBeLessThanOrEqual(100);
    }
    expect(new Set(progress.map((s) => s.cur_step)).size).toBeGreaterThan(1);

    const result = (await sb.call('GET', `/evaluations/${task.task_id}`)).body.data;
    expect(result).toMatchObject({
      status: 'SUCCESS',
      stage: 'completed',
      credits_charged: task.credit_cost,
      credit_cost: task.credit_cost,
      max_score: 20,
    });
    expect(result.evaluation).toHaveLength(4);
    for (const e of result.evaluation) {
      expect(e.score).toBeGreaterThanOrEqual(0);
      expect(e.score).toBeLessThanOrEqual(e.max_score);
      expect(typeof e.feedback).toBe('string');
    }
    expect(result.rubrics.map((r: any) => r.item)).toEqual([
      'Thesis & position',
      'Evidence & reasoning',
      'Organisation',
      'Language & conventions',
    ]);
    expect(result.rubrics[0].description).toBeTruthy();

    const after = await credits();
    expect(after.credits).toBe(before.credits - task.credit_cost);
    expect(after.reserved).toBe(before.reserved);
    // Reading it again charges nothing more.
    await sb.call('GET', `/evaluations/${task.task_id}`);
    expect((await credits()).credits).toBe(after.credits);
  });

  test('the organization key is billed to its owner, and the task records the scope', async () => {
    const before = await credits(sb.keys.org_admin);
    const task = await submit({ model_id: 21, paper_content: ESSAY }, sb.keys.org_admin);
    await sb.waitFor(task.task_id, sb.keys.org_admin);
    const result = (await sb.call('GET', `/evaluations/${task.task_id}`, { key: sb.keys.org_admin })).body.data;
    expect(result).toMatchObject({ status: 'SUCCESS', scope: 'organization', billing_mode: 'owner_user' });
    expect((await credits(sb.keys.org_admin)).credits).toBe(before.credits - task.credit_cost);
  });

  test('QUEUED snapshot carries position and length as integers', async () => {
    const blockers = await Promise.all([
      submit({ model_id: 12, paper_content: `${ESSAY} KCT-SANDBOX-SLOW` }),
      submit({ model_id: 12, paper_content: `${ESSAY} KCT-SANDBOX-SLOW 2` }),
    ]);
    const queued = await submit({ model_id: 12, paper_content: `${ESSAY} waiting` });
    const snap = (await sb.call('GET', `/evaluations/${queued.task_id}/status`)).body.data;
    expect(snap).toMatchObject({ task_id: queued.task_id, status: 'QUEUED', stage: 'queued', position: 1, length: 1 });
    const result = (await sb.call('GET', `/evaluations/${queued.task_id}`)).body.data;
    expect(result).toMatchObject({ status: 'QUEUED', position: 1, length: 1, credits_charged: 0 });
    for (const t of [...blockers, queued]) await sb.call('POST', `/evaluations/${t.task_id}/cancel`);
  });

  test('a cancelled task leaves the queue: the tasks behind it move up, the length shrinks', async () => {
    const blockers = await Promise.all([
      submit({ model_id: 12, paper_content: `${ESSAY} KCT-SANDBOX-SLOW 3` }),
      submit({ model_id: 12, paper_content: `${ESSAY} KCT-SANDBOX-SLOW 4` }),
    ]);
    const waiting = [];
    for (const n of [1, 2, 3]) waiting.push(await submit({ model_id: 12, paper_content: `${ESSAY} waiting ${n}` }));
    const place = async (taskId: string) => {
      const snap = (await sb.call('GET', `/evaluations/${taskId}/status`)).body.data;
      return { status: snap.status, position: snap.position, length: snap.length };
    };
    expect(await place(waiting[2]!.task_id)).toEqual({ status: 'QUEUED', position: 3, length: 3 });
    await sb.call('POST', `/evaluations/${waiting[1]!.task_id}/cancel`);
    expect(await place(waiting[0]!.task_id)).toEqual({ status: 'QUEUED', position: 1, length: 2 });
    expect(await place(waiting[2]!.task_id)).toEqual({ status: 'QUEUED', position: 2, length: 2 });
    for (const t of [...blockers, ...waiting]) await sb.call('POST', `/evaluations/${t.task_id}/cancel`);
  });

  test('magic KCT-SANDBOX-FAIL: FAILURE with an error entry, credits_charged 0, balance unchanged', async () => {
    const before = await credits();
    const task = await submit({ model_id: 13, paper_content: `${ESSAY} KCT-SANDBOX-FAIL` });
    const final = await sb.waitFor(task.task_id, sb.keys.user);
    expect(final.status).toBe('FAILURE');
    expect(final.stage).toBe('failed');
    expect(final.message).toMatch(/KCT-SANDBOX-FAIL/);
    const result = (await sb.call('GET', `/evaluations/${task.task_id}`)).body.data;
    expect(result.credits_charged).toBe(0);
    expect(result.evaluation).toEqual([{ type: 'error', item: 'error', comment: expect.stringContaining('magic input') }]);
    expect(await credits()).toEqual(before);
  });

  test('an answer with no usable text ends FAILURE with the reason', async () => {
    const task = await submit({ model_id: 12, paper_content: '   \n  ' });
    const final = await sb.waitFor(task.task_id, sb.keys.user);
    expect(final.status).toBe('FAILURE');
    const result = (await sb.call('GET', `/evaluations/${task.task_id}`)).body.data;
    expect(result.evaluation[0]).toMatchObject({ type: 'error', comment: expect.stringMatching(/no usable text/) });
    expect(result.credits_charged).toBe(0);
  });

  test('a file that cannot be read ends FAILURE naming the file', async () => {
    const fd = new FormData();
    fd.append('model_id', '12');
    fd.append('answer_file', new Blob([Buffer.from('this is not a pdf at all')], { type: 'application/pdf' }), 'scan.pdf');
    const res = await sb.call('POST', '/evaluations/one-pass', { form: fd });
    expect(res.status).toBe(202);
    const final = await sb.waitFor(res.body.data.task_id, sb.keys.user);
    expect(final.status).toBe('FAILURE');
    expect(final.message).toContain('"scan.pdf"');
  });
});

describe('cancel and ownership', () => {
  test('cancel a running task: 200 with CANCEL; it never becomes SUCCESS and is not charged', async () => {
    const before = await credits();
    const task = await submit({ model_id: 12, paper_content: `${ESSAY} KCT-SANDBOX-SLOW cancel me` });
    const res = await sb.call('POST', `/evaluations/${task.task_id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ task_id: task.task_id, status: 'CANCEL', stage: 'cancelled', credits_charged: 0 });
    const snap = (await sb.call('GET', `/evaluations/${task.task_id}/status`)).body.data;
    expect(snap).toMatchObject({ status: 'CANCEL', stage: 'cancelled' });
    expect(await credits()).toEqual(before);

    const again = await sb.call('POST', `/evaluations/${task.task_id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('task_not_cancellable');
    expect(again.body.error.message).toContain('CANCEL');
  });

  test('cancel a finished task: 409 naming its status', async () => {
    const task = await submit({ model_id: 12, paper_content: `${ESSAY} final` });
    await sb.waitFor(task.task_id, sb.keys.user);
    const res = await sb.call('POST', `/evaluations/${task.task_id}/cancel`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('SUCCESS');
  });

  test('unknown task: 404 on status, result and cancel', async () => {
    for (const [method, path] of [
      ['GET', '/status'],
      ['GET', ''],
      ['POST', '/cancel'],
    ]) {
      const res = await sb.call(method, `/evaluations/tsk_ffffffffffffffffffffffff${path}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('task_not_found');
    }
  });

  test("another owner's task is 404, and cannot be cancelled", async () => {
    const task = await submit({ model_id: 12, paper_content: `${ESSAY} private` });
    const other = sb.keys.org_member;
    expect((await sb.call('GET', `/evaluations/${task.task_id}/status`, { key: other })).status).toBe(404);
    expect((await sb.call('GET', `/evaluations/${task.task_id}`, { key: other })).status).toBe(404);
    expect((await sb.call('POST', `/evaluations/${task.task_id}/cancel`, { key: other })).status).toBe(404);
    expect((await sb.call('GET', `/evaluations/${task.task_id}/status`)).status).toBe(200);
  });
});
