// The pieces that keep a big run's memory flat: rows kept on disk until their turn, a table
// printed in pieces that reads exactly like one table, the class figures kept as counts, and
// the --resume journal read line by line into numbers.
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import type { IO } from '../../src/cli/core/io.js';
import { type AnswerOutcome, OutcomeWriter } from '../../src/cli/render/outcomes.js';
import { RowSpool } from '../../src/cli/render/row-spool.js';
import { displayWidth, renderTable, renderTableInChunks } from '../../src/cli/render/rows.js';
import { ClassTally } from '../../src/cli/render/tally.js';
import { Journal } from '../../src/commands/one-pass/journal.js';

function bufferIO(color = false): IO & { text: () => string; errors: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let errText = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (errText += chunk.toString()));
  return {
    stdin: new PassThrough(),
    stdout,
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    color,
    columns: 80,
    noPrompt: true,
    text: () => out,
    errors: () => errText,
  };
}

describe('RowSpool', () => {
  it('gives rows back in index order, whatever order they arrive in, holding early ones on disk', () => {
    const spool = new RowSpool(6);
    const printed: string[] = [];
    for (const index of [2, 0, 1, 5, 3, 4]) printed.push(...spool.arrive(index, `row ${index} ✓`));
    expect(printed).toEqual(['row 0 ✓', 'row 1 ✓', 'row 2 ✓', 'row 3 ✓', 'row 4 ✓', 'row 5 ✓']);
    spool.discard();
  });

  it('a row that will never come does not hold back the rest', () => {
    const spool = new RowSpool(3);
    expect(spool.arrive(2, 'c')).toEqual([]);
    expect(spool.skip(0)).toEqual([]);
    expect(spool.arrive(1, 'b')).toEqual(['b', 'c']);
    spool.discard();
  });
});

describe('a table printed in pieces', () => {
  it('reads exactly like one table of all the rows (widths, borders, colours)', async () => {
    for (const color of [false, true]) {
      const io = bufferIO(color);
      const strlen = await displayWidth();
      const head = ['File', 'Student', 'Task', 'Status', 'Score'];
      const body = Array.from({ length: 1234 }, (_, i) => [
        `s${i}.txt`,
        i % 7 === 0 ? 'Zoë 学生' : `s${i}`,
        `tsk_${i.toString(16).padStart(24, '0')}`,
        i % 5 ? 'SUCCESS' : 'FAILURE',
        i % 3 ? `${i % 20} / 20` : '',
      ]);
      const whole = await renderTable(io, head, body, [], { compact: true });
      const widths = head.map((_, column) => Math.max(...body.map((row) => strlen(row[column]))));
      let pieces = '';
      await renderTableInChunks(io, head, widths, body, (text) => (pieces += text));
      expect(pieces).toBe(`${whole}\n`);
    }
  });
});

describe('OutcomeWriter', () => {
  const outcome = (i: number, status = 'SUCCESS'): AnswerOutcome => ({
    file: `class/s${i}.txt`,
    student_id: `s${i}`,
    task_id: `tsk_${i}`,
    status,
    score: status === 'SUCCESS' ? i % 20 : null,
    max_score: 20,
    evaluation: status === 'SUCCESS' ? [{ item: 'Thesis', score: i % 5, max_score: 5 }] : null,
  });

  it('--json: one array in the order found, as JSON.stringify would print it, though rows finish in another order', async () => {
    const io = bufferIO();
    const writer = new OutcomeWriter(io, 'json', { rows: 5 });
    await writer.init();
    for (const i of [3, 0, 4, 1, 2]) writer.add(outcome(i), i);
    await writer.finish();
    const expected = [0, 1, 2, 3, 4].map((i) => ({
      file: `class/s${i}.txt`,
      student_id: `s${i}`,
      task_id: `tsk_${i}`,
      status: 'SUCCESS',
      score: i % 20,
      max_score: 20,
      credits_charged: null,
      evaluation: [{ item: 'Thesis', score: i % 5, max_score: 5 }],
    }));
    expect(io.text()).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });

  it('the table: in the order found, the shared folder said once; the answers not marked listed (the first hundred)', async () => {
    const io = bufferIO();
    const writer = new OutcomeWriter(io, 'table', { rows: 250 });
    await writer.init();
    for (let i = 249; i >= 0; i--) writer.add(outcome(i, i % 2 ? 'FAILURE' : 'SUCCESS'), i);
    await writer.finish();
    const lines = io.text().split('\n');
    expect(lines[0]).toBe('Files in class/');
    const files = lines.filter((line) => /│ s\d+\.txt/.test(line)).map((line) => /s(\d+)\.txt/.exec(line)![1]);
    expect(files.map(Number)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(io.text()).toContain('Summary: 125 of 250 answers marked, 125 failed');
    expect(io.errors()).toContain('Not marked (125):');
    expect(io.errors()).toContain('class/s1.txt: FAILURE');
    expect(io.errors()).toContain('... and 25 more');
    expect(io.errors()).not.toContain('class/s249.txt');
  });

  it('CSV: rows that finish before the first marked answer wait for its criterion columns, on disk past a few hundred', async () => {
    const io = bufferIO();
    const writer = new OutcomeWriter(io, 'csv', { rows: 1001 });
    await writer.init();
    for (let i = 0; i < 1000; i++) writer.add(outcome(i, 'FAILURE'), i);
    writer.add(outcome(1000), 1000);
    await writer.finish();
    const lines = io.text().trim().split('\n');
    expect(lines[0]).toBe('file,student_id,task_id,status,score,Thesis,max_score,message,duplicate_of');
    expect(lines).toHaveLength(1002);
    expect(lines[1001]).toBe('class/s1000.txt,s1000,tsk_1000,SUCCESS,0,0,20,,');
  });
});

describe('ClassTally', () => {
  it('keeps counts per total, not answers: exact to the mark, coarser only past 4,096 distinct totals', () => {
    const tally = new ClassTally();
    for (let i = 0; i < 100_000; i++) tally.add({ status: 'SUCCESS', score: (i % 41) / 2, maxScore: 20 });
    const summary = tally.summary();
    expect(summary.marked).toBe(100_000);
    expect(summary.median).toBe(10);
    expect(summary.min).toBe(0);
    expect(summary.max).toBe(20);
    const wild = new ClassTally();
    for (let i = 0; i < 50_000; i++) wild.add({ status: 'SUCCESS', score: i / 997, maxScore: 100 });
    expect(Math.abs((wild.summary().median as number) - 25_000 / 997)).toBeLessThan(0.1);
  });
});

describe('Journal', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'kct-journal-'));

  it("reads back each answer's last state: finished with its row, running, or sent in a batch", () => {
    const path = join(dir(), 'marks.journal');
    const journal = new Journal(path);
    journal.submitted('a1.txt', 'kct-1', 'tsk_1', 'QUEUED');
    journal.finished('a1.txt', 'tsk_1', 'SUCCESS', { file: 'a1.txt', score: 12 });
    journal.submitted('a2.txt', 'kct-2', 'tsk_2', 'QUEUED');
    journal.submittedInBatch('a3.txt', 'kct-3', 'tsk_batch', 4);
    journal.close();
    const again = new Journal(path);
    const done = again.plan('a1.txt', 'kct-1');
    expect(done).toMatchObject({ kind: 'done', taskId: 'tsk_1', status: 'SUCCESS' });
    expect(again.row((done as { slot: number }).slot)).toEqual({ file: 'a1.txt', score: 12 });
    expect(again.plan('a1.txt', 'kct-changed')).toEqual({ kind: 'submit', changed: true });
    expect(again.plan('a2.txt', 'kct-2')).toEqual({ kind: 'attach', taskId: 'tsk_2' });
    expect(again.plan('a3.txt', 'kct-3')).toEqual({ kind: 'attach-batch', batchId: 'tsk_batch', item: 4 });
    expect(again.plan('new.txt', 'kct-9')).toEqual({ kind: 'submit', changed: false });
    expect(again.batchMembers()).toEqual(new Map([['tsk_batch', 1]]));
    again.close();
  });

  it('reads a journal of many answers in pieces (lines across piece boundaries), and one of an earlier version', () => {
    const path = join(dir(), 'big.journal');
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      lines.push(JSON.stringify({ answer: `s${i}.txt`, key: `kct-${i}`, task_id: `tsk_${i}`, status: 'QUEUED', at: 'x' }));
      lines.push(JSON.stringify({ answer: `s${i}.txt`, key: `kct-${i}`, task_id: `tsk_${i}`, status: 'SUCCESS', at: 'x' }));
    }
    writeFileSync(path, `${lines.join('\n')}\n`);
    const journal = new Journal(path);
    expect(journal.size).toBe(20_000);
    expect(journal.lines).toBe(40_000);
    expect(journal.plan('s19999.txt', 'kct-19999')).toMatchObject({ kind: 'done', taskId: 'tsk_19999' });
    // no row in an earlier version's journal: the result is read from the service instead
    expect(journal.row((journal.plan('s5.txt', 'kct-5') as { slot: number }).slot)).toBeUndefined();
    journal.close();
  });

  it('finished lines are indexed without their rows, whatever the answer is called; a damaged row is fetched again', () => {
    const path = join(dir(), 'rows.journal');
    const odd = 'class/,"row":{"x":1}.txt';
    const journal = new Journal(path);
    journal.submitted(odd, 'k1', 'tsk_1', 'QUEUED');
    journal.finished(odd, 'tsk_1', 'SUCCESS', { file: odd, feedback: 'said ,"row":{ twice ,"row":{' });
    journal.submitted('b.txt', 'k2', 'tsk_2', 'QUEUED');
    journal.finished('b.txt', 'tsk_2', 'SUCCESS', { file: 'b.txt', score: 3 });
    journal.submitted('c.txt', 'k3', 'tsk_3', 'QUEUED');
    journal.close();
    // b.txt's row damaged in place (same length, so the index still points at it)
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('"score":3}', '"score":3!'));
    const again = new Journal(path);
    const done = again.plan(odd, 'k1');
    expect(done).toMatchObject({ kind: 'done', taskId: 'tsk_1', status: 'SUCCESS' });
    expect(again.row((done as { slot: number }).slot)).toEqual({ file: odd, feedback: 'said ,"row":{ twice ,"row":{' });
    const damaged = again.plan('b.txt', 'k2');
    expect(damaged).toMatchObject({ kind: 'done', taskId: 'tsk_2', status: 'SUCCESS' });
    expect(again.row((damaged as { slot: number }).slot)).toBeUndefined();
    expect(again.plan('c.txt', 'k3')).toEqual({ kind: 'attach', taskId: 'tsk_3' });
    again.close();
  });

  it('a torn last line (a killed run) is dropped, so new lines never run into it; damage in the middle is an error', () => {
    const path = join(dir(), 'torn.journal');
    writeFileSync(path, `${JSON.stringify({ answer: 'a1.txt', key: 'k1', task_id: 't1', status: 'QUEUED' })}\n{"answer":"a2.txt","ke`);
    const journal = new Journal(path);
    journal.submitted('a2.txt', 'k2', 't2', 'QUEUED');
    journal.close();
    expect(
      readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).answer),
    ).toEqual(['a1.txt', 'a2.txt']);
    appendFileSync(path, 'not json\n{"answer":"a3.txt","key":"k3","task_id":"t3","status":"QUEUED"}\n');
    expect(() => new Journal(path)).toThrow(UsageError);
  });
});
