// The product's key routes (spec 5.4) of the sandbox: sign in with an account's password, then
// create, list and revoke that account's keys; organization keys for admins only; a revoked key
// refused from its very next request; no key or password in clear anywhere but where it belongs.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PASSWORDS_FILE, Sessions } from '../../packages/sandbox/src/accounts/accounts.js';
import { createSandbox, type SandboxInstance } from '../../packages/sandbox/src/server.js';
import { hashSecret } from '../../packages/sandbox/src/store/secrets-file.js';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { MAX_ACTIVE_KEYS } from '../../src/api/product.js';
import { makeDataDir } from '../unit/sandbox-helpers.js';

interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Record<string, unknown>;
}

let sb: SandboxInstance;
let dir: string;
const lines: string[] = [];

async function call(
  method: string,
  url: string,
  init: { json?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const res = await sb.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(init.json === undefined ? {} : { payload: init.json as object }),
  });
  return { status: res.statusCode, body: res.json(), text: res.body, headers: res.headers };
}

async function signIn(account: keyof SandboxInstance['passwords']): Promise<string> {
  const res = await call('POST', '/public_api/auth/sign-in', { json: { account, password: sb.passwords[account] } });
  expect(res.status, res.text).toBe(200);
  return res.body.data.session_token as string;
}

/** Every answer a test saw: scanned for keys and passwords at the end. */
const seen: string[] = [];
const created: string[] = [];

beforeAll(async () => {
  dir = join(await makeDataDir(), 'data');
  sb = await createSandbox({ dataDir: dir, log: (line) => lines.push(line) });
});

afterAll(async () => {
  await sb?.close();
  await rm(join(dir, '..'), { recursive: true, force: true });
});

async function recorded(reply: Promise<Reply>): Promise<Reply> {
  const r = await reply;
  seen.push(r.text);
  return r;
}

describe('signing in', () => {
  test('the right password opens a session naming the account and its organizations', async () => {
    const res = await recorded(
      call('POST', '/public_api/auth/sign-in', { json: { account: 'org_admin', password: sb.passwords.org_admin } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      token_type: 'Bearer',
      account: { name: 'org_admin' },
      organizations: [{ name: 'Northfield Academy', role: 'admin' }],
    });
    expect(res.body.data.session_token).toMatch(/^sess_sbx_[0-9a-f]{32}$/);
    expect(Date.parse(res.body.data.expires_at)).toBeGreaterThan(Date.now());
  });

  test('a wrong password and an unknown account get the same 401, which never says which was wrong', async () => {
    const wrong = await recorded(call('POST', '/public_api/auth/sign-in', { json: { account: 'user', password: 'not-the-password' } }));
    const unknown = await recorded(call('POST', '/public_api/auth/sign-in', { json: { account: 'nobody', password: sb.passwords.user } }));
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({
        code: 'invalid_credentials',
        message: expect.stringContaining('The account name or password is wrong'),
      });
    }
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    // another account's password does not open this one
    expect((await call('POST', '/public_api/auth/sign-in', { json: { account: 'user', password: sb.passwords.broke } })).status).toBe(401);
  });

  test('a malformed sign-in is 400 naming the field, never echoing the password', async () => {
    const missing = await recorded(call('POST', '/public_api/auth/sign-in', { json: { account: 'user' } }));
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('password');
    const extra = await recorded(
      call('POST', '/public_api/auth/sign-in', { json: { account: 'user', password: sb.passwords.user, remember: true } }),
    );
    expect(extra.status).toBe(400);
    expect(extra.body.error.message).toContain('"remember"');
    expect(extra.text).not.toContain(sb.passwords.user);
    const wrongType = await recorded(call('POST', '/public_api/auth/sign-in', { json: { account: 'user', password: 12345678 } }));
    expect(wrongType.status).toBe(400);
    expect(wrongType.text).not.toContain('12345678');
  });

  test('the key routes need a session: none, an API key, a made-up token and a signed-out one are 401', async () => {
    const none = await recorded(call('GET', '/public_api/keys/list'));
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({ code: 'unauthenticated', message: expect.stringContaining('POST /public_api/auth/sign-in') });
    const apiKey = await recorded(call('GET', '/public_api/keys/list', { headers: { 'x-api-key': sb.keys.user } }));
    expect(apiKey.status).toBe(401);
    expect(apiKey.body.error.message).toContain('not an API key');
    const madeUp = await recorded(call('GET', '/public_api/keys/list', { token: 'sess_sbx_00000000000000000000000000000000' }));
    expect(madeUp.body.error.code).toBe('invalid_session');
    const token = await signIn('user');
    expect((await call('GET', '/public_api/keys/list', { token })).status).toBe(200);
    expect((await call('POST', '/public_api/auth/sign-out', { token })).body.data).toEqual({ signed_out: true });
    const after = await recorded(call('GET', '/public_api/keys/list', { token }));
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('invalid_session');
  });

  test('a wrong method on a key route is 405 with Allow; an unknown /public_api route is 404 naming the key routes', async () => {
    const wrong = await call('GET', '/public_api/keys/create');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    const unknown = await call('POST', '/public_api/keys/delete');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('POST /public_api/keys/revoke');
  });
});

describe('creating keys', () => {
  test('a user key: shown once in the answer, usable at once on /v1, masked in the list', async () => {
    const token = await signIn('user');
    const res = await call('POST', '/public_api/keys/create', { token, json: { scope: 'user', name: 'laptop' } });
    expect(res.status).toBe(201);
    const key = res.body.data.key as string;
    created.push(key);
    expect(key).toMatch(/^kct_sbx_[0-9a-f]{32}$/);
    expect(res.body.data).toMatchObject({
      name: 'laptop',
      scope: 'user',
      organization: null,
      masked_key: `kct_****${key.slice(-4)}`,
      revoked_at: null,
    });
    const credits = await sb.app.inject({ method: 'GET', url: '/v1/credits', headers: { 'x-api-key': key } });
    expect(credits.statusCode).toBe(200);
    expect(credits.json().data).toMatchObject({ scope: 'user', account: { name: 'user' } });
    const list = await recorded(call('GET', '/public_api/keys/list', { token }));
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(key);
    const mine = list.body.data.keys.find((k: { id: number }) => k.id === res.body.data.id);
    expect(mine).toEqual({
      id: res.body.data.id,
      name: 'laptop',
      scope: 'user',
      organization: null,
      masked_key: `kct_****${key.slice(-4)}`,
      created_at: res.body.data.created_at,
      revoked_at: null,
    });
    // the seeded key is listed too, named after its account
    expect(list.body.data.keys[0]).toMatchObject({ name: 'user', masked_key: `kct_****${sb.keys.user.slice(-4)}` });
    // the log says what happened, masked
    expect(lines.some((line) => line.includes(`key ${res.body.data.id} (kct_****${key.slice(-4)}, user scope) created for user`))).toBe(
      true,
    );
  });

  test("an organization key for an admin: it sees the organization's models", async () => {
    const token = await signIn('org_admin');
    const res = await call('POST', '/public_api/keys/create', { token, json: { scope: 'organization', name: 'ci' } });
    expect(res.status).toBe(201);
    created.push(res.body.data.key);
    expect(res.body.data).toMatchObject({ scope: 'organization', organization: { name: 'Northfield Academy' } });
    const models = await sb.app.inject({ method: 'GET', url: '/v1/models', headers: { 'x-api-key': res.body.data.key } });
    expect(models.json().data.map((m: { model_id: number }) => m.model_id)).toEqual([21]);
  });

  test('organization keys are refused with 403 naming why: a member, a demoted admin, an account without one', async () => {
    const cases: [keyof SandboxInstance['passwords'], string][] = [
      ['org_member', 'the account org_member is a member, not an admin, of Northfield Academy'],
      ['former_admin', 'the account former_admin is a member, not an admin, of Northfield Academy'],
      ['user', 'the account user belongs to no organization'],
    ];
    for (const [account, why] of cases) {
      const token = await signIn(account);
      const res = await recorded(call('POST', '/public_api/keys/create', { token, json: { scope: 'organization' } }));
      expect(res.status, account).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'not_organization_admin', message: expect.stringContaining(why) });
      // and nothing was made
      const keys = (await call('GET', '/public_api/keys/list', { token })).body.data.keys as { scope: string }[];
      expect(keys.filter((k) => k.scope === 'organization').length, account).toBe(account === 'former_admin' ? 1 : 0);
    }
    const admin = await signIn('org_admin');
    const elsewhere = await recorded(
      call('POST', '/public_api/keys/create', { token: admin, json: { scope: 'organization', organization_id: 99 } }),
    );
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error.message).toContain('not a member of organization 99');
  });

  test('bad requests are 400 naming the field: scope, an unknown field, a name with a line break', async () => {
    const token = await signIn('user');
    for (const json of [
      {},
      { scope: 'team' },
      { scope: 'user', expires: '2030-01-01' },
      { scope: 'user', name: 'a\nb' },
      { scope: 'user', name: 'x'.repeat(101) },
    ]) {
      const res = await recorded(call('POST', '/public_api/keys/create', { token, json }));
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
  });

  test(`an account holds at most ${MAX_ACTIVE_KEYS} keys that are not revoked: the next is 409, a revocation makes room`, async () => {
    const token = await signIn('broke');
    const before = (await call('GET', '/public_api/keys/list', { token })).body.data.keys.length as number;
    const ids: number[] = [];
    for (let i = before; i < MAX_ACTIVE_KEYS; i++) {
      const res = await call('POST', '/public_api/keys/create', { token, json: { scope: 'user' } });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
      created.push(res.body.data.key);
    }
    const refused = await recorded(call('POST', '/public_api/keys/create', { token, json: { scope: 'user' } }));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'too_many_keys',
      message: expect.stringContaining(`already has ${MAX_ACTIVE_KEYS} keys`),
    });
    expect((await call('POST', '/public_api/keys/revoke', { token, json: { id: ids[0] } })).status).toBe(200);
    const room = await call('POST', '/public_api/keys/create', { token, json: { scope: 'user' } });
    expect(room.status).toBe(201);
    created.push(room.body.data.key);
  });
});

describe('revoking keys', () => {
  test('a revoked key is 401 on its very next request, even one used a moment before (no cache delay)', async () => {
    const token = await signIn('user');
    const made = await call('POST', '/public_api/keys/create', { token, json: { scope: 'user', name: 'short-lived' } });
    const key = made.body.data.key as string;
    created.push(key);
    const headers = { 'x-api-key': key };
    expect((await sb.app.inject({ method: 'GET', url: '/v1/credits', headers })).statusCode).toBe(200);
    const revoked = await recorded(call('POST', '/public_api/keys/revoke', { token, json: { id: made.body.data.id } }));
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id: made.body.data.id, already_revoked: false, masked_key: `kct_****${key.slice(-4)}` });
    expect(Date.parse(revoked.body.data.revoked_at)).not.toBeNaN();
    const refused = await sb.app.inject({ method: 'GET', url: '/v1/credits', headers });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('revoked_api_key');
    // listed as revoked, still masked
    const listed = (await call('GET', '/public_api/keys/list', { token })).body.data.keys.find(
      (k: { id: number }) => k.id === made.body.data.id,
    );
    expect(listed.revoked_at).toBe(revoked.body.data.revoked_at);
  });

  test('revoking twice is the same answer, the first revocation kept, already_revoked true', async () => {
    const token = await signIn('user');
    const made = await call('POST', '/public_api/keys/create', { token, json: { scope: 'user' } });
    created.push(made.body.data.key);
    const first = await call('POST', '/public_api/keys/revoke', { token, json: { id: made.body.data.id } });
    const second = await recorded(call('POST', '/public_api/keys/revoke', { token, json: { id: made.body.data.id } }));
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ ...first.body.data, already_revoked: true });
    expect(lines.filter((line) => line.includes(`key ${made.body.data.id} (`) && line.includes('revoked')).length).toBe(1);
  });

  test("another account's key is 404 exactly as a key that does not exist, and stays usable", async () => {
    const token = await signIn('org_member');
    const others = await recorded(call('POST', '/public_api/keys/revoke', { token, json: { id: 1 } }));
    const missing = await recorded(call('POST', '/public_api/keys/revoke', { token, json: { id: 999999 } }));
    expect(others.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(others.body.error.code).toBe('key_not_found');
    expect(others.body.error.message.replace('1.', 'N.')).toBe(missing.body.error.message.replace('999999.', 'N.'));
    expect((await sb.app.inject({ method: 'GET', url: '/v1/credits', headers: { 'x-api-key': sb.keys.user } })).statusCode).toBe(200);
    expect((await call('POST', '/public_api/keys/revoke', { token, json: { id: 'one' } })).status).toBe(400);
  });
});

describe('secrets at rest and in output', () => {
  test('no answer, log line or data-dir file holds a created key or a password, but passwords.json (0600) and the create answers', () => {
    const passwords = Object.values(sb.passwords);
    expect(created.length).toBeGreaterThan(MAX_ACTIVE_KEYS);
    // the create answers are the only place a key is shown: left out of `seen`
    for (const text of [...seen, ...lines]) {
      for (const secret of [...created, ...passwords]) expect(text.includes(secret), text).toBe(false);
    }
    const files = (d: string): string[] =>
      readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(d, e.name)) : [join(d, e.name)]));
    for (const file of files(dir).filter((f) => !f.endsWith('keys.json') && !f.endsWith(PASSWORDS_FILE))) {
      const bytes = readFileSync(file);
      for (const secret of [...created, ...passwords]) expect(bytes.includes(secret), `${file} holds a secret`).toBe(false);
    }
    expect(statSync(join(dir, PASSWORDS_FILE)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, PASSWORDS_FILE), 'utf8'))).toEqual(sb.passwords);
  });
});

describe('passwords across restarts', () => {
  test('the same passwords every start; one lost from passwords.json is issued anew (the old one stops working), and the log says so', async () => {
    const data = join(await makeDataDir(), 'data');
    try {
      const first = await createSandbox({ dataDir: data });
      const passwords = first.passwords;
      await first.close();
      const db = openSqlite(join(data, 'sandbox.db'), { readonly: true });
      const hashes = db.prepare('SELECT name, password_hash FROM users ORDER BY id').all() as { name: string; password_hash: string }[];
      db.close();
      for (const row of hashes) expect(row.password_hash).toBe(hashSecret(passwords[row.name as keyof typeof passwords]));

      const second = await createSandbox({ dataDir: data });
      expect(second.passwords).toEqual(passwords);
      await second.close();

      rmSync(join(data, PASSWORDS_FILE));
      const log: string[] = [];
      const third = await createSandbox({ dataDir: data, log: (line) => log.push(line) });
      try {
        expect(third.passwords.user).not.toBe(passwords.user);
        expect(log.join('\n')).toContain('passwords.json did not hold the passwords of user, broke, org_admin, org_member, former_admin');
        const old = await third.app.inject({
          method: 'POST',
          url: '/public_api/auth/sign-in',
          payload: { account: 'user', password: passwords.user },
        });
        expect(old.statusCode).toBe(401);
        const fresh = await third.app.inject({
          method: 'POST',
          url: '/public_api/auth/sign-in',
          payload: { account: 'user', password: third.passwords.user },
        });
        expect(fresh.statusCode).toBe(200);
        expect(existsSync(join(data, PASSWORDS_FILE))).toBe(true);
      } finally {
        await third.close();
      }
    } finally {
      await rm(join(data, '..'), { recursive: true, force: true });
    }
  });
});

describe('sessions', () => {
  test('end when their time is up, at sign-out, and give way oldest first beyond the cap', () => {
    const account = { id: 1, name: 'user' };
    const expired = new Sessions(0);
    expect(expired.find(expired.open(account).token)).toBeUndefined();
    const sessions = new Sessions(60_000, 2);
    const a = sessions.open(account);
    const b = sessions.open(account);
    expect(sessions.find(a.token)).toEqual(account);
    const c = sessions.open(account);
    expect(sessions.find(a.token)).toBeUndefined();
    expect(sessions.find(b.token)).toEqual(account);
    expect(sessions.close(c.token)).toBe(true);
    expect(sessions.find(c.token)).toBeUndefined();
    expect(sessions.close(c.token)).toBe(false);
  });
});
