// The worker's failure paths: an internal error settles a batch like any other end, and only an
// ExtractionError is the sender's fault.

import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createSandbox } from '../../packages/sandbox/src/server.js';
import { openSqlite } from '../../packages/sandbox/src/store/sqlite/driver.js';
import { INTERNAL_ERROR_COMMENT } from '../../packages/sandbox/src/tasks/worker.js';
import type { TestSandbox } from '../unit/sandbox-helpers.js';
import { ESSAY, launch, makeDataDir } from '../unit/sandbox-helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A seeded data dir, not in use. */
async function seededDir(): Promise<string> {
  const dir = await makeDataDir();
  const sb = await createSandbox({ dataDir: dir });
  await sb.close();
  return dir;
}

interface Row {
  task_id: string;
  kind: 'one_pass' | 'batch' | 'batch_item';
  status: string;
  input_json?: string;
  parent_task_id?: string;
  item_index?: number;
  callback_url?: string;
  result_json?: string;
}

/** Writes tasks straight into a data dir's database, as a previous run (or a bug) left them. */
function insertTasks(dir: string, rows: Row[]): void {
  const db = openSqlite(join(dir, 'sandbox.db'));
  try {
    const owner = (db.prepare(`SELECT id FROM users WHERE name = 'user'`).get() as { id: number }).id;
    const insert = db.prepare(`INSERT INTO tasks (task_id, kind, parent_task_id, item_index, owner_user_id, scope, model_id, status,
        credit_cost, input_json, result_json, callback_url, created_at, updated_at)
      VALUES (@task_id, @kind, @parent_task_id, @item_index, @owner, 'user', 12, @status, 1, @input_json, @result_json, @callback_url, 'now', 'now')`);
    for (const r of rows) {
      insert.run({
        parent_task_id: null,
        item_index: null,
        callback_url: null,
        result_json: null,
        input_json: JSON.stringify({ model_id: 12, paper_content: ESSAY }),
        ...r,
        owner,
      });
    }
  } finally {
    db.close();
  }
}

function storedStatus(dir: string, taskId: string): string {
  const db = openSqlite(join(dir, 'sandbox.db'), { readonly: true });
  try {
    return (db.prepare('SELECT status FROM tasks WHERE task_id = ?').get(taskId) as { status: string }).status;
  } finally {
    db.close();
  }
}

async function started(dir: string, options: Parameters<typeof launch>[0] = {}): Promise<TestSandbox> {
  const sb = await launch(options, dir);
  cleanups.push(() => sb.dispose());
  return sb;
}

describe('internal error of a batch item', () => {
  test('settles the batch: its row becomes final, its callback is queued, and cancelling it is 409', async () => {
    const dir = await seededDir();
    insertTasks(dir, [
      { task_id: 'tsk_batch_ie', kind: 'batch', status: 'QUEUED', callback_url: 'https://127.0.0.1/hook' },
      // input_json that no stage can parse: the worker throws, i.e. takes its internal-error path.
      {
        task_id: 'tsk_item_ie',
        kind: 'batch_item',
        parent_task_id: 'tsk_batch_ie',
        item_index: 0,
        status: 'QUEUED',
        input_json: 'not json',
      },
    ]);
    const sb = await started(dir, { timeScale: 1e9 });
    const item = await sb.waitFor('tsk_item_ie', sb.keys.user);
    expect(item.status).toBe('FAILURE');
    const record = (await sb.call('GET', '/evaluations/tsk_item_ie')).body.data;
    expect(record).toMatchObject({ retryable: true, evaluation: [{ type: 'error', comment: INTERNAL_ERROR_COMMENT }] });

    expect(storedStatus(dir, 'tsk_batch_ie')).toBe('FAILURE');
    const batch = (await sb.call('GET', '/evaluations/tsk_batch_ie')).body.data;
    expect(batch.status).toBe('FAILURE');
    expect(batch.callback.status).not.toBe('waiting_for_batch');
    expect(batch.callback.webhook_id).toMatch(/^msg_/);

    const cancel = await sb.call('POST', '/evaluations/tsk_batch_ie/cancel');
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('task_not_cancellable');
    expect(storedStatus(dir, 'tsk_batch_ie')).toBe('FAILURE');
  });
});

describe('cancelling a batch whose items are all final', () => {
  test('is 409 naming the status its record shows; the row is settled to it, not flipped to CANCEL', async () => {
    const dir = await seededDir();
    const sb = await started(dir, { timeScale: 1e9 });
    // Left unsettled after start-up (start-up settles what it finds): as a lost settle would leave it.
    const ok = JSON.stringify({ score: 10, max_score: 20, evaluation: [], rubrics: [] });
    const failed = JSON.stringify({ evaluation: [{ type: 'error', item: 'error', comment: 'x' }] });
    insertTasks(dir, [
      { task_id: 'tsk_batch_done', kind: 'batch', status: 'PROGRESS', callback_url: 'https://127.0.0.1/hook' },
      { task_id: 'tsk_done_0', kind: 'batch_item', parent_task_id: 'tsk_batch_done', item_index: 0, status: 'SUCCESS', result_json: ok },
      {
        task_id: 'tsk_done_1',
        kind: 'batch_item',
        parent_task_id: 'tsk_batch_done',
        item_index: 1,
        status: 'FAILURE',
        result_json: failed,
      },
    ]);
    expect((await sb.call('GET', '/evaluations/tsk_batch_done/status')).body.data.status).toBe('SUCCESS');

    const cancel = await sb.call('POST', '/evaluations/tsk_batch_done/cancel');
    expect(cancel.status).toBe(409);
    expect(cancel.body.error).toMatchObject({ code: 'task_not_cancellable' });
    expect(cancel.body.error.message).toMatch(/already SUCCESS/);
    expect(storedStatus(dir, 'tsk_batch_done')).toBe('SUCCESS');
    const batch = (await sb.call('GET', '/evaluations/tsk_batch_done')).body.data;
    expect(batch).toMatchObject({ status: 'SUCCESS', succeeded: 1, failed: 1, cancelled: 0 });
    expect(batch.items.map((i: any) => i.status)).toEqual(['SUCCESS', 'FAILURE']);
    expect(batch.callback.webhook_id).toMatch(/^msg_/);
  });
});

describe('a file that cannot be read', () => {
  test("an ExtractionError is the sender's: FAILURE, not retryable, the reason in the comment", async () => {
    const dir = await seededDir();
    const sb = await started(dir);
    const form = new (await import('undici')).FormData();
    form.set('model_id', '12');
    form.set('answer_file', new Blob([Buffer.from('not a pdf at all')], { type: 'application/pdf' }), 'essay.pdf');
    const res = await sb.call('POST', '/evaluations/one-pass', { form });
    expect(res.status).toBe(202);
    await sb.waitFor(res.body.data.task_id, sb.keys.user);
    const record = (await sb.call('GET', `/evaluations/${res.body.data.task_id}`)).body.data;
    expect(record).toMatchObject({ status: 'FAILURE', retryable: false });
    expect(record.evaluation[0].comment).toMatch(/Could not read answer file "essay.pdf": The PDF file could not be read/);
  });

  test("any other error is the sandbox's: retryable, and the comment never names a server path", async () => {
    const dir = await seededDir();
    insertTasks(dir, [{ task_id: 'tsk_lost_file', kind: 'one_pass', status: 'QUEUED', input_json: JSON.stringify({ model_id: 12 }) }]);
    const db = openSqlite(join(dir, 'sandbox.db'));
    // The row points at a stored file that is not there (a disk problem, not the sender's file).
    db.prepare(`INSERT INTO task_files (task_id, ord, role, field, name, mime, size, sha256, path)
      VALUES ('tsk_lost_file', 0, 'answer', 'answer_file', 'essay.txt', 'text/plain', 10, 'x', 'files/tasks/tsk_lost_file/0')`).run();
    db.close();
    const lines: string[] = [];
    const sb = await started(dir, { log: (line) => lines.push(line) });
    const snapshot = await sb.waitFor('tsk_lost_file', sb.keys.user);
    expect(snapshot.status).toBe('FAILURE');
    const record = (await sb.call('GET', '/evaluations/tsk_lost_file')).body.data;
    expect(record.retryable).toBe(true);
    expect(record.evaluation[0].comment).toBe(INTERNAL_ERROR_COMMENT);
    expect(record.message).toBe(INTERNAL_ERROR_COMMENT);
    expect(JSON.stringify(record)).not.toContain(dir);
    expect(JSON.stringify(record)).not.toMatch(/ENOENT/);
    // The operator still sees what happened.
    expect(lines.some((l) => l.includes('tsk_lost_file') && l.includes('ENOENT'))).toBe(true);
  });

  test('a stored DOCX that is gone is not blamed on the sender (no ExtractionError carrying its path)', async () => {
    const dir = await makeDataDir();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const { extractText, ExtractionError } = await import('../../packages/sandbox/src/engines/extract/index.js');
    const err = await extractText(join(dir, 'gone.docx'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document').catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(ExtractionError);
  });
});
