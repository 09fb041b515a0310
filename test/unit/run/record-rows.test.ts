// The rows of a journal's last run (record-rows.ts): a run stopped before it reached every answer
// has a row for each all the same (NOT_SENT, by its run's count of rows); a run killed before it
// wrote any row leaves the run before it whole, not a class of answers "never reached".
import { describe, expect, it } from 'vitest';
import { lastRunRows, type RecordLine } from '../../../src/run/record-rows.js';

async function* linesOf(events: object[]): AsyncGenerator<RecordLine> {
  let offset = 0;
  for (const [at, event] of events.entries()) {
    const text = JSON.stringify(event);
    yield { text, number: at + 1, offset, length: text.length };
    offset += text.length + 1;
  }
}

const rowsOf = async (events: object[]) => {
  const rows: { status?: string; file?: string | null }[] = [];
  for await (const { value } of lastRunRows(linesOf(events))) rows.push(value as { status?: string; file?: string | null });
  return rows;
};

const final = (row: number, file: string) => ({
  e: 'final',
  row,
  identity: `id${row}`,
  task_id: `tsk_${row}`,
  status: 'SUCCESS',
  out: { file, student_id: file, task_id: `tsk_${row}`, status: 'SUCCESS', score: 10, max_score: 20 },
});

describe("a journal's last run", () => {
  it('a run stopped part way: each answer it never reached is a NOT_SENT row with no file to name', async () => {
    const rows = await rowsOf([{ kct_journal: 2 }, { e: 'run', rows: 3 }, final(0, 'a.txt')]);
    expect(rows.map((row) => row.status)).toEqual(['SUCCESS', 'NOT_SENT', 'NOT_SENT']);
    expect(rows.slice(1).map((row) => row.file)).toEqual([null, null]);
  });

  it('a run killed before it wrote a row leaves the run before it whole', async () => {
    const marked = [final(0, 'a.txt'), final(1, 'b.txt')];
    const rows = await rowsOf([{ kct_journal: 2 }, { e: 'run', rows: 2 }, ...marked, { e: 'run', rows: 2 }]);
    expect(rows.map((row) => [row.file, row.status])).toEqual([
      ['a.txt', 'SUCCESS'],
      ['b.txt', 'SUCCESS'],
    ]);
  });
});
