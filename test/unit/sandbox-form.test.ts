// readForm: the one multipart reader of the submission routes (one-pass and legacy evaluations).
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { FormData, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { httpError, installErrorHandling } from '../../src/sandbox/http/envelope.js';
import { FileArea } from '../../src/sandbox/store/file-area.js';
import { MULTIPART_LIMITS } from '../../src/sandbox/http/multipart.js';
import { readForm } from '../../src/sandbox/http/body.js';
import { dispatcher, makeDataDir } from './sandbox-helpers.js';

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
    const form = await readForm(req, { files }, Schema, { fileFields: { answer_file: 'answer', rubric_file: 'rubric' }, acceptedMimes: ['text/plain'] },
      (fields, received) => {
        if (fields.paper_content === undefined && !received.some((f) => f.role === 'answer')) throw httpError(400, 'no answer', 'answer_missing');
      });
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

const text = (s: string) => new Blob([s], { type: 'text/plain' });

describe('readForm', () => {
  test('coerces and validates the text fields, stores the files and keeps their directory', async () => {
    const fd = new FormData();
    fd.append('model_id', '12');
    fd.append('answer_file', text('An answer.'), 'a.txt');
    fd.append('rubric_file', text('A rubric.'), 'r.txt');
    const res = await send(fd);
    expect(res.status).toBe(200);
    expect(res.body.fields).toEqual({ model_id: 12 });
    expect(res.body.files).toEqual([{ role: 'answer', name: 'a.txt', size: 10 }, { role: 'rubric', name: 'r.txt', size: 9 }]);
    expect(existsSync(res.body.dir)).toBe(true);
    await files.remove(res.body.dir);
  });

  test('with no files, no directory is left', async () => {
    const fd = new FormData();
    fd.append('model_id', '12');
    fd.append('paper_content', 'An answer.');
    const res = await send(fd);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ fields: { model_id: 12, paper_content: 'An answer.' }, files: [], dir: null });
    expect(await readdir(files.incoming)).toEqual([]);
  });

  test('fields the schema refuses: 400 naming the multipart form, and the stored files are deleted', async () => {
    const fd = new FormData();
    fd.append('model_id', 'twelve');
    fd.append('answer_file', text('An answer.'), 'a.txt');
    const res = await send(fd);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/multipart form/);
    expect(await readdir(files.incoming)).toEqual([]);
  });

  test('the caller\'s check refuses: its error, and the stored files are deleted', async () => {
    const fd = new FormData();
    fd.append('model_id', '12');
    fd.append('rubric_file', text('A rubric.'), 'r.txt');
    const res = await send(fd);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('answer_missing');
    expect(await readdir(files.incoming)).toEqual([]);
  });
});
