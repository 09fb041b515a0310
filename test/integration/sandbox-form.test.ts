// readForm: the one multipart reader of the submission routes (one-pass and legacy evaluations).
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
import { readForm } from '../../packages/sandbox/src/http/body.js';
import { httpError, installErrorHandling } from '../../packages/sandbox/src/http/envelope.js';
import { MULTIPART_LIMITS } from '../../packages/sandbox/src/http/multipart.js';
import { FileArea } from '../../packages/sandbox/src/store/file-area.js';
import { dispatcher, makeDataDir, textForm } from '../unit/sandbox-helpers.js';

const Schema = z.strictObject({ model_id: z.number().int(), paper_content: z.string().optional() });

let app: FastifyInstance;
let files: FileArea;
let dir: string;
let base: string;

beforeAll(async () => {
  dir = await makeDataDir();
  files = new FileArea(dir);
  app = Fastify();
  app.register(multipart, { limits: MULTIPART_LIMITS });
  installErrorHandling(app);
  app.post('/form', async (req) => {
    const form = await readForm(
      req,
      { files },
      Schema,
      { fileFields: { answer_file: 'answer', rubric_file: 'rubric' }, acceptedMimes: ['text/plain'] },
      (fields, received) => {
        if (fields.paper_content === undefined && !received.some((f) => f.role === 'answer'))
          throw httpError(400, 'no answer', 'answer_missing');
      },
    );
    return { fields: form.fields, files: form.files.map((f) => ({ role: f.role, name: f.name, size: f.size })), dir: form.dir ?? null };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

async function send(fd: FormData) {
  const res = await request(`${base}/form`, { method: 'POST', body: fd, dispatcher });
  return { status: res.statusCode, body: (await res.body.json()) as any };
}

describe('readForm', () => {
  test('coerces and validates the text fields, stores the files and keeps their directory', async () => {
    const res = await send(textForm(['model_id', '12'], ['answer_file', 'An answer.', 'a.txt'], ['rubric_file', 'A rubric.', 'r.txt']));
    expect(res.status).toBe(200);
    expect(res.body.fields).toEqual({ model_id: 12 });
    expect(res.body.files).toEqual([
      { role: 'answer', name: 'a.txt', size: 10 },
      { role: 'rubric', name: 'r.txt', size: 9 },
    ]);
    expect(existsSync(res.body.dir)).toBe(true);
    await files.remove(res.body.dir);
  });

  test.each([
    {
      name: 'with no files, no directory is left',
      form: textForm(['model_id', '12'], ['paper_content', 'An answer.']),
      status: 200,
      body: { fields: { model_id: 12, paper_content: 'An answer.' }, files: [], dir: null },
    },
    {
      name: 'fields the schema refuses: 400 naming the multipart form, and the stored files are deleted',
      form: textForm(['model_id', 'twelve'], ['answer_file', 'An answer.', 'a.txt']),
      status: 400,
      body: { error: { message: expect.stringMatching(/multipart form/) } },
    },
    {
      name: "the caller's check refuses: its error, and the stored files are deleted",
      form: textForm(['model_id', '12'], ['rubric_file', 'A rubric.', 'r.txt']),
      status: 400,
      body: { error: { code: 'answer_missing' } },
    },
  ])('$name', async ({ form, status, body }) => {
    const res = await send(form);
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject(body);
    expect(await readdir(files.incoming)).toEqual([]);
  });
});
