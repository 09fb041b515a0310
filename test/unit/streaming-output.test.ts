// The pieces that keep a big run's memory flat: rows kept on disk until their turn, a table
// printed in pieces that reads exactly like one table, and the class figures kept as counts (the
// --resume journal read line by line into numbers: test/unit/run/journal.test.ts).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { IO } from '../../src/cli/core/io.js';
import type { AnswerOutcome } from '../../src/cli/render/outcome.js';
import { OutcomeWriter } from '../../src/cli/render/outcomes.js';
import { RowSpool } from '../../src/cli/render/row-spool.js';
import { displayWidth, renderTable, renderTableInChunks } from '../../src/cli/render/rows.js';
import { ClassTally } from '../../src/cli/render/tally.js';

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
    // the same status and reason: one line for them all, with the first few files
    // with the table on stdout, as the summary is
    expect(io.text()).toContain('Not marked (125):\n  100 answers: FAILURE (class/s1.txt, class/s3.txt, class/s5.txt, ...)\n');
    expect(io.text()).toContain('... and 25 more');
    expect(io.text()).not.toContain('class/s249.txt');
    expect(io.errors()).not.toContain('Not marked');
  });

  it('answers not marked for reasons of their own keep a line each; a reason of several lines is cut to its first', async () => {
    const io = bufferIO();
    const writer = new OutcomeWriter(io, 'table', { rows: 4 });
    await writer.init();
    writer.add({ ...outcome(0, 'FAILURE'), message: 'the file is empty' }, 0);
    writer.add({ ...outcome(1, 'FAILURE'), message: 'unreadable PDF\nhint: export it again' }, 1);
    writer.add({ ...outcome(2, 'FAILURE'), message: 'the file is empty' }, 2);
    writer.add(outcome(3, 'SUCCESS'), 3);
    await writer.finish();
    expect(io.text()).toContain(
      'Not marked (3):\n  class/s0.txt: FAILURE — the file is empty\n  class/s2.txt: FAILURE — the file is empty\n  class/s1.txt: FAILURE — unreadable PDF\n',
    );
    expect(io.text()).not.toContain('hint: export it again');
  });

  it("marks whose row carries a note (a file of the student not sent) are listed after the table, and in --json's end notice", async () => {
    for (const json of [false, true]) {
      const io = { ...bufferIO(), stderrJson: json };
      const writer = new OutcomeWriter(io, json ? 'json' : 'table', { rows: 3 });
      await writer.init();
      writer.add({ ...outcome(0, 'SUCCESS'), message: 'marked without a file that cannot be sent: notes.odt' }, 0);
      writer.add(outcome(1, 'SUCCESS'), 1);
      writer.add({ ...outcome(2, 'FAILURE'), message: 'the file is empty' }, 2);
      await writer.finish();
      if (!json) {
        expect(io.text()).toContain(
          "Marked, with a note to read first (1; the note is the row's message):\n  class/s0.txt: marked without a file that cannot be sent: notes.odt\n",
        );
        expect(io.text()).not.toMatch(/with a note[\s\S]*s1\.txt/);
        continue;
      }
      const end = JSON.parse(io.errors().trim().split('\n').at(-1)!).notice;
      expect(end).toMatchObject({
        marked_with_note_count: 1,
        marked_with_note: [{ file: 'class/s0.txt', message: 'marked without a file that cannot be sent: notes.odt' }],
        not_marked_count: 1,
      });
    }
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
