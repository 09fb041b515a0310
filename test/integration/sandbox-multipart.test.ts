import { openAsBlob } from 'node:fs';
import { readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FormData } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { ESSAY, makeDataDir, sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile();
let work: string;
let essayPath: string;
beforeAll(async () => {
  work = await makeDataDir();
  essayPath = join(work, 'essay.txt');
  await writeFile(essayPath, ESSAY);
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function form(fields: Record<string, string>, files: [field: string, path: string, name: string, type?: string][] = []) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const [field, path, name, type] of files) fd.append(field, await openAsBlob(path, { type: type ?? '' }), name);
  return fd;
}

const post = async (fd: FormData, headers?: Record<string, string>) =>
  sb.call('POST', '/evaluations/one-pass', { form: fd, ...(headers ? { headers } : {}) });

/**
 * Tasks made for a student: a refused request made none. (Earlier tests' tasks may still be
 * running, so the balance and the credits reserved are not compared: they move on their own.)
 */
function tasksOf(studentId: string): number {
  const db = openSqlite(join(sb.dataDir, 'sandbox.db'), { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE student_id = ?').get(studentId) as { n: number }).n;
  } finally {
    db.close();
  }
}

async function incomingLeft(): Promise<string[]> {
  return readdir(join(sb.dataDir, 'files', 'incoming'));
}

describe('POST /evaluations/one-pass (multipart)', () => {
  test('an answer file: 202, stored under the data dir, marked to SUCCESS', async () => {
    const res = await post(
      await form({ model_id: '12', total_score: '20', student_id: 'mp-1' }, [['answer_file', essayPath, 'essay.txt', 'text/plain']]),
    );
    expect(res.status).toBe(202);
    const task = res.body.data;
    expect(task).toMatchObject({ status: 'QUEUED', model_id: 12, student_id: 'mp-1', credits_charged: 0 });
    const stored = await readdir(join(sb.dataDir, 'files', 'tasks', task.task_id));
    expect(stored).toEqual(['0']);
    expect((await stat(join(sb.dataDir, 'files', 'tasks', task.task_id, '0'))).size).toBe(Buffer.byteLength(ESSAY));
    const final = await sb.waitFor(task.task_id, sb.keys.user);
    expect(final.status).toBe('SUCCESS');
  });

  test('every answer field name of the spec is accepted; octet-stream is inferred from the extension', async () => {
    for (const field of ['answer_files', 'paper_file', 'response_files', 'file', 'files']) {
      const res = await post(await form({ model_id: '12' }, [[field, essayPath, 'essay.txt']]));
      expect(res.status, field).toBe(202);
    }
  });

  test('rubrics and current_feedbacks as JSON-array strings are accepted', async () => {
    const res = await post(
      await form({
        model_id: '12',
        paper_content: ESSAY,
        rubrics: JSON.stringify([
          { item: 'Argument', max_score: 10 },
          { item: 'Style', max_score: 10 },
        ]),
        current_feedbacks: JSON.stringify([{ item: 'Argument', comment: 'Good', score: 7 }]),
      }),
    );
    expect(res.status).toBe(202);
    const final = await sb.waitFor(res.body.data.task_id, sb.keys.user);
    expect(final.status).toBe('SUCCESS');
    const result = await sb.call('GET', `/evaluations/${res.body.data.task_id}`);
    expect(result.body.data.rubrics.map((r: { item: string }) => r.item)).toEqual(['Argument', 'Style']);
  });

  test.each([
    ['rubrics', '{"item": "x"}'],
    ['rubrics', 'not json'],
    ['current_feedbacks', '"text"'],
  ])('400 when %s is not a JSON array string (%s)', async (field, value) => {
    const res = await post(await form({ model_id: '12', paper_content: ESSAY, [field]: value }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_json_array');
    expect(res.body.error.message).toContain(`"${field}"`);
  });

  test('400 for an unknown text field, an unknown file field, and a missing answer', async () => {
    const unknownField = await post(await form({ model_id: '12', paper_content: ESSAY, colour: 'red' }));
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.message).toMatch(/colour/);
    const unknownFile = await post(await form({ model_id: '12' }, [['attachment', essayPath, 'essay.txt', 'text/plain']]));
    expect(unknownFile.status).toBe(400);
    expect(unknownFile.body.error.code).toBe('unknown_file_field');
    expect(unknownFile.body.error.message).toMatch(/attachment/);
    const missing = await post(await form({ model_id: '12' }, [['rubric_file', essayPath, 'rubric.txt', 'text/plain']]));
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('answer_missing');
    expect(await incomingLeft()).toEqual([]);
  });

  test('400 for an unsupported type, naming the file and the accepted types', async () => {
    const res = await post(await form({ model_id: '12' }, [['answer_file', essayPath, 'essay.zip', 'application/zip']]));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('unsupported_file_type');
    expect(res.body.error.message).toContain('"essay.zip"');
    expect(res.body.error.message).toContain('application/pdf');
    const unknownExt = await post(await form({ model_id: '12' }, [['answer_file', essayPath, 'essay.xyz']]));
    expect(unknownExt.status).toBe(400);
  });

  test('400 for more than 10 files, and nothing is kept', async () => {
    const files = Array.from(
      { length: 11 },
      (_, i) => ['answer_files', essayPath, `e${i}.txt`, 'text/plain'] as [string, string, string, string],
    );
    const res = await post(await form({ model_id: '12' }, files));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('too_many_files');
    expect(await incomingLeft()).toEqual([]);
  });

  test('400 for an empty file', async () => {
    const empty = join(work, 'empty.txt');
    await writeFile(empty, '');
    const res = await post(await form({ model_id: '12' }, [['answer_file', empty, 'empty.txt', 'text/plain']]));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('empty_file');
  });

  test('413 for a file over 20 MB; the partial file is deleted and no task is created', async () => {
    const big = join(work, 'big.txt');
    await writeFile(big, '');
    await truncate(big, 21 * 1024 * 1024);
    const res = await post(await form({ model_id: '12', student_id: 'too-big' }, [['answer_file', big, 'big.txt', 'text/plain']]));
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('file_too_large');
    expect(res.body.error.message).toContain('"big.txt"');
    expect(await incomingLeft()).toEqual([]);
    expect(tasksOf('too-big')).toBe(0);
    // The connection was not left in a broken state for the next request.
    expect((await sb.call('GET', '/credits')).status).toBe(200);
  });

  test('413 body_too_large when the text fields add up past 4 MB; a file already stored is deleted', async () => {
    const tasksBefore = await readdir(join(sb.dataDir, 'files', 'tasks'));
    // Each field is under the bytes a field may have; together they are over the request's.
    const part = 'a'.repeat(1_400_000);
    const fd = await form({ model_id: '12' }, [['answer_file', essayPath, 'essay.txt', 'text/plain']]);
    fd.append('paper_content', part);
    fd.append('question_text', part);
    fd.append('rubric_text', part);
    fd.append('student_id', 'after-the-refusal');
    const res = await post(fd);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('body_too_large');
    expect(res.body.error.message).toMatch(/text fields of this multipart request add up to more than the 4 MB limit/);
    expect(await incomingLeft()).toEqual([]);
    expect(await readdir(join(sb.dataDir, 'files', 'tasks'))).toEqual(tasksBefore);
    expect(tasksOf('after-the-refusal')).toBe(0);
    expect((await sb.call('GET', '/credits')).status).toBe(200);
  });

  test('a text field at its limit is read; one character more is 400 field_too_long naming the limit', async () => {
    const fd = await form({ model_id: '12', student_id: 'at-limit' });
    fd.append('paper_content', 'b'.repeat(500_000));
    const res = await post(fd);
    expect([202, 402]).toContain(res.status);
    if (res.status === 202) await sb.call('POST', `/evaluations/${res.body.data.task_id}/cancel`);
    const over = await form({ model_id: '12', student_id: 'over-limit' });
    over.append('rubric_text', 'c'.repeat(100_001));
    const refused = await post(over);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('field_too_long');
    expect(refused.body.error.message).toBe('rubric_text is 100,001 characters long; the limit is 100,000 characters.');
    // Cut short by the parser (more bytes than any field may have): still named, with its limit.
    const huge = await form({ model_id: '12', student_id: 'cut-short' });
    huge.append('question_text', 'd'.repeat(2_000_000));
    const cut = await post(huge);
    expect(cut.status).toBe(400);
    expect(cut.body.error.message).toBe('question_text is longer than its limit of 100,000 characters.');
    expect(await incomingLeft()).toEqual([]);
  });

  test('400 for more than 100 text fields', async () => {
    const fields = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, 'x']));
    const res = await post(await form(fields));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/too many fields/);
    expect(await incomingLeft()).toEqual([]);
  });

  test('exactly 20 MB is accepted', async () => {
    const edge = join(work, 'edge.txt');
    await writeFile(edge, '');
    await truncate(edge, 20 * 1024 * 1024);
    const res = await post(await form({ model_id: '12' }, [['answer_file', edge, 'edge.txt', 'text/plain']]));
    // Accepted at intake (402 would also prove it was read whole: the cost depends on its size).
    expect([202, 402]).toContain(res.status);
    if (res.status === 202) await sb.call('POST', `/evaluations/${res.body.data.task_id}/cancel`);
  });
});
