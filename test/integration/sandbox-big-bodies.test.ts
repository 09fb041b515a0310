// Big request bodies (docs/sandbox.md, "Big bodies"): a JSON body over 256 KiB is parsed and
// fingerprinted on a request thread, with the same answers as on the request thread; a long
// answer is kept in a file of its task's folder, not in the task's row; a submission refused or
// replayed after its answers were written leaves no folder behind.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { ESSAY, sandboxForFile, textForm } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile({ workers: 2 });

/** Essay text of exactly `chars` characters, on one line (a form would send its line breaks as CRLF). */
const longAnswer = (chars: number, seed = '') =>
  `${seed}${ESSAY.replace(/\s+/g, ' ').repeat(Math.ceil(chars / ESSAY.length) + 1)}`.slice(0, chars);
const raw = (path: string, rawBody: string, headers: Record<string, string> = {}) =>
  sb.call('POST', path, { rawBody, headers: { 'content-type': 'application/json', ...headers } });
const taskDirs = () => readdirSync(join(sb.dataDir, 'files', 'tasks')).sort();

function inputColumn(taskId: string): string {
  const db = openSqlite(join(sb.dataDir, 'sandbox.db'), { readonly: true });
  try {
    return (db.prepare('SELECT input_json FROM tasks WHERE task_id = ?').get(taskId) as { input_json: string }).input_json;
  } finally {
    db.close();
  }
}

describe('a JSON body over 256 KiB', () => {
  test.each([
    ['not JSON', `{"model_id": 12, "paper_content": "${'a'.repeat(300_000)}`, 'invalid_json'],
    ['a __proto__ key', `{"__proto__": {"x": 1}, "paper_content": "${'a'.repeat(300_000)}"}`, 'invalid_json'],
    ['only white space', ' '.repeat(300_000), 'invalid_request'],
  ])('%s: answered as a small one would be', async (_, body, code) => {
    const res = await raw('/evaluations/one-pass', body);
    expect([res.status, res.body.error.code]).toEqual([400, code]);
    // said in the sandbox's words, naming what is refused, never the parser's
    if (code === 'invalid_json')
      expect(res.body.error.message).toMatch(/^The body is not valid JSON, or it holds a "__proto__" or "constructor" key/);
  });

  test('is accepted, and keeps its fingerprint: the same fields as multipart with the same key are a replay; the long answer is in a file of the task', async () => {
    const fields = { model_id: 12, student_id: 'long-1', paper_content: longAnswer(300_000) };
    const headers = { 'idempotency-key': 'big-json-1' };
    const first = await raw('/evaluations/one-pass', JSON.stringify(fields), headers);
    expect(first.status).toBe(202);
    const taskId = first.body.data.task_id;
    const form = textForm(['model_id', '12'], ['student_id', 'long-1'], ['paper_content', fields.paper_content]);
    const again = await sb.call('POST', '/evaluations/one-pass', { form, headers });
    expect(
      [again.status, again.headers['idempotent-replayed'], again.body.data?.task_id],
      JSON.stringify(again.body).slice(0, 300),
    ).toEqual([202, 'true', taskId]);

    expect(inputColumn(taskId)).toBe('{"file":"input.json"}');
    const file = join(sb.dataDir, 'files', 'tasks', taskId, 'input.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(fields);
    const final = await sb.waitFor(taskId, sb.keys.user, undefined, 60_000);
    expect(final.status).toBe('SUCCESS');
    const result = (await sb.call('GET', `/evaluations/${taskId}`)).body.data;
    expect(result).toMatchObject({ status: 'SUCCESS', student_id: 'long-1', credits_charged: 1 });
  }, 90_000);
});

describe('a batch of long answers', () => {
  const items = (model: number) =>
    Array.from({ length: 2 }, (_, i) => ({ model_id: model, student_id: `b${i}`, paper_content: longAnswer(140_000, `${i}`) }));

  test('refused after its answers were written (402): no folder is left', async () => {
    const before = taskDirs();
    const res = await sb.call('POST', '/evaluations/batch', { key: sb.keys.broke, json: { evaluations: items(15) } });
    expect([res.status, res.body.error.code]).toEqual([402, 'insufficient_credits']);
    expect(taskDirs()).toEqual(before);
  });

  test('replayed or changed under its key: only its first request left folders (one per item)', async () => {
    const headers = { 'idempotency-key': 'big-batch-1' };
    const body = JSON.stringify({ evaluations: items(12) });
    const before = taskDirs();
    const first = await raw('/evaluations/batch', body, headers);
    expect(first.status).toBe(202);
    const made = taskDirs().filter((d) => !before.includes(d));
    const again = await raw('/evaluations/batch', body, headers);
    expect([again.status, again.headers['idempotent-replayed'], again.body.data.task_id]).toEqual([202, 'true', first.body.data.task_id]);
    expect(taskDirs().filter((d) => !before.includes(d))).toEqual(made);
    expect(made).toHaveLength(2);
    // the same key on changed answers: refused, and nothing written for it either
    const changed = await raw('/evaluations/batch', body.replace('b1', 'b2'), headers);
    expect([changed.status, changed.body.error.code]).toEqual([409, 'idempotency_key_reused']);
    expect(taskDirs().filter((d) => !before.includes(d))).toEqual(made);
    const final = await sb.waitFor(first.body.data.task_id, sb.keys.user, undefined, 60_000);
    expect(final).toMatchObject({ status: 'SUCCESS', message: '2 of 2 items succeeded.' });
  }, 90_000);
});
