import { rm } from 'node:fs/promises';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, test } from 'vitest';
import { createSandbox } from '../../packages/sandbox/src/server.js';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { RETRY_SCHEDULE_MS } from '../../packages/sandbox/src/tasks/callbacks.js';
import type { TestSandbox } from '../unit/sandbox-helpers.js';
import { ESSAY, launch, makeDataDir } from '../unit/sandbox-helpers.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback receiver answering each call with the next status of `script` (then 200). */
async function receiver(script: number[]): Promise<{ url: string; calls: Received[]; server: Server }> {
  const calls: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', headers: req.headers, body });
      const status = script[calls.length - 1] ?? 200;
      if (status >= 300 && status < 400) res.setHeader('location', '/redirected');
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, calls, server };
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function recordWhen(sb: TestSandbox, taskId: string, done: (record: any) => boolean): Promise<any> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const record = (await sb.call('GET', `/evaluations/${taskId}`)).body.data;
    if (done(record)) return record;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(record.callback)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const batch = (callback_url: string) => ({
  evaluations: [
    { model_id: 12, paper_content: ESSAY, student_id: 'cb-1' },
    { model_id: 12, paper_content: `${ESSAY} 2` },
  ],
  callback_url,
});

describe('batch callbacks', () => {
  test('signed Standard Webhooks POST when the batch is final, retried after a 500 with the same id', async () => {
    const rx = await receiver([500]);
    const sb = await launch({ allowPrivateCallbacks: true, timeScale: 1000 });
    cleanups.push(
      () => sb.dispose(),
      async () => void rx.server.close(),
    );
    const res = await sb.call('POST', '/evaluations/batch', { json: batch(rx.url) });
    expect(res.status).toBe(202);
    await until(() => rx.calls.length >= 2);
    const [first, second] = rx.calls;
    expect(first.headers['webhook-id']).toMatch(/^msg_/);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('application/json');
    const payload = new Webhook(sb.webhookSecret).verify(second.body, {
      'webhook-id': String(second.headers['webhook-id']),
      'webhook-timestamp': String(second.headers['webhook-timestamp']),
      'webhook-signature': String(second.headers['webhook-signature']),
    }) as any;
    expect(payload.type).toBe('batch.finished');
    expect(payload.data).toMatchObject({ task_id: res.body.data.task_id, status: 'SUCCESS', count: 2, succeeded: 2 });
    expect(payload.data.items).toHaveLength(2);
    // A tampered body does not verify.
    expect(() =>
      new Webhook(sb.webhookSecret).verify(second.body.replace('SUCCESS', 'FAILURE'), {
        'webhook-id': String(second.headers['webhook-id']),
        'webhook-timestamp': String(second.headers['webhook-timestamp']),
        'webhook-signature': String(second.headers['webhook-signature']),
      }),
    ).toThrow();
    // The batch record reports the delivery.
    const record = await recordWhen(sb, res.body.data.task_id, (r) => r.callback.status === 'delivered');
    expect(record.callback).toMatchObject({ status: 'delivered', attempts: 2, webhook_id: first.headers['webhook-id'] });
    expect(rx.calls).toHaveLength(2);
  });

  test('a redirect is not followed: it counts as a failed attempt', async () => {
    const rx = await receiver([302]);
    const sb = await launch({ allowPrivateCallbacks: true, timeScale: 1000 });
    cleanups.push(
      () => sb.dispose(),
      async () => void rx.server.close(),
    );
    await sb.call('POST', '/evaluations/batch', { json: batch(rx.url) });
    await until(() => rx.calls.length >= 2);
    expect(rx.calls.map((c) => c.path)).toEqual(['/hook', '/hook']);
  });

  test('the webhook secret survives a restart', async () => {
    const dir = await makeDataDir();
    const a = await launch({}, dir);
    const secret = a.webhookSecret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await a.close();
    const b = await launch({}, dir);
    cleanups.push(() => b.dispose());
    expect(b.webhookSecret).toBe(secret);
  });

  test('after the last scheduled attempt the callback is marked failed', async () => {
    const rx = await receiver(Array(20).fill(500));
    const sb = await launch({ allowPrivateCallbacks: true, timeScale: 1e9 });
    cleanups.push(
      () => sb.dispose(),
      async () => void rx.server.close(),
    );
    const res = await sb.call('POST', '/evaluations/batch', { json: batch(rx.url) });
    const record = await recordWhen(sb, res.body.data.task_id, (r) => r.callback.status === 'failed');
    expect(record.callback).toMatchObject({
      status: 'failed',
      attempts: RETRY_SCHEDULE_MS.length,
      last_error: 'the receiver answered HTTP 500',
    });
    expect(rx.calls).toHaveLength(RETRY_SCHEDULE_MS.length);
    expect(new Set(rx.calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
  });
});

describe('callback addresses', () => {
  test.each([
    ['http://example.com/hook', /https/],
    ['https://127.0.0.1/hook', /not a public address/],
    ['https://localhost/hook', /not a public address/],
    ['https://10.1.2.3/hook', /not a public address/],
    ['https://169.254.169.254/latest', /not a public address/],
    ['https://[::1]/hook', /not a public address/],
    ['https://[::ffff:127.0.0.1]/hook', /not a public address/],
    ['https://user:pw@example.com/hook', /credentials/],
    ['https://kct-callback.invalid/hook', /cannot resolve/],
    ['ftp://example.com/x', /https/],
  ])('refused at acceptance without --allow-private-callbacks: %s', async (url, reason) => {
    const sb = await launch();
    cleanups.push(() => sb.dispose());
    const res = await sb.call('POST', '/evaluations/batch', { json: batch(url) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_callback_url');
    expect(res.body.error.message).toMatch(reason);
  });

  test('checked again at delivery: a private address is never dialled without the flag', async () => {
    const rx = await receiver([]);
    const dir = await makeDataDir();
    const sb = await createSandbox({ dataDir: dir, timeScale: 1e9 });
    cleanups.push(async () => {
      await sb.close();
      rx.server.close();
      await rm(dir, { recursive: true, force: true });
    });
    // As if DNS had changed after acceptance: a pending delivery to a loopback address.
    const db = openSqlite(join(dir, 'sandbox.db'));
    const owner = (db.prepare(`SELECT id FROM users WHERE name = 'user'`).get() as { id: number }).id;
    db.prepare(`INSERT INTO tasks (task_id, kind, owner_user_id, scope, model_id, status, credit_cost, input_json, created_at, updated_at)
      VALUES ('tsk_dns', 'batch', ?, 'user', 12, 'SUCCESS', 0, '{}', 'now', 'now')`).run(owner);
    db.prepare(`INSERT INTO callbacks (webhook_id, task_id, url, payload, next_attempt_at, created_at)
      VALUES ('msg_dns', 'tsk_dns', ?, '{}', 0, 'now')`).run(rx.url);
    db.close();
    sb.context.callbacks.kick();
    let row: { status: string; last_error: string | null } | undefined;
    await until(() => {
      row = sb.context.store.prepared(`SELECT status, last_error FROM callbacks WHERE webhook_id = 'msg_dns'`).get() as typeof row;
      return row?.status === 'failed';
    });
    expect(row!.last_error).toMatch(/not a public address/);
    expect(rx.calls).toHaveLength(0);
  });
});
