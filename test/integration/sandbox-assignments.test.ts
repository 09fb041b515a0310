import { FormData } from 'undici';
import { describe, expect, test } from 'vitest';
import { ESSAY, sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile({ latencyMs: 10 });

const assignment = (model_id: number, extra: Record<string, unknown> = {}) => ({
  model_id,
  assignment_name: 'Uniforms 9B',
  assignment_desc: 'Persuasive essay, set 9B',
  deadline_time: '2026-12-01T17:00:00Z',
  expected_number: 28,
  ...extra,
});
const credits = async (key = sb.keys.user) => (await sb.call('GET', '/credits', { key })).body.data;

describe('POST /assignments', () => {
  test('201 with assignment_id (from 1001 up), model_id, assignment_name and status active', async () => {
    const res = await sb.call('POST', '/assignments', { json: assignment(12, { file_type: 'text', project_subject: 'English' }) });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ assignment_id: expect.any(Number), model_id: 12, assignment_name: 'Uniforms 9B', status: 'active' });
    expect(res.body.data.assignment_id).toBeGreaterThanOrEqual(1001);
    const next = await sb.call('POST', '/assignments', { json: assignment(13) });
    expect(next.body.data.assignment_id).toBeGreaterThan(res.body.data.assignment_id);
  });

  test('403 no access, 404 missing, 409 not ready, 400 bad body', async () => {
    expect((await sb.call('POST', '/assignments', { json: assignment(21) })).status).toBe(403);
    const missing = await sb.call('POST', '/assignments', { json: assignment(77) });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('model_not_found');
    expect((await sb.call('POST', '/assignments', { json: assignment(14) })).body.error.code).toBe('model_not_ready');
    const badDate = await sb.call('POST', '/assignments', { json: assignment(12, { deadline_time: 'next friday' }) });
    expect(badDate.status).toBe(400);
    expect(JSON.stringify(badDate.body.error.details)).toMatch(/deadline_time/);
    const reversed = await sb.call('POST', '/assignments', { json: assignment(12, { start_time: '2027-01-01T00:00:00Z' }) });
    expect(reversed.status).toBe(400);
  });

  test('an assignment_id passed as model_id: 404 naming the mistake', async () => {
    const created = (await sb.call('POST', '/assignments', { json: assignment(12) })).body.data;
    const res = await sb.call('POST', '/assignments', { json: assignment(created.assignment_id) });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain(`${created.assignment_id} is an assignment_id`);
  });
});

describe('POST /evaluations (legacy path)', () => {
  test('starts PENDING, charged at acceptance, runs to SUCCESS without a second charge', async () => {
    const { assignment_id } = (await sb.call('POST', '/assignments', { json: assignment(12) })).body.data;
    const before = await credits();
    const res = await sb.call('POST', '/evaluations', { json: { assignment_id, paper_content: ESSAY, student_id: 'legacy-1' } });
    expect(res.status).toBe(200);
    const task = res.body.data;
    expect(task).toMatchObject({
      status: 'PENDING',
      stage: 'pending',
      assignment_id,
      model_id: 12,
      billing_mode: 'owner_user',
      scope: 'user',
      student_id: 'legacy-1',
      retryable: false,
    });
    expect(task.credits_charged).toBe(task.credit_cost);
    expect((await credits()).credits).toBe(before.credits - task.credit_cost);

    const final = await sb.waitFor(task.task_id, sb.keys.user);
    expect(final.status).toBe('SUCCESS');
    const result = (await sb.call('GET', `/evaluations/${task.task_id}`)).body.data;
    expect(result).toMatchObject({ status: 'SUCCESS', assignment_id, credits_charged: task.credit_cost });
    expect(result.evaluation).toHaveLength(4);
    expect((await credits()).credits).toBe(before.credits - task.credit_cost);
  });

  test('the Idempotency-Key does not apply: the same request twice is two tasks, two charges', async () => {
    const { assignment_id } = (await sb.call('POST', '/assignments', { json: assignment(12) })).body.data;
    const body = { assignment_id, paper_content: ESSAY };
    const headers = { 'idempotency-key': 'legacy-same' };
    const a = await sb.call('POST', '/evaluations', { json: body, headers });
    const b = await sb.call('POST', '/evaluations', { json: body, headers });
    expect(a.body.data.task_id).not.toBe(b.body.data.task_id);
  });

  test('402 before acceptance when the balance is short; nothing is created', async () => {
    const { assignment_id } = (await sb.call('POST', '/assignments', { key: sb.keys.broke, json: assignment(15) })).body.data;
    const res = await sb.call('POST', '/evaluations', { key: sb.keys.broke, json: { assignment_id, paper_content: ESSAY } });
    expect(res.status).toBe(402);
    expect(await credits(sb.keys.broke)).toMatchObject({ credits: 0, reserved: 0 });
  });

  test('a model_id where an assignment_id belongs: 404 that says so', async () => {
    const res = await sb.call('POST', '/evaluations', { json: { assignment_id: 12, paper_content: ESSAY } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('assignment_not_found');
    expect(res.body.error.message).toMatch(/12 is a model_id/);
    expect(res.body.error.message).toMatch(/one-pass/);
    const none = await sb.call('POST', '/evaluations', { json: { assignment_id: 99_999, paper_content: ESSAY } });
    expect(none.status).toBe(404);
    expect(none.body.error.message).toMatch(/POST \/assignments/);
  });

  test("another account's assignment is answered exactly as an unknown id (user and organization keys)", async () => {
    const { assignment_id } = (await sb.call('POST', '/assignments', { json: assignment(12) })).body.data;
    const unknown = 98_765;
    for (const key of [sb.keys.org_member, sb.keys.org_admin]) {
      const mine = await sb.call('POST', '/evaluations', { key, json: { assignment_id, paper_content: ESSAY } });
      const none = await sb.call('POST', '/evaluations', { key, json: { assignment_id: unknown, paper_content: ESSAY } });
      expect(mine.status).toBe(404);
      expect(mine.body.error.code).toBe('assignment_not_found');
      expect(mine.body.error.message).toBe(none.body.error.message.replace(String(unknown), String(assignment_id)));
    }
    // Nor does a model route tell that an assignment id exists in another account.
    const asModel = await sb.call('POST', '/evaluations/one-pass', {
      key: sb.keys.org_member,
      json: { model_id: assignment_id, paper_content: ESSAY },
    });
    const noModel = await sb.call('POST', '/evaluations/one-pass', {
      key: sb.keys.org_member,
      json: { model_id: unknown, paper_content: ESSAY },
    });
    expect(asModel.body.error.message).toBe(noModel.body.error.message.replace(String(unknown), String(assignment_id)));
    // Its owner still gets the hint.
    const own = await sb.call('POST', '/evaluations/one-pass', { json: { model_id: assignment_id, paper_content: ESSAY } });
    expect(own.body.error.message).toMatch(/is an assignment_id/);
  });

  test('multipart with an answer file; unknown fields and rubric files are refused', async () => {
    const { assignment_id } = (await sb.call('POST', '/assignments', { json: assignment(13) })).body.data;
    const fd = new FormData();
    fd.append('assignment_id', String(assignment_id));
    fd.append('style', 'Long');
    fd.append('answer_files', new Blob([ESSAY], { type: 'text/plain' }), 'essay.txt');
    const res = await sb.call('POST', '/evaluations', { form: fd });
    expect(res.status).toBe(200);
    expect((await sb.waitFor(res.body.data.task_id, sb.keys.user)).status).toBe('SUCCESS');

    const bad = new FormData();
    bad.append('assignment_id', String(assignment_id));
    bad.append('rubric_file', new Blob([ESSAY], { type: 'text/plain' }), 'rubric.txt');
    bad.append('paper_content', ESSAY);
    const refused = await sb.call('POST', '/evaluations', { form: bad });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('unknown_file_field');
  });

  test('magic kct-503 refuses the legacy path too (clients must not retry it blindly)', async () => {
    const { assignment_id } = (await sb.call('POST', '/assignments', { json: assignment(12) })).body.data;
    const before = await credits();
    const res = await sb.call('POST', '/evaluations', { json: { assignment_id, paper_content: ESSAY, student_id: 'kct-503' } });
    expect(res.status).toBe(503);
    expect((await credits()).credits).toBe(before.credits);
  });
});
