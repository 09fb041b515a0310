import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { EvaluationResult } from '../../src/api/schemas.js';
import type { IO } from '../../src/cli/core/io.js';
import { createExporter } from '../../src/cli/render/export.js';
import { resolveFormat } from '../../src/cli/render/format.js';
import { printResult } from '../../src/cli/render/result.js';
import { type Column, cell } from '../../src/cli/render/rows.js';
import { makeIO } from './memory-io.js';

const ESC = '\u001b';
const SGR = /\u001b\[[0-9;]*m/g;

interface Row {
  id: number;
  name: string;
  note: string | null;
  tags?: string[];
}

const columns: Column<Row>[] = [
  { name: 'id', header: 'ID', value: (row) => row.id },
  { name: 'name', header: 'Name', value: (row) => row.name },
  { name: 'note', header: 'Note', value: (row) => row.note, wrap: true },
];

/** The rows in this format, through the one exporter. */
function printRows<R>(io: IO, format: 'table' | 'json' | 'ndjson' | 'csv', list: R[], cols: Column<R>[], record?: (row: R) => unknown) {
  return createExporter(io, format).list(list, cols, { record });
}

const rows: Row[] = [
  { id: 1, name: 'Essay, draft', note: 'said "fine"' },
  { id: 2, name: 'Plain', note: 'line one\nline two' },
  { id: 3, name: 'Empty', note: null },
];

describe('a list in csv', () => {
  it('writes a header of the column names and quotes commas, quotes and newlines', async () => {
    const { io, output } = makeIO();
    await printRows(io, 'csv', rows, columns);
    expect(output()).toBe('id,name,note\n1,"Essay, draft","said ""fine"""\n2,Plain,"line one\nline two"\n3,Empty,\n');
  });

  it('writes objects as JSON and only the header for no rows', async () => {
    const { io, output } = makeIO();
    await printRows(
      io,
      'csv',
      [{ id: 4, name: 'x', note: null, tags: ['a', 'b'] }],
      [{ name: 'tags', header: 'Tags', value: (row: Row) => row.tags }],
    );
    expect(output()).toBe('tags\n"[""a"",""b""]"\n');
    const empty = makeIO();
    await printRows(empty.io, 'csv', [], columns);
    expect(empty.output()).toBe('id,name,note\n');
  });

  it('prefixes a cell that would run as a spreadsheet formula, but not a negative number', async () => {
    const { io, output } = makeIO();
    await printRows(io, 'csv', [{ id: -2, name: '=HYPERLINK("http://x")', note: '@SUM(A1)' }], columns);
    expect(output()).toBe('id,name,note\n-2,"\'=HYPERLINK(""http://x"")",\'@SUM(A1)\n');
  });
});

describe('a list in ndjson and json', () => {
  it('writes one JSON object per line for ndjson', async () => {
    const { io, output } = makeIO();
    await printRows(io, 'ndjson', rows, columns);
    const lines = output().split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual(rows);
  });

  it('writes a JSON array for json, through the raw mapper', async () => {
    const { io, output } = makeIO();
    await printRows(io, 'json', rows, columns, (row) => ({ id: row.id }));
    const text = output();
    expect(JSON.parse(text)).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(text.endsWith(']\n')).toBe(true);
  });

  it('writes [] for no rows in json and nothing in ndjson', async () => {
    const json = makeIO();
    await printRows(json.io, 'json', [], columns);
    expect(json.output()).toBe('[]\n');
    const ndjson = makeIO();
    await printRows(ndjson.io, 'ndjson', [], columns);
    expect(ndjson.output()).toBe('');
  });

  it('keeps server text untouched in machine formats, even on a terminal', async () => {
    const { io, output } = makeIO({ stdoutIsTTY: true });
    await printRows(io, 'ndjson', [{ id: 1, name: `a${ESC}[31mb`, note: null }], columns);
    expect(JSON.parse(output())).toEqual({ id: 1, name: `a${ESC}[31mb`, note: null });
  });
});

describe('a list as a table', () => {
  it('draws a table without colour codes when colour is off', async () => {
    const { io, output } = makeIO({ color: false });
    await printRows(io, 'table', rows, columns);
    const text = output();
    expect(text).not.toContain(ESC);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^┌─+┬─+┬─+┐$/);
    expect(lines[1]).toMatch(/│ ID +│ Name +│ Note +│/);
    expect(text).toContain('│ 1  │ Essay, draft │ said "fine" │');
    expect(text).toContain('line one');
    expect(text).toContain('line two');
    expect(lines.at(-1)).toMatch(/^└─+┴─+┴─+┘$/);
  });

  it('colours only head and border when colour is on', async () => {
    // cli-table3 paints through @colors/colors, which guesses colour support from the
    // environment; switch that guess on so the test sees what kct asks for.
    const colors = createRequire(import.meta.url)('@colors/colors/safe') as { enabled: boolean };
    const before = colors.enabled;
    colors.enabled = true;
    try {
      const plain = makeIO({ color: false });
      await printRows(plain.io, 'table', rows, columns);
      const coloured = makeIO({ color: true });
      await printRows(coloured.io, 'table', rows, columns);
      const text = coloured.output();
      expect(text).toContain(`${ESC}[1m`);
      expect(text).toContain(`${ESC}[90m`);
      expect(text.replace(SGR, '')).toBe(plain.output());
    } finally {
      colors.enabled = before;
    }
  });

  it('strips control sequences from cells on a terminal', async () => {
    const evil: Row = { id: 9, name: `x${ESC}[2J${ESC}]0;owned${'\u0007'}y`, note: `a\rb` };
    const { io, output } = makeIO({ stdoutIsTTY: true, color: false });
    await printRows(io, 'table', [evil], columns);
    const text = output();
    expect(text).not.toContain(ESC);
    expect(text).not.toContain('\r');
    expect(text).toContain('xy');
    expect(text).not.toContain('owned');
  });

  it('draws a piped table whole, however narrow COLUMNS would be on a terminal', async () => {
    const long = 'word '.repeat(60).trim();
    const { io, output } = makeIO({ columns: 60 });
    await printRows(io, 'table', [{ id: 1, name: 'n', note: long }], columns);
    expect(output()).toContain(`│ ${long} │`);
  });

  it('keeps cells as they are when stdout is not a terminal', async () => {
    const { io, output } = makeIO({ stdoutIsTTY: false, color: false });
    await printRows(io, 'table', [{ id: 9, name: `x${ESC}]0;title${'\u0007'}y`, note: null }], columns);
    expect(output()).toContain(`${ESC}]0;title`);
  });

  it('wraps a wide wrap column to fit the terminal', async () => {
    const long = 'word '.repeat(60).trim();
    const { io, output } = makeIO({ columns: 60, stdoutIsTTY: true });
    await printRows(io, 'table', [{ id: 1, name: 'n', note: long }], columns);
    const lines = output().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
  });
});

describe('cell and resolveFormat', () => {
  it('turns values into cell text', () => {
    expect(cell(undefined)).toBe('');
    expect(cell(null)).toBe('');
    expect(cell(0)).toBe('0');
    expect(cell(false)).toBe('false');
    expect(cell({ a: 1 })).toBe('{"a":1}');
  });

  it('picks the format: --json, then --output, then the configured one, else table', () => {
    expect(resolveFormat({ json: true })).toBe('json');
    expect(resolveFormat({ json: true, output: 'json' })).toBe('json');
    // two formats at once is a script's mistake: refused, saying how to give one
    expect(() => resolveFormat({ json: true, output: 'csv' })).toThrow(/--json and --output csv ask for two formats/);
    expect(resolveFormat({ output: 'csv' }, { value: 'ndjson' })).toBe('csv');
    expect(resolveFormat({}, { value: 'ndjson', source: 'environment (KCT_OUTPUT)' })).toBe('ndjson');
    expect(resolveFormat({})).toBe('table');
    // a configured value that is not a format is an error naming where it came from
    expect(() => resolveFormat({}, { value: 'yaml', source: 'environment (KCT_OUTPUT)' })).toThrow(/KCT_OUTPUT/);
  });
});

describe('printResult', () => {
  const success: EvaluationResult = {
    task_id: 'task_ok',
    status: 'SUCCESS',
    stage: 'completed',
    model_id: 12,
    student_id: 's-7',
    score: 7.5,
    evaluation: [
      { item: 'Argument', score: 4, max_score: 5, feedback: 'Clear thesis.' },
      { item: 'Style', score: 3.5, max_score: 5, feedback: 'Some run-on sentences.' },
    ],
  };

  it('prints the header, the total and one row per criterion', async () => {
    const { io, output } = makeIO();
    await printResult(io, success);
    const text = output();
    const lines = text.split('\n');
    expect(lines[0]).toBe('Task task_ok  SUCCESS  model 12  student s-7');
    expect(lines[1]).toBe('Total: 7.5 / 10');
    expect(text).toMatch(/│ Criterion +│ Score +│ Feedback +│/);
    expect(text).toMatch(/│ Argument +│ 4 \/ 5 +│ Clear thesis\. +│/);
    expect(text).toMatch(/│ Style +│ 3\.5 \/ 5 +│ Some run-on sentences\. +│/);
    expect(text).not.toContain(ESC);
  });

  it('says who marked it when the result names it (the sandbox does), and nothing when it does not (the service)', async () => {
    const sandbox = makeIO();
    await printResult(sandbox.io, { ...success, graded_by: "the sandbox's offline grader" });
    expect(sandbox.output().split('\n')[2]).toBe("Marked by the sandbox's offline grader");
    const service = makeIO();
    await printResult(service.io, success);
    expect(service.output()).not.toContain('Marked by');
  });

  it('uses max_score of the result, and no maximum when a criterion lacks one', async () => {
    const withMax = makeIO();
    await printResult(withMax.io, { ...success, max_score: 20 });
    expect(withMax.output().split('\n')[1]).toBe('Total: 7.5 / 20');
    const noMax = makeIO();
    await printResult(noMax.io, { task_id: 't', status: 'SUCCESS', score: 3, evaluation: [{ item: 'A', score: 3 }] });
    expect(noMax.output().split('\n')[1]).toBe('Total: 3');
  });

  it('colours the status and the total when colour is on', async () => {
    const { io, output } = makeIO({ color: true });
    await printResult(io, success);
    const lines = output().split('\n');
    expect(lines[0]).toContain(`${ESC}[32mSUCCESS${ESC}[39m`);
    expect(lines[1]).toBe(`${ESC}[1mTotal: 7.5 / 10${ESC}[22m`);
  });

  it('prints the comment of the error entry for a FAILURE, and no score', async () => {
    const { io, output } = makeIO();
    await printResult(io, {
      task_id: 'task_bad',
      status: 'FAILURE',
      score: null,
      evaluation: [
        { item: 'Argument', score: 0, feedback: 'n/a' },
        { type: 'error', comment: 'The answer file could not be read.' },
      ],
    });
    const text = output();
    expect(text).toBe('Task task_bad  FAILURE\nReason: The answer file could not be read.\n');
  });

  it('falls back to the message for a FAILURE without an error entry, and prints just the header for a bare CANCEL', async () => {
    const failed = makeIO();
    await printResult(failed.io, { task_id: 't', status: 'FAILURE', message: 'grading timed out' });
    expect(failed.output()).toBe('Task t  FAILURE\nReason: grading timed out\n');
    const cancelled = makeIO();
    await printResult(cancelled.io, { task_id: 't', status: 'CANCEL' });
    expect(cancelled.output()).toBe('Task t  CANCEL\n');
  });

  it('says an unfinished task is not finished yet', async () => {
    const { io, output } = makeIO();
    await printResult(io, { task_id: 'task_run', status: 'PROGRESS', progress: 40 });
    expect(output()).toBe('Task task_run  PROGRESS\nNot finished yet: no result to show.\n');
  });

  const hostile: EvaluationResult = {
    task_id: 'task_x',
    status: 'SUCCESS',
    student_id: `s${ESC}[8m`,
    score: 1,
    evaluation: [{ item: `Arg${ESC}[2J`, score: 1, max_score: 1, feedback: `ok${ESC}]0;owned${'\u0007'}\rfine` }],
  };

  it('strips control characters from server text on a terminal', async () => {
    const { io, output } = makeIO({ stdoutIsTTY: true });
    await printResult(io, hostile);
    const text = output();
    expect(text).not.toContain(ESC);
    expect(text).not.toContain('\r');
    expect(text).not.toContain('owned');
    expect(text).toContain('okfine');
    expect(text).toContain('student s\n');
  });

  it('strips control characters from a failure reason on a terminal', async () => {
    const { io, output } = makeIO({ stdoutIsTTY: true });
    await printResult(io, { task_id: 't', status: 'FAILURE', evaluation: [{ type: 'error', comment: `bad${ESC}[1A${ESC}[Kfile` }] });
    expect(output()).toBe('Task t  FAILURE\nReason: badfile\n');
  });

  it('keeps server text as it is when stdout is not a terminal', async () => {
    const { io, output } = makeIO({ stdoutIsTTY: false });
    await printResult(io, hostile);
    const text = output();
    expect(text).toContain(`${ESC}]0;owned`);
    expect(text).toContain(`s${ESC}[8m`);
  });
});
