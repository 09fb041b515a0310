import { openAsBlob } from 'node:fs';
import { rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FormData, request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ESSAY, makeDataDir, sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile();
let work: string;
beforeAll(async () => {
  work = await makeDataDir();
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const upload = (fd: FormData) => sb.call('POST', '/uploads/file', { form: fd });
const oneFile = (name: string, content: string | Buffer, type: string, field = 'file') => {
  const fd = new FormData();
  fd.append(field, new Blob([content], { type }), name);
  return fd;
};

describe('POST /uploads/file', () => {
  test('201 with the uploaded-file shape; the URL serves the bytes without a key', async () => {
    const res = await upload(oneFile('question paper.txt', ESSAY, 'text/plain'));
    expect(res.status).toBe(201);
    const file = res.body.data;
    expect(file).toMatchObject({ name: 'question paper.txt', mime_type: 'text/plain', size: Buffer.byteLength(ESSAY) });
    expect(file.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/[0-9a-f]{32}\/question%20paper\.txt$/);
    expect(file.path).toBe(new URL(file.url).pathname);
    const fetched = await request(file.url);
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toBe('text/plain');
    expect(await fetched.body.text()).toBe(ESSAY);
  });

  test('an octet-stream type is inferred from the extension', async () => {
    const res = await upload(oneFile('scan.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'application/octet-stream'));
    expect(res.status).toBe(201);
    expect(res.body.data.mime_type).toBe('image/png');
  });

  test('a guessed or altered URL is 404', async () => {
    const { url } = (await upload(oneFile('a.txt', 'hello', 'text/plain'))).body.data;
    const wrongName = await request(url.replace(/a\.txt$/, 'b.txt'));
    expect(wrongName.statusCode).toBe(404);
    await wrongName.body.dump();
    const wrongToken = await request(url.replace(/\/files\/[0-9a-f]{4}/, '/files/0000'));
    expect(wrongToken.statusCode).toBe(404);
    await wrongToken.body.dump();
  });

  test('400: two files, no file, a text field, an unsupported type, the wrong field', async () => {
    const two = new FormData();
    two.append('file', new Blob(['a'], { type: 'text/plain' }), 'a.txt');
    two.append('file', new Blob(['b'], { type: 'text/plain' }), 'b.txt');
    expect((await upload(two)).body.error.code).toBe('too_many_files');
    const none = new FormData();
    none.append('note', 'hi');
    const noneRes = await upload(none);
    expect(noneRes.status).toBe(400);
    const text = oneFile('a.txt', 'x', 'text/plain');
    text.append('name', 'renamed');
    expect((await upload(text)).status).toBe(400);
    const zip = await upload(oneFile('a.zip', 'PK', 'application/zip'));
    expect(zip.status).toBe(400);
    expect(zip.body.error.code).toBe('unsupported_file_type');
    const field = await upload(oneFile('a.txt', 'x', 'text/plain', 'files'));
    expect(field.body.error.code).toBe('unknown_file_field');
    const json = await sb.call('POST', '/uploads/file', { json: { file: 'x' } });
    expect(json.status).toBe(400);
  });

  test('413 over 20 MB, enforced while streaming', async () => {
    const big = join(work, 'big.pdf');
    await writeFile(big, '');
    await truncate(big, 20 * 1024 * 1024 + 1);
    const fd = new FormData();
    fd.append('file', await openAsBlob(big, { type: 'application/pdf' }), 'big.pdf');
    const res = await upload(fd);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('file_too_large');
  });

  test('401 without a key; the public URL needs none', async () => {
    const res = await sb.call('POST', '/uploads/file', { key: null, form: oneFile('a.txt', 'x', 'text/plain') });
    expect(res.status).toBe(401);
  });
});

describe('POST /feedback-rewrite', () => {
  const sections = [
    {
      item: 'Thesis',
      comment: 'Clear position stated early. It lacks a counter-argument. To improve, answer the strongest objection.',
      score: 4,
      max_score: 5,
    },
    { item: 'Evidence', comment: 'Uses a survey and an example. Could explain how the survey supports the claim.', score: 4, max_score: 6 },
  ];

  test('bullet_points really changes the form; the other fields are echoed', async () => {
    const res = await sb.call('POST', '/feedback-rewrite', { json: { style: 'bullet_points', sections } });
    expect(res.status).toBe(200);
    expect(res.body.data.style).toBe('bullet_points');
    expect(res.body.data.sections).toHaveLength(2);
    for (const [i, s] of res.body.data.sections.entries()) {
      expect(s).toMatchObject({ item: sections[i].item, score: sections[i].score, max_score: sections[i].max_score, rewritten: true });
      expect(s.comment.split('\n').every((line: string) => line.startsWith('- '))).toBe(true);
    }
  });

  test('target_item rewrites only that criterion', async () => {
    const res = await sb.call('POST', '/feedback-rewrite', {
      json: { style: 'paragraph', target_item: 'evidence', instruction: 'speak to the student', sections },
    });
    expect(res.status).toBe(200);
    const [thesis, evidence] = res.body.data.sections;
    expect(thesis).toMatchObject({ rewritten: false, comment: sections[0].comment });
    expect(evidence.rewritten).toBe(true);
  });

  test('400: unknown style, empty sections, a target_item no section has', async () => {
    expect((await sb.call('POST', '/feedback-rewrite', { json: { style: 'haiku', sections } })).status).toBe(400);
    const huge = await sb.call('POST', '/feedback-rewrite', {
      json: { style: 'paragraph', sections: [{ item: 'Thesis', comment: 'Clear.', score: 9007199254740992, max_score: 5 }] },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatchObject({
      code: 'number_out_of_range',
      message: 'sections[0].score is 9007199254740992; marks must be from 0 to 10,000.',
    });
    const over = await sb.call('POST', '/feedback-rewrite', {
      json: { style: 'paragraph', sections: [{ item: 'Thesis', comment: 'Clear.', score: 6, max_score: 5 }] },
    });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe("sections[0].score is 6, more than its max_score 5: a score is out of its section's maximum.");
    const negative = await sb.call('POST', '/feedback-rewrite', {
      json: { style: 'paragraph', sections: [{ item: 'Thesis', comment: 'Clear.', score: -1, max_score: 5 }] },
    });
    expect(negative.body.error.code).toBe('number_out_of_range');
    expect((await sb.call('POST', '/feedback-rewrite', { json: { style: 'paragraph', sections: [] } })).status).toBe(400);
    const target = await sb.call('POST', '/feedback-rewrite', { json: { style: 'paragraph', target_item: 'Grammar', sections } });
    expect(target.status).toBe(400);
    expect(target.body.error.message).toMatch(/Grammar/);
  });
});
