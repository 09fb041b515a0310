// The --resume journal is the run's record on disk (src/run/journal.ts): events appended by the
// record (src/run/record.ts), read back by identity, line by line into numbers, whatever the files
// were called; a torn last line is dropped, damage in the middle refused, an earlier kct's journal
// named as such.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { Journal } from '../../../src/run/journal.js';
import { RunRecord } from '../../../src/run/record.js';

const root = mkdtempSync(join(tmpdir(), 'kct-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const file = () => join(root, `j${n++}.journal`);

describe('the journal', () => {
  it("reads back each identity's last state: finished with its row, running, or sent in a batch", () => {
    const path = file();
    const journal = new Journal(path);
    const record = new RunRecord(journal);
    record.begin(3);
    record.found(0, { label: 'a1.txt' }, 'id-a');
    record.accepted(0, 'id-a', { taskId: 'tsk_1' }, 'QUEUED', false);
    record.final(0, 'id-a', { file: 'a1.txt', task_id: 'tsk_1', status: 'SUCCESS', score: 12 });
    record.accepted(1, 'id-b', { taskId: 'tsk_2' }, 'QUEUED', false);
    record.accepted(2, 'id-c', { batchId: 'tsk_batch', item: 4 }, 'QUEUED', false);
    record.final(3, undefined, { file: 'x.exe', status: 'SKIPPED', message: 'unsupported file type' });
    journal.close();
    const again = new Journal(path);
    const done = again.lookup('id-a');
    expect(done).toMatchObject({ kind: 'final', taskId: 'tsk_1', status: 'SUCCESS' });
    expect(again.savedRow((done as { slot: number }).slot)).toMatchObject({ file: 'a1.txt', score: 12, status: 'SUCCESS' });
    expect(again.lookup('id-b')).toEqual({ kind: 'task', taskId: 'tsk_2' });
    expect(again.lookup('id-c')).toEqual({ kind: 'batch', batchId: 'tsk_batch', item: 4 });
    expect(again.lookup('id-new')).toBeUndefined();
    expect(again.size).toBe(3);
    again.close();
    // every line is one event of one input, the first the header
    const events = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ kct_journal: 2 });
    expect(events.slice(1).map((event) => event.e)).toEqual(['run', 'found', 'accepted', 'final', 'accepted', 'accepted', 'unsent']);
  });

  it("a --no-wait row of a batch item (it names the batch) leaves the item followed as the batch's, until a final row names its own task", () => {
    const path = file();
    const journal = new Journal(path);
    const record = new RunRecord(journal);
    record.accepted(0, 'id-a', { batchId: 'tsk_batch', item: 2 }, 'QUEUED', false);
    record.final(0, 'id-a', { file: 'a.txt', task_id: 'tsk_batch', status: 'QUEUED' });
    journal.close();
    const again = new Journal(path);
    expect(again.lookup('id-a')).toEqual({ kind: 'batch', batchId: 'tsk_batch', item: 2 });
    new RunRecord(again).final(0, 'id-a', { file: 'a.txt', task_id: 'tsk_child', status: 'SUCCESS', score: 3 });
    again.close();
    expect(new Journal(path).lookup('id-a')).toMatchObject({ kind: 'final', taskId: 'tsk_child', status: 'SUCCESS' });
  });

  it("a batch item reused by a run stopped again stays the batch's item, also as an earlier kct wrote it (the batch as its task)", () => {
    const path = file();
    const journal = new Journal(path);
    const record = new RunRecord(journal);
    record.accepted(0, 'id-a', { batchId: 'tsk_batch', item: 3 }, 'QUEUED', false);
    record.reused(0, 'id-a', 'journal', { batchId: 'tsk_batch', item: 3 });
    journal.close();
    expect(readFileSync(path, 'utf8')).toContain('"e":"reused","row":0,"identity":"id-a","from":"journal","batch_id":"tsk_batch","item":3');
    expect(new Journal(path).lookup('id-a')).toEqual({ kind: 'batch', batchId: 'tsk_batch', item: 3 });
    // the line an earlier kct wrote: read as the batch's item, not as a task of the answer's own
    appendFileSync(path, `${JSON.stringify({ e: 'reused', row: 0, identity: 'id-a', from: 'journal', task_id: 'tsk_batch' })}\n`);
    expect(new Journal(path).lookup('id-a')).toEqual({ kind: 'batch', batchId: 'tsk_batch', item: 3 });
  });

  it('reads a journal of many answers in pieces (lines across piece boundaries)', () => {
    const path = file();
    const lines = [JSON.stringify({ kct_journal: 2 })];
    for (let i = 0; i < 20_000; i++) {
      lines.push(JSON.stringify({ e: 'accepted', row: i, identity: `id${i}`, task_id: `tsk_${i}`, status: 'QUEUED' }));
      lines.push(
        JSON.stringify({
          e: 'final',
          row: i,
          identity: `id${i}`,
          task_id: `tsk_${i}`,
          status: 'SUCCESS',
          at: 'x',
          out: { file: `s${i}.txt` },
        }),
      );
    }
    writeFileSync(path, `${lines.join('\n')}\n`);
    const journal = new Journal(path);
    expect(journal.size).toBe(20_000);
    const last = journal.lookup('id19999');
    expect(last).toMatchObject({ kind: 'final', taskId: 'tsk_19999' });
    expect(journal.savedRow((last as { slot: number }).slot)).toEqual({ file: 's19999.txt' });
    journal.close();
  });

  it('finished lines are indexed without their rows, whatever the row holds; a damaged row is read as none', () => {
    const path = file();
    const journal = new Journal(path);
    const record = new RunRecord(journal);
    record.final(0, 'id-1', {
      file: 'class/,"out":{"x":1}.txt',
      task_id: 'tsk_1',
      status: 'SUCCESS',
      message: 'said ,"out":{ twice ,"out":{',
    });
    record.final(1, 'id-2', { file: 'b.txt', task_id: 'tsk_2', status: 'SUCCESS', score: 3 });
    journal.close();
    writeFileSync(path, readFileSync(path, 'utf8').replace('"score":3,', '"score":3!'));
    const again = new Journal(path);
    const odd = again.lookup('id-1') as { slot: number };
    expect(again.savedRow(odd.slot)).toMatchObject({ file: 'class/,"out":{"x":1}.txt', message: 'said ,"out":{ twice ,"out":{' });
    const damaged = again.lookup('id-2') as { slot: number; taskId: string };
    expect(damaged).toMatchObject({ kind: 'final', taskId: 'tsk_2' });
    expect(again.savedRow(damaged.slot)).toBeUndefined();
    again.close();
  });

  it('a torn last line (a killed run) is dropped, so new lines never run into it; damage in the middle is an error', () => {
    const path = file();
    writeFileSync(
      path,
      `${JSON.stringify({ kct_journal: 2 })}\n${JSON.stringify({ e: 'accepted', identity: 'a', task_id: 't1', status: 'QUEUED' })}\n{"e":"accepted","ide`,
    );
    const journal = new Journal(path);
    journal.write({ e: 'accepted', identity: 'b', task_id: 't2', status: 'QUEUED' });
    journal.close();
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).identity),
    ).toEqual([undefined, 'a', 'b']);
    appendFileSync(path, 'not json\n{"e":"accepted","identity":"c","task_id":"t3","status":"QUEUED"}\n');
    expect(() => new Journal(path)).toThrow(UsageError);
  });

  it("an earlier kct's journal is named as such, before anything is sent", () => {
    const path = file();
    writeFileSync(path, `${JSON.stringify({ answer: 'a1.txt', key: 'kct-1', task_id: 'tsk_1', status: 'QUEUED', at: 'x' })}\n`);
    expect(() => new Journal(path)).toThrow(/written by an earlier kct/);
    const other = file();
    writeFileSync(other, 'hello\n');
    expect(() => new Journal(other)).toThrow(/not a kct journal/);
  });
});
