import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { hashKey } from '../../packages/sandbox/src/accounts/api-keys.js';
import { KEY_TTL_MS, KeyCache } from '../../packages/sandbox/src/http/auth.js';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import type { KeyRow, Store } from '../../packages/sandbox/src/store/store.js';
import { ESSAY, sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile();

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

  test('an admin demoted while the sandbox runs: the very next request with the org key is 403, and 200 again once restored', async () => {
    const key = sb.keys.org_admin;
    // Used once first, so the key row is in the sandbox's key cache.
    expect((await sb.call('GET', '/credits', { key })).status).toBe(200);
    const setRole = (role: string) => {
      // Another connection, as an operator with the sqlite3 shell would do it.
      const db = openSqlite(join(sb.dataDir, 'sandbox.db'));
      try {
        db.prepare('UPDATE memberships SET role = ? WHERE user_id = (SELECT user_id FROM api_keys WHERE key_hash = ?)').run(
          role,
          hashKey(key),
        );
      } finally {
        db.close();
      }
    };
    setRole('member');
    try {
      const refused = await sb.call('GET', '/evaluations/tsk_000000000000000000000000/status', { key });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('organization_scope_revoked');
    } finally {
      setRole('admin');
    }
    expect((await sb.call('GET', '/credits', { key })).status).toBe(200);
  });

  test('request ids: req_ + 24 hex, the same in the body and the header, never repeated', async () => {
    const ids = new Set<string>();
    // More than one block of the id pool (512 ids).
    for (let round = 0; round < 12; round++) {
      const replies = await Promise.all(Array.from({ length: 50 }, () => sb.call('GET', '/credits')));
      for (const res of replies) {
        expect(res.body.request_id).toMatch(/^req_[0-9a-f]{24}$/);
        expect(res.headers['x-request-id']).toBe(res.body.request_id);
        ids.add(res.body.request_id);
      }
    }
    expect(ids.size).toBe(600);
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

describe('key cache', () => {
  const row: KeyRow = { id: 1, user_id: 1, user_name: 'user', scope: 'user', org_id: null, revoked_at: null };
  afterEach(() => {
    vi.useRealTimers();
  });

  function fakeStore(rows: Map<string, KeyRow>) {
    const reads: string[] = [];
    const store = { findKey: (key: string) => (reads.push(key), rows.get(key)) } as unknown as Store;
    return { store, reads };
  }

  test('a known key is read once per KEY_TTL_MS; a deleted key stops working once its entry expires', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const rows = new Map([['kct_a', row]]);
    const { store, reads } = fakeStore(rows);
    const cache = new KeyCache(store);
    expect(cache.find('kct_a')).toEqual(row);
    expect(cache.find('kct_a')).toEqual(row);
    expect(reads).toHaveLength(1);
    rows.delete('kct_a');
    vi.advanceTimersByTime(KEY_TTL_MS + 1);
    expect(cache.find('kct_a')).toBeUndefined();
    expect(reads).toHaveLength(2);
  });

  test('unknown keys are never kept: each attempt reads the database', () => {
    const { store, reads } = fakeStore(new Map());
    const cache = new KeyCache(store);
    expect(cache.find('kct_nope')).toBeUndefined();
    expect(cache.find('kct_nope')).toBeUndefined();
    expect(reads).toHaveLength(2);
  });

  test('bounded: past its size it starts again', () => {
    const rows = new Map(Array.from({ length: 5 }, (_, i) => [`kct_${i}`, { ...row, id: i }]));
    const { store, reads } = fakeStore(rows);
    const cache = new KeyCache(store, KEY_TTL_MS, 4);
    for (let i = 0; i < 5; i++) cache.find(`kct_${i}`);
    expect(reads).toHaveLength(5);
    cache.find('kct_4');
    expect(reads).toHaveLength(5);
    cache.find('kct_0');
    expect(reads).toHaveLength(6);
  });
});
