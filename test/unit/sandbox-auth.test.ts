import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestSandbox } from './sandbox-helpers.js';
import { ESSAY, launch } from './sandbox-helpers.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await launch();
});
afterAll(async () => {
  await sb.dispose();
});

describe('authentication (spec 5)', () => {
  test('missing key: 401 in the error envelope, with a request id header', async () => {
    const res = await sb.call('GET', '/credits', { key: null });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'unauthenticated', status: 401 });
    expect(res.body.error.message).toMatch(/X-API-Key/);
    expect(res.body.request_id).toMatch(/^req_[0-9a-f]+$/);
    expect(res.headers['x-request-id']).toBe(res.body.request_id);
  });

  test('unknown key and non-kct key: 401, and the key is never echoed', async () => {
    const unknown = await sb.call('GET', '/models', { key: 'kct_sbx_00000000000000000000000000000000' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_api_key');
    expect(JSON.stringify(unknown.body)).not.toContain('kct_sbx_0000');
    const foreign = await sb.call('GET', '/models', { key: 'sk-proj-abcdef' });
    expect(foreign.status).toBe(401);
    expect(foreign.body.error.message).toMatch(/begin with kct_/);
    expect(JSON.stringify(foreign.body)).not.toContain('sk-proj-abcdef');
  });

  test('legacy X-TOKEN-KEY header alone: 401 telling to use X-API-Key', async () => {
    const res = await sb.call('GET', '/credits', { key: null, headers: { 'x-token-key': sb.keys.user } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('legacy_auth_header');
    expect(res.body.error.message).toMatch(/X-API-Key/);
  });

  test('former admin organization key: 403 on every endpoint', async () => {
    const key = sb.keys.former_admin;
    const calls = [
      sb.call('GET', '/credits', { key }),
      sb.call('GET', '/models', { key }),
      sb.call('POST', '/evaluations/one-pass', { key, json: { model_id: 21, paper_content: ESSAY } }),
      sb.call('GET', '/evaluations/tsk_000000000000000000000000/status', { key }),
      sb.call('POST', '/evaluations/tsk_000000000000000000000000/cancel', { key }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('organization_scope_revoked');
      expect(res.body.error.message).toContain('no longer an admin of Northfield Academy');
    }
  });

  test('seeded keys have the documented shape and are all different', () => {
    const keys = Object.values(sb.keys);
    expect(keys).toHaveLength(5);
    for (const key of keys) expect(key).toMatch(/^kct_sbx_[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(5);
  });
});

describe('routes outside the API', () => {
  test('unknown route: 404 in the same envelope', async () => {
    const res = await sb.call('GET', '/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'route_not_found', status: 404 });
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  test('known route, wrong method: 405 with Allow', async () => {
    const res = await sb.call('DELETE', '/credits');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
  });

  test('legacy routes: 404 pointing at the v1 route', async () => {
    const origin = sb.baseUrl.replace(/\/v1$/, '');
    const { request } = await import('undici');
    const start = await request(`${origin}/api/open/evaluation/start`, { method: 'POST' });
    const startBody = (await start.body.json()) as any;
    expect(start.statusCode).toBe(404);
    expect(startBody.error.code).toBe('legacy_route');
    expect(startBody.error.message).toContain('POST /v1/evaluations');
    const result = await sb.call('GET', '/api/open/evaluation/result?task=1', { key: null });
    expect(result.status).toBe(404);
    expect(result.body.error.message).toContain('GET /v1/evaluations/{taskId}');
  });
});
