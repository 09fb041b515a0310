// The sandbox's model-building endpoints in process: previews in the three input styles of spec
// 4.4, asset URLs (own uploads, SSRF guard), POST /models validation, ownership and training.
import { openAsBlob } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { download } from '../../packages/sandbox/src/ingest/assets.js';
import { ESSAY, launch, sandboxForFile } from '../unit/sandbox-helpers.js';

const EXAMPLES = resolve(import.meta.dirname, '..', '..', 'examples');
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const sb = sandboxForFile();
const slow = sandboxForFile({ trainingDelayMs: 400 });

async function form(fields: Record<string, string>, files: [field: string, path: string, name: string, type?: string][] = []) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const [field, path, name, type] of files) fd.append(field, await openAsBlob(path, { type: type ?? '' }), name);
  return fd;
}

async function uploadExample(name: string, type: string): Promise<string> {
  const res = await sb.call('POST', '/uploads/file', { form: await form({}, [['file', join(EXAMPLES, name), name, type]]) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.url as string;
}

function validModel(overrides: Record<string, unknown> = {}) {
  return {
    assignment_name: 'Homework ban letter',
    assignment_desc: 'Year 10 persuasive letter to the head teacher about banning homework.',
    questions: [{ number: '1', text: 'Write a persuasive letter arguing for or against a ban on homework.', marks: 20 }],
    rubrics: [
      { item: 'Position', max_score: 8, description: 'A clear position on banning homework.' },
      {
        item: 'Evidence',
        max_score: 7,
        levels: [
          { score: 7, descriptor: 'Well-chosen evidence' },
          { score: 3, descriptor: 'Thin evidence' },
        ],
      },
      { item: 'Organisation', max_score: 5 },
    ],
    total_score: 20,
    cum_method: 'sum',
    ...overrides,
  };
}

describe('POST /questions-ingest-preview', () => {
  test('multipart files: the example paper as PDF, with MIME inferred from the extension', async () => {
    const res = await sb.call('POST', '/questions-ingest-preview', {
      form: await form({}, [['files', join(EXAMPLES, 'question-paper.pdf'), 'question-paper.pdf']]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const preview = res.body.data;
    expect(preview.questions.map((q: { number: string; marks: number }) => [q.number, q.marks])).toEqual([
      ['1', 5],
      ['2', 25],
    ]);
    expect(preview.questions[0].sub_questions).toHaveLength(2);
    expect(preview.assignment_name).toBe('Year 10 English: Persuasive Writing Assessment');
    expect(preview.total_marks).toBe(30);
    expect(preview.stated_total).toBe(30);
    expect(preview.source_files).toEqual([
      expect.objectContaining({ name: 'question-paper.pdf', mime_type: 'application/pdf', origin: 'file', method: 'pdf/text' }),
    ]);
    expect(await readdir(join(sb.dataDir, 'files', 'incoming'))).toEqual([]);
  });

  test('the field "file", DOCX, and specification restricting to one question', async () => {
    const res = await sb.call('POST', '/questions-ingest-preview', {
      form: await form({ specification: 'question 2 only', assignment_name: 'Letter' }, [
        ['file', join(EXAMPLES, 'question-paper.docx'), 'question-paper.docx', DOCX],
      ]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.questions.map((q: { number: string }) => q.number)).toEqual(['2']);
    expect(res.body.data).toMatchObject({ assignment_name: 'Letter', specification: 'question 2 only' });
  });

  test("JSON with assets that are this sandbox's upload URLs (read from disk, no HTTP)", async () => {
    const url = await uploadExample('question-paper.pdf', 'application/pdf');
    const res = await sb.call('POST', '/questions-ingest-preview', { json: { assets: [{ url }] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.questions).toHaveLength(2);
    expect(res.body.data.source_files[0]).toMatchObject({ origin: 'upload', url, name: 'question-paper.pdf' });
  });

  test('multipart mixed: files plus assets as a JSON-array string', async () => {
    const url = await uploadExample('rubric.docx', DOCX);
    const res = await sb.call('POST', '/rubrics-ingest-preview', {
      form: await form({ assets: JSON.stringify([{ url, mime_type: DOCX, name: 'rubric.docx' }]), total_score: '30', cum_method: 'sum' }, [
        ['files', join(EXAMPLES, 'rubric.pdf'), 'rubric.pdf', 'application/pdf'],
      ]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.source_files.map((s: { origin: string }) => s.origin)).toEqual(['file', 'upload']);
  });

  test('malformed assets are 400: not a JSON array in multipart, wrong shapes in JSON', async () => {
    const bad = await sb.call('POST', '/questions-ingest-preview', {
      form: await form({ assets: '{"url": "https://example.org/a.pdf"}' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/assets.*JSON array/);
    for (const assets of [
      'https://example.org/a.pdf',
      [{ href: 'https://example.org/a.pdf' }],
      [{ url: 'ftp://example.org/a.pdf' }],
      [{ url: 'not a url' }],
    ]) {
      const res = await sb.call('POST', '/questions-ingest-preview', { json: { assets } });
      expect(res.status, JSON.stringify(assets)).toBe(400);
      expect(res.body.error.message).toMatch(/assets/);
    }
  });

  test('SSRF: loopback, link-local, private and http URLs are refused with 400 before any request', async () => {
    for (const url of [
      'https://127.0.0.1/x.pdf',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.8/paper.pdf',
      'https://[::1]/a.pdf',
      'https://localhost/a.pdf',
      'http://example.org/a.pdf',
      'https://[::ffff:127.0.0.1]/a.pdf',
    ]) {
      const res = await sb.call('POST', '/questions-ingest-preview', { json: { assets: [{ url }] } });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('asset_url_blocked');
      expect(res.body.error.message).toMatch(/not allowed/);
    }
  });

  test('an upload URL of this sandbox whose file does not exist is 400', async () => {
    const base = new URL(sb.baseUrl);
    const res = await sb.call('POST', '/questions-ingest-preview', {
      json: { assets: [{ url: `${base.origin}/files/${'0'.repeat(32)}/x.pdf` }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('asset_not_found');
  });

  test('file rules: unknown fields, unsupported types, nothing to parse, too many files', async () => {
    expect((await sb.call('POST', '/questions-ingest-preview', { json: { assets: [], total_score: 10 } })).status).toBe(400);
    const none = await sb.call('POST', '/questions-ingest-preview', { json: {} });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/Nothing to parse/);
    const dir = await mkdtemp(join(tmpdir(), 'kct-ingest-'));
    try {
      await writeFile(join(dir, 'paper.zip'), 'PK');
      const zip = await sb.call('POST', '/questions-ingest-preview', {
        form: await form({}, [['files', join(dir, 'paper.zip'), 'paper.zip']]),
      });
      expect(zip.status).toBe(400);
      expect(zip.body.error.code).toBe('unsupported_file_type');
      await writeFile(join(dir, 'q.txt'), '1. Explain. [2 marks]');
      const eleven = Array.from(
        { length: 11 },
        (_, i) => ['files', join(dir, 'q.txt'), `q${i}.txt`, 'text/plain'] as [string, string, string, string],
      );
      const many = await sb.call('POST', '/questions-ingest-preview', { form: await form({}, eleven) });
      expect(many.status).toBe(400);
      expect(many.body.error.code).toBe('too_many_files');
      const wrongField = await sb.call('POST', '/questions-ingest-preview', {
        form: await form({}, [['question_file', join(dir, 'q.txt'), 'q.txt', 'text/plain']]),
      });
      expect(wrongField.status).toBe(400);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('POST /rubrics-ingest-preview', () => {
  test('criteria with maxima and levels from the example rubric; total and method as sent', async () => {
    const res = await sb.call('POST', '/rubrics-ingest-preview', {
      form: await form({ total_score: '30', cum_method: 'sum' }, [
        ['files', join(EXAMPLES, 'rubric.pdf'), 'rubric.pdf', 'application/pdf'],
      ]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const preview = res.body.data;
    expect(preview.rubrics.map((r: { item: string; max_score: number }) => [r.item, r.max_score])).toEqual([
      ['Understanding of the issue', 5],
      ['Position and argument', 8],
      ['Evidence and counter-argument', 7],
      ['Organisation', 5],
      ['Language and conventions', 5],
    ]);
    expect(preview.rubrics[3].description).toBe(
      'Letter format, an opening, body paragraphs with one main idea each, and a conclusion; transitions guide the reader.',
    );
    expect(preview.rubrics[3].levels[0].descriptor).toBe(
      'Logical paragraphs, purposeful transitions and a conclusion that returns to the position.',
    );
    expect(preview).toMatchObject({ total_score: 30, cum_method: 'sum', criteria_total: 30, warnings: [] });
  });

  test('a total that the maxima do not reach is a warning that says by how much', async () => {
    const res = await sb.call('POST', '/rubrics-ingest-preview', {
      form: await form({ total_score: '40', cum_method: 'sum' }, [['files', join(EXAMPLES, 'rubric.docx'), 'rubric.docx', DOCX]]),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.warnings.join(' ')).toMatch(/add up to 30, 10 less than total_score 40/);
  });
});

describe('POST /models', () => {
  test('creates a training model owned by the user that becomes ready; one-pass then marks with its criteria', async () => {
    const res = await sb.call('POST', '/models', { json: validModel({ project_subject: 'English' }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const model = res.body.data;
    expect(model).toMatchObject({
      post_status: 'training',
      creation_method: 'custom',
      total_score: 20,
      cum_method: 'sum',
      criteria_count: 3,
      project_subject: 'English',
    });
    expect(model.model_id).toBeGreaterThan(1000);
    const list = await sb.call('GET', '/models');
    expect(list.body.data.find((m: { model_id: number }) => m.model_id === model.model_id)).toMatchObject({ post_status: 'ready' });
    // not visible to another user
    const other = await sb.call('GET', '/models', { key: sb.keys.broke });
    expect(other.body.data.some((m: { model_id: number }) => m.model_id === model.model_id)).toBe(false);
    const task = await sb.call('POST', '/evaluations/one-pass', { json: { model_id: model.model_id, paper_content: ESSAY } });
    expect(task.status).toBe(202);
    await sb.waitFor(task.body.data.task_id, sb.keys.user);
    const result = await sb.call('GET', `/evaluations/${task.body.data.task_id}`);
    expect(result.body.data.evaluation.map((e: { item: string }) => e.item)).toEqual(['Position', 'Evidence', 'Organisation']);
  });

  test('an organization key creates an organization model, visible to the organization', async () => {
    const res = await sb.call('POST', '/models', { key: sb.keys.org_admin, json: validModel() });
    expect(res.status).toBe(201);
    const list = await sb.call('GET', '/models', { key: sb.keys.org_admin });
    expect(list.body.data.some((m: { model_id: number }) => m.model_id === res.body.data.model_id)).toBe(true);
    const mine = await sb.call('GET', '/models');
    expect(mine.body.data.some((m: { model_id: number }) => m.model_id === res.body.data.model_id)).toBe(false);
  });

  test('stays training for the training delay: 409 for one-pass and assignments until ready', async () => {
    const res = await slow.call('POST', '/models', { json: validModel() });
    expect(res.status).toBe(201);
    const id = res.body.data.model_id;
    const onePass = await slow.call('POST', '/evaluations/one-pass', { json: { model_id: id, paper_content: ESSAY } });
    expect(onePass.status).toBe(409);
    expect(onePass.body.error.message).toMatch(/not ready/);
    const assignment = await slow.call('POST', '/assignments', {
      json: { model_id: id, assignment_name: 'A', assignment_desc: 'B', deadline_time: '2030-01-01T00:00:00Z', expected_number: 3 },
    });
    expect(assignment.status).toBe(409);
    const deadline = Date.now() + 5000;
    let status = 'training';
    while (status !== 'ready' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await slow.call('GET', '/models')).body.data.find((m: { model_id: number }) => m.model_id === id).post_status;
    }
    expect(status).toBe('ready');
    expect((await slow.call('POST', '/evaluations/one-pass', { json: { model_id: id, paper_content: ESSAY } })).status).toBe(202);
  });

  test('training survives a restart: the stored ready time is honoured by the next process', async () => {
    const first = await launch({ trainingDelayMs: 300 });
    const res = await first.call('POST', '/models', { json: validModel() });
    expect(res.status).toBe(201);
    const id = res.body.data.model_id;
    await first.close();
    const second = await launch({ trainingDelayMs: 300 }, first.dataDir);
    try {
      const statusOf = async () =>
        (await second.call('GET', '/models')).body.data.find((m: { model_id: number }) => m.model_id === id).post_status;
      const deadline = Date.now() + 5000;
      let status = await statusOf();
      while (status !== 'ready' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        status = await statusOf();
      }
      expect(status).toBe('ready');
    } finally {
      await second.dispose();
    }
  });

  test('strict validation: unknown fields, missing fields, sums that do not add up, duplicates', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [validModel({ extra: 1 }), /unknown field "extra"/],
      [validModel({ assignment_name: undefined }), /assignment_name/],
      [validModel({ total_score: 25 }), /add up to 20, 5 less than total_score 25/],
      [validModel({ total_score: 15 }), /add up to 20, 5 more than total_score 15/],
      [validModel({ questions: [] }), /questions: must hold at least one question/],
      [
        validModel({
          rubrics: [
            { item: 'A', max_score: 10 },
            { item: 'a', max_score: 10 },
          ],
        }),
        /criterion names must be unique/,
      ],
      [
        validModel({ rubrics: [{ item: 'A', max_score: 20, levels: [{ score: 25, descriptor: 'x' }] }] }),
        /above the criterion's max_score/,
      ],
      [validModel({ cum_method: 'median' }), /cum_method/],
    ];
    for (const [body, message] of cases) {
      const res = await sb.call('POST', '/models', { json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    // average: the maxima need not add up to the total
    expect((await sb.call('POST', '/models', { json: validModel({ cum_method: 'average', total_score: 10 }) })).status).toBe(201);
  });
});

describe('asset download (public-URL path, with private addresses allowed for the test)', () => {
  let server: Server;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kct-assets-'));
    server = createServer((req, res) => {
      if (req.url === '/paper.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('1. Explain. [2 marks]');
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.write(Buffer.alloc(600));
        res.end(Buffer.alloc(600));
      } else if (req.url === '/moved') {
        res.writeHead(302, { location: 'http://169.254.169.254/' });
        res.end();
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 2000);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });
  const opts = { allowPrivate: true, timeoutMs: 500, maxBytes: 1000 };

  test('downloads a file and reports its type', async () => {
    expect(await download(0, new URL(`${base}/paper.txt`), join(dir, 'a'), opts)).toEqual({ size: 21, contentType: 'text/plain' });
  });
  test('caps the size while streaming (413), refuses redirects, non-200 and slow servers (400)', async () => {
    await expect(download(0, new URL(`${base}/big`), join(dir, 'b'), opts)).rejects.toMatchObject({ status: 413, code: 'file_too_large' });
    expect((await readdir(dir)).includes('b')).toBe(false);
    await expect(download(1, new URL(`${base}/moved`), join(dir, 'c'), opts)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^assets\[1\]: .*redirect/),
    });
    await expect(download(0, new URL(`${base}/nothing`), join(dir, 'd'), opts)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/HTTP 404/),
    });
    await expect(download(0, new URL(`${base}/slow`), join(dir, 'e'), opts)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/did not answer within/),
    });
  });
  test('without the test allowance, the same loopback server is refused', async () => {
    await expect(download(0, new URL(`${base}/paper.txt`), join(dir, 'f'), { ...opts, allowPrivate: false })).rejects.toMatchObject({
      status: 400,
      code: 'asset_url_blocked',
    });
  });
});
