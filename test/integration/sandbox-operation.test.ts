// defineOperation, the sandbox's one request pipeline (src/sandbox/http/operation.ts): body read
// and validated by the declaration, the handler's answer in the envelope, received files deleted.
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import type { FormData } from 'undici';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { SandboxContext } from '../../packages/sandbox/src/context.js';
import type { Principal } from '../../packages/sandbox/src/http/auth.js';
import { httpError, installErrorHandling } from '../../packages/sandbox/src/http/envelope.js';
import { MULTIPART_LIMITS } from '../../packages/sandbox/src/http/multipart.js';
import { defineOperation } from '../../packages/sandbox/src/http/operation.js';
import { FileArea } from '../../packages/sandbox/src/store/file-area.js';
import { dispatcher, makeDataDir, textForm } from '../unit/sandbox-helpers.js';

const PRINCIPAL: Principal = { keyId: 1, userId: 7, userName: 'tester', scope: 'user', orgId: null };
const Fields = z.strictObject({ model_id: z.number().int(), note: z.string().optional() });

let app: FastifyInstance;
let files: FileArea;
let dir: string;
let base: string;
/** What the last handler saw of its files, and whether their folder was still there. */
let seen: { names: string[]; dirExisted: boolean } | undefined;

beforeAll(async () => {
  dir = await makeDataDir();
  files = new FileArea(dir);
  const ctx = { files } as unknown as SandboxContext;
  app = Fastify();
  installErrorHandling(app);
  app.decorateRequest('principal', null);
  // As in http/app.ts: a form sent where no form is read is accepted unread.
  app.addContentTypeParser('multipart/form-data', (_req, _payload, done) => done(null));
  app.addHook('onRequest', (req, _reply, done) => {
    req.principal = PRINCIPAL;
    done();
  });
  // A sync operation without a body: path parameters in, status and headers of the answer out.
  defineOperation('getStatus', {}, (_ctx, principal, { params }) => ({
    data: { task: params.taskId, user: principal.userId },
    headers: { 'x-seen': 'yes' },
  })).register(app, ctx);
  // JSON only, idempotent, with a check after validation.
  defineOperation(
    'createModel',
    {
      idempotent: true,
      body: Fields,
      check: (fields) => {
        if (fields.note === 'refuse') throw httpError(400, 'refused by check', 'checked');
      },
      jsonOnly: 'JSON only, please.',
      status: 201,
    },
    (_ctx, _principal, { fields, idempotencyKey }) => ({ data: { fields, idempotencyKey: idempotencyKey ?? null } }),
  ).register(app, ctx);
  await app.register(async (forms) => {
    forms.removeContentTypeParser('multipart/form-data');
    await forms.register(multipart, { limits: MULTIPART_LIMITS });
    // JSON or a form with files; the handler fails when asked to.
    defineOperation(
      'onePass',
      {
        body: Fields,
        files: { policy: { fileFields: { answer_file: 'answer' }, acceptedMimes: ['text/plain'] } },
        status: 202,
      },
      (_ctx, _principal, { fields, files: received, dir: folder }) => {
        seen = { names: received.map((f) => f.name), dirExisted: folder !== undefined && existsSync(folder) };
        if (fields.note === 'fail') throw httpError(409, 'the handler refused', 'handler_refused');
        return { data: { files: received.length } };
      },
    ).register(forms, ctx);
    // Files only.
    defineOperation(
      'uploadFile',
      {
        files: { policy: { fileFields: { file: 'answer' }, acceptedMimes: ['text/plain'] }, fields: null, formOnly: 'Send a form.' },
      },
      (_ctx, _principal, { fields }) => ({ data: { fields } }),
    ).register(forms, ctx);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

async function call(
  method: 'GET' | 'POST',
  path: string,
  init: { json?: unknown; form?: FormData; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.form;
  const res = await request(`${base}${path}`, { method, headers, body, dispatcher });
  return { status: res.statusCode, headers: res.headers, body: (await res.body.json()) as any };
}

describe('defineOperation', () => {
  test('an operation without a body gets its path parameters and the principal; its answer goes out in the envelope', async () => {
    const res = await call('GET', '/v1/evaluations/tsk_abc/status');
    expect(res.status).toBe(200);
    expect(res.headers['x-seen']).toBe('yes');
    expect(res.body).toEqual({ data: { task: 'tsk_abc', user: 7 }, request_id: expect.any(String) });
  });

  test('a JSON body is validated by the declared schema, then checked; the success status is the declared one', async () => {
    const ok = await call('POST', '/v1/models', { json: { model_id: 3 }, headers: { 'idempotency-key': 'k-1' } });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toEqual({ fields: { model_id: 3 }, idempotencyKey: 'k-1' });
    const invalid = await call('POST', '/v1/models', { json: { model_id: 'three' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 'invalid_request', details: [expect.objectContaining({ path: 'model_id' })] });
    const refused = await call('POST', '/v1/models', { json: { model_id: 3, note: 'refuse' } });
    expect(refused.body.error).toMatchObject({ status: 400, code: 'checked', message: 'refused by check' });
    const missing = await call('POST', '/v1/models');
    expect(missing.body.error).toMatchObject({ status: 400, code: 'invalid_request' });
  });

  test('an Idempotency-Key is checked before the body is read', async () => {
    const res = await call('POST', '/v1/models', { json: { model_id: 'not even valid' }, headers: { 'idempotency-key': 'k'.repeat(300) } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_idempotency_key');
  });

  test('a form sent to a JSON-only operation, and JSON sent to a files-only one, get the declared 400', async () => {
    const form = textForm(['model_id', '3']);
    const jsonOnly = await call('POST', '/v1/models', { form });
    expect(jsonOnly.body.error).toMatchObject({ status: 400, code: 'unsupported_content_type', message: 'JSON only, please.' });
    const formOnly = await call('POST', '/v1/uploads/file', { json: {} });
    expect(formOnly.body.error).toMatchObject({ status: 400, code: 'unsupported_content_type', message: 'Send a form.' });
  });

  test("a form's files reach the handler in their folder, which is deleted before the answer, whether the handler succeeds or throws", async () => {
    const form = textForm(['model_id', '5'], ['answer_file', 'An answer.', 'a.txt']);
    const ok = await call('POST', '/v1/evaluations/one-pass', { form });
    expect(ok.status).toBe(202);
    expect(ok.body.data).toEqual({ files: 1 });
    expect(seen).toEqual({ names: ['a.txt'], dirExisted: true });
    expect(await readdir(files.incoming)).toEqual([]);

    const failing = textForm(['model_id', '5'], ['note', 'fail'], ['answer_file', 'An answer.', 'b.txt']);
    const refused = await call('POST', '/v1/evaluations/one-pass', { form: failing });
    expect(refused.body.error).toMatchObject({ status: 409, code: 'handler_refused' });
    expect(seen?.names).toEqual(['b.txt']);
    expect(await readdir(files.incoming)).toEqual([]);
  });

  test('the same operation takes JSON, where the message for a missing body names the form too', async () => {
    const ok = await call('POST', '/v1/evaluations/one-pass', { json: { model_id: 5 } });
    expect(ok.status).toBe(202);
    expect(seen).toEqual({ names: [], dirExisted: false });
    const missing = await call('POST', '/v1/evaluations/one-pass', { json: [] });
    expect(missing.body.error.message).toMatch(/or multipart\/form-data with files/);
  });

  test('a files-only operation with `fields: null` gets its text fields as sent', async () => {
    const form = textForm(['extra', 'kept as sent'], ['file', 'x', 'x.txt']);
    const res = await call('POST', '/v1/uploads/file', { form });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ fields: { extra: 'kept as sent' } });
  });
});
