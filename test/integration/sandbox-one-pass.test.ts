import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { ESSAY, sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile();

const submit = (json: unknown, key?: string, headers?: Record<string, string>) =>
  sb.call('POST', '/evaluations/one-pass', { json, ...(key ? { key } : {}), ...(headers ? { headers } : {}) });

describe('POST /evaluations/one-pass (JSON)', () => {
  test('202 with exactly the fields of rule 5', async () => {
    const res = await submit({ model_id: 12, paper_content: ESSAY, student_id: 'anon-7', style: 'Short' });
    expect(res.status).toBe(202);
    const task = res.body.data;
    expect(Object.keys(task).sort()).toEqual(
      [
        'billing_mode',
        'credit_cost',
        'credits_charged',
        'model_id',
        'retryable',
        'scope',
        'stage',
        'status',
        'student_id',
        'task_id',
      ].sort(),
    );
    expect(task).toMatchObject({
      status: 'QUEUED',
      stage: 'queued',
      model_id: 12,
      student_id: 'anon-7',
      billing_mode: 'owner_user',
      scope: 'user',
      credits_charged: 0,
      retryable: true,
    });
    expect(task.task_id).toMatch(/^tsk_[0-9a-f]{24}$/);
    expect(Number.isInteger(task.credit_cost) && task.credit_cost >= 1).toBe(true);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  test('student_id is null when not sent; an organization key marks with the organization model', async () => {
    const res = await submit({ model_id: 21, paper_content: ESSAY }, sb.keys.org_admin);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ student_id: null, scope: 'organization', billing_mode: 'owner_user' });
  });

  test.each([
    ['unknown field', { model_id: 12, paper_content: ESSAY, colour: 'red' }, /unknown field "colour"/],
    ['missing answer', { model_id: 12 }, /paper_content/],
    ['model_id not an integer', { model_id: '12', paper_content: ESSAY }, /model_id/],
    ['bad style', { model_id: 12, paper_content: ESSAY, style: 'Poem' }, /style/],
    ['bad rubric entry', { model_id: 12, paper_content: ESSAY, rubrics: [{ max_score: 3 }] }, /rubrics\[0\]\.item/],
    ['missing model_id', { paper_content: ESSAY }, /model_id/],
  ])('400 for %s, naming the field', async (_name, body, pattern) => {
    const res = await submit(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message + JSON.stringify(res.body.error.details)).toMatch(pattern);
    expect(Array.isArray(res.body.error.details)).toBe(true);
  });

  test('400 for malformed JSON, an array body and a missing body', async () => {
    const bad = await sb.call('POST', '/evaluations/one-pass', {
      rawBody: '{"model_id": 12,',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_json');
    const arr = await submit([1, 2]);
    expect(arr.status).toBe(400);
    const none = await sb.call('POST', '/evaluations/one-pass', {});
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/body is missing/);
  });

  test('400 for an unsupported content type, plain text as any other (it was invalid_request)', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/xml']) {
      const res = await sb.call('POST', '/evaluations/one-pass', { rawBody: 'model_id=12', headers: { 'content-type': type } });
      expect(res.status, type).toBe(400);
      expect(res.body.error.code, type).toBe('unsupported_content_type');
    }
  });

  test('402 when the owner cannot afford it, and nothing is queued', async () => {
    const res = await submit({ model_id: 15, paper_content: ESSAY }, sb.keys.broke);
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('insufficient_credits');
    expect(res.body.error.message).toMatch(/costs \d+ credit/);
    const credits = await sb.call('GET', '/credits', { key: sb.keys.broke });
    expect(credits.body.data).toMatchObject({ credits: 0, reserved: 0 });
  });

  test('403 for a model the key cannot see, either way round', async () => {
    const userOnOrg = await submit({ model_id: 21, paper_content: ESSAY });
    expect(userOnOrg.status).toBe(403);
    expect(userOnOrg.body.error.code).toBe('model_forbidden');
    const orgOnUser = await submit({ model_id: 12, paper_content: ESSAY }, sb.keys.org_admin);
    expect(orgOnUser.status).toBe(403);
  });

  test('404 for an unknown model; the message names an assignment_id passed by mistake', async () => {
    const unknown = await submit({ model_id: 999, paper_content: ESSAY });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('model_not_found');
    expect(unknown.body.error.message).toMatch(/GET \/models/);

    const db = openSqlite(join(sb.dataDir, 'sandbox.db'));
    db.prepare(`INSERT INTO assignments (assignment_id, model_id, owner_user_id, assignment_name, assignment_desc, created_at)
      VALUES (1001, 12, 1, 'Uniforms 9B', 'desc', '2026-01-01T00:00:00Z')`).run();
    db.close();
    const assignment = await submit({ model_id: 1001, paper_content: ESSAY });
    expect(assignment.status).toBe(404);
    expect(assignment.body.error.message).toMatch(/1001 is an assignment_id/);
    expect(assignment.body.error.message).toMatch(/model_id from GET \/models/);
  });

  test('409 model_not_ready for a model still training', async () => {
    const res = await submit({ model_id: 14, paper_content: ESSAY });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('model_not_ready');
    expect(res.body.error.message).toMatch(/training/);
  });

  test('400 for a malformed Idempotency-Key', async () => {
    const res = await submit({ model_id: 12, paper_content: ESSAY }, undefined, { 'idempotency-key': 'x'.repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_idempotency_key');
  });

  test('a 4 MB body limit and per-field limits: within them a body is validated, past them 400 or 413 naming the limit', async () => {
    // Parsed (so validated, not refused as too large) well past fastify's 1 MB default.
    const big = await submit({ model_id: 12, paper_content: 'word '.repeat(100_000), colour: 'red' });
    expect(big.status).toBe(400);
    expect(big.body.error.message).toMatch(/colour/);
    const long = await submit({ model_id: 12, paper_content: 'x'.repeat(500_001) });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('field_too_long');
    expect(long.body.error.message).toBe(
      'paper_content is 500,001 characters long; the limit is 500,000 characters. Send a long answer as a file (up to 20 MB).',
    );
    const tooBig = await submit({ model_id: 12, rubric_text: 'Criterion x (5 marks): text\n'.repeat(400_000), paper_content: 'x' });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.code).toBe('body_too_large');
    expect(tooBig.body.error.message).toMatch(/larger than the 4 MB limit of this endpoint/);
  });

  test('lists, nesting and marks have limits too: 400 naming the field', async () => {
    const rubrics = Array.from({ length: 51 }, (_, i) => ({ item: `C${i}`, max_score: 1 }));
    const many = await submit({ model_id: 12, paper_content: ESSAY, rubrics });
    expect(many.status).toBe(400);
    expect(many.body.error.code).toBe('too_many_items');
    expect(many.body.error.message).toBe('rubrics holds 51 items; at most 50 are accepted.');
    const marks = await submit({ model_id: 12, paper_content: ESSAY, total_score: 9007199254740992 });
    expect(marks.status).toBe(400);
    expect(marks.body.error.code).toBe('number_out_of_range');
    const deep = `{"model_id": 12, "paper_content": "x", "current_feedbacks": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const nested = await sb.call('POST', '/evaluations/one-pass', { rawBody: deep, headers: { 'content-type': 'application/json' } });
    expect(nested.status).toBe(400);
    expect(nested.body.error.code).toBe('too_deep');
    expect(nested.body.error.message).toMatch(/deeper than 16 levels \(at current_feedbacks(\[0\])+\)/);
    // a body over 256 KiB is parsed and fingerprinted on a request thread: nested this deep, it once overflowed the fingerprint (500)
    const objects = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    for (const path of ['/evaluations/one-pass', '/evaluations/batch']) {
      const refused = await sb.call('POST', path, { rawBody: objects, headers: { 'content-type': 'application/json' } });
      expect(refused.status, path).toBe(400);
      expect(refused.body.error.code, path).toBe('too_deep');
    }
  });
});
