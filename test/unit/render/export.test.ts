// The one exporter (src/cli/render/export.ts), over generated rows (seeded, shrinking): whatever the
// text in them (commas, quotes, newlines, formulas, control characters, wide characters), json is
// one document of the records, ndjson a record a line, csv a header of the column names and rows of
// as many cells; the same on a terminal as on a pipe; a stream prints what the list prints.
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { err, type IO, notice } from '../../../src/cli/core/io.js';
import { stripControls, terminalSafe } from '../../../src/cli/core/sanitize.js';
import { createExporter } from '../../../src/cli/render/export.js';
import type { OutputFormat } from '../../../src/cli/render/format.js';
import { type Column, cell, guardFormula } from '../../../src/cli/render/rows.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

function bufferIO(options: { tty?: boolean; stderrJson?: boolean } = {}): IO & { text: () => string; errors: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let errors = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return {
    stdin: new PassThrough(),
    stdout,
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: options.tty ?? false,
    stderrIsTTY: options.tty ?? false,
    color: false,
    columns: 80,
    noPrompt: true,
    stderrJson: options.stderrJson,
    text: () => out,
    errors: () => errors,
  };
}

interface Row {
  id: number;
  name: string;
  note: string | null;
  extra: { tags: string[] } | null;
}

const COLUMNS: Column<Row>[] = [
  { name: 'id', header: 'ID', value: (row) => row.id },
  { name: 'name', header: 'Name', value: (row) => row.name, wrap: true },
  { name: 'note', header: 'Note', value: (row) => row.note, show: (row) => row.note ?? '(none)' },
  { name: 'extra', header: 'Extra', value: (row) => row.extra },
];

/** Text as students and servers write it: separators, quotes, formulas, line breaks, escapes, wide characters. */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom(',', '"', "'", '\n', '\r', '\t', '=', '+', '-', '@', ' ', '学', 'é', '\u001b', '{', '['),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});

const row: fc.Arbitrary<Row> = fc.record({
  id: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
  name: text,
  note: fc.option(text),
  extra: fc.option(fc.record({ tags: fc.array(text, { maxLength: 3 }) })),
});

const runs = propertyRuns(50);

/** What a value becomes in JSON, which drops -0 and keeps what it can. */
const viaJson = (value: unknown) => JSON.parse(JSON.stringify(value));

async function printed(format: OutputFormat, rows: Row[], tty: boolean): Promise<string> {
  const io = bufferIO({ tty });
  await createExporter(io, format).list(rows, COLUMNS);
  return io.text();
}

describe('the exporter', () => {
  it('prints any rows so that each machine format parses as that format, the same on a terminal and a pipe', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 6 }), fc.boolean(), async (rows, tty) => {
        const json = await printed('json', rows, tty);
        expect(JSON.parse(json)).toEqual(viaJson(rows));
        // indented, whatever the stream: the rule is the same on a terminal and a pipe
        expect(json).toBe(`${JSON.stringify(rows, null, 2)}\n`);

        const ndjson = await printed('ndjson', rows, tty);
        expect(ndjson === '' || ndjson.endsWith('\n')).toBe(true);
        const lines = ndjson.split('\n').slice(0, -1);
        expect(lines.map((line) => JSON.parse(line))).toEqual(viaJson(rows));

        const csv = await printed('csv', rows, tty);
        const records = parse(csv, { relax_column_count: false }) as string[][];
        expect(records[0]).toEqual(COLUMNS.map((c) => c.name));
        expect(records).toHaveLength(rows.length + 1);
        // on a terminal, control characters never reach the screen (sanitize.ts); JSON escapes them anyway
        const shown = tty ? stripControls : (cellText: string) => cellText;
        records.slice(1).forEach((record, i) => {
          expect(record).toEqual(
            COLUMNS.map((c) => {
              const value = c.value(rows[i]);
              return typeof value === 'number' ? String(value) : shown(guardFormula(cell(value)));
            }),
          );
        });

        const table = await printed('table', rows, tty);
        expect(() => JSON.parse(table)).toThrow();
        for (const format of ['json', 'ndjson'] as const) expect(await printed(format, rows, !tty)).toBe(await printed(format, rows, tty));
        expect(await printed('csv', rows, true)).toBe(terminalSafe(await printed('csv', rows, false)));
      }),
      { numRuns: runs, seed: propertySeed(3301) },
    );
  });

  it('prints a row stream as the list of the same rows; one record as an object, a line, or a header and one row', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 5 }), async (rows) => {
        for (const format of ['json', 'ndjson', 'csv', 'table'] as const) {
          const io = bufferIO();
          const stream = await createExporter(io, format).stream(COLUMNS);
          for (const each of rows) stream.row(each);
          await stream.end();
          expect(io.text(), format).toBe(await printed(format, rows, false));
        }
        const record = rows[0] ?? { id: 1, name: 'x', note: null, extra: null };
        const json = bufferIO();
        await createExporter(json, 'json').record(record, () => {});
        expect(JSON.parse(json.text())).toEqual(viaJson(record));
        const ndjson = bufferIO();
        await createExporter(ndjson, 'ndjson').record(record, () => {});
        expect(ndjson.text().split('\n')).toHaveLength(2);
        expect(JSON.parse(ndjson.text())).toEqual(viaJson(record));
        const csv = bufferIO();
        await createExporter(csv, 'csv').record(record, () => {});
        const [header, values, ...more] = parse(csv.text()) as string[][];
        expect(header).toEqual(Object.keys(record));
        expect(values).toHaveLength(header.length);
        expect(more).toEqual([]);
      }),
      { numRuns: runs, seed: propertySeed(3302) },
    );
  });
});

describe('the exporter, by example', () => {
  const rows: Row[] = [
    { id: 1, name: 'Essay, draft', note: null, extra: null },
    { id: 2, name: 'Plain', note: 'fine', extra: { tags: ['a'] } },
  ];

  it('json prints the command document of the records when it has one; ndjson and csv still the rows', async () => {
    const options = { record: (r: Row) => ({ id: r.id }), document: (records: unknown[]) => ({ ok: true, checks: records }) };
    const json = bufferIO();
    await createExporter(json, 'json').list(rows, COLUMNS, options);
    expect(JSON.parse(json.text())).toEqual({ ok: true, checks: [{ id: 1 }, { id: 2 }] });
    const ndjson = bufferIO();
    await createExporter(ndjson, 'ndjson').list(rows, COLUMNS, options);
    expect(ndjson.text()).toBe('{"id":1}\n{"id":2}\n');
  });

  it('the table shows what `show` says and heads columns by their headers; no rows: the `empty` sentence on stderr', async () => {
    const io = bufferIO();
    await createExporter(io, 'table').list(rows, COLUMNS);
    expect(io.text()).toMatch(/│ ID +│ Name +│ Note +│ Extra +│/);
    expect(io.text()).toContain('(none)');
    const empty = bufferIO();
    await createExporter(empty, 'table').list([], COLUMNS, { empty: 'No rows here.' });
    expect(empty.text()).toBe('');
    expect(empty.errors()).toBe('No rows here.\n');
    const emptyJson = bufferIO();
    await createExporter(emptyJson, 'json').list([], COLUMNS, { empty: 'No rows here.' });
    expect(emptyJson.text()).toBe('[]\n');
  });

  it('an event stream prints each event at once: a line in json too, and the table a line an event', async () => {
    for (const format of ['json', 'table'] as const) {
      const io = bufferIO();
      const stream = await createExporter(io, format).stream(COLUMNS, { events: true, line: (r) => `event ${r.id}` });
      stream.row(rows[0]);
      expect(io.text()).toBe(format === 'json' ? `${JSON.stringify(rows[0])}\n` : 'event 1\n');
      stream.row(rows[1]);
      await stream.end();
      expect(io.text().trim().split('\n')).toHaveLength(2);
    }
  });
});

describe('notice', () => {
  it('writes a line with its prefix for people, and one JSON object under --json', () => {
    const people = bufferIO();
    notice(people, 'warning', 'the deadline is in the past');
    notice(people, 'cost', '2 credits an answer');
    notice(people, 'progress', 'accepted tsk_1', { task_id: 'tsk_1' });
    notice(people, 'next', 'See the scores with: kct result tsk_1');
    expect(people.errors()).toBe(
      'warning: the deadline is in the past\nkct: cost: 2 credits an answer\nkct: accepted tsk_1\nSee the scores with: kct result tsk_1\n',
    );
    const script = bufferIO({ stderrJson: true });
    notice(script, 'progress', 'accepted tsk_1', { task_id: 'tsk_1' });
    notice(script, 'warning', 'a line\nand another');
    const lines = script.errors().trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { notice: { code: 'progress', message: 'accepted tsk_1', task_id: 'tsk_1' } },
      { notice: { code: 'warning', message: 'a line\nand another' } },
    ]);
  });

  it('under --json turns any line written as text into a notice, its code read from its prefix, and keeps JSON lines', () => {
    const script = bufferIO({ stderrJson: true });
    err(script, 'kct: cost: 3 credits an answer');
    err(script, 'Summary: 3 of 4 answers marked\n');
    err(script, 'warning: something');
    err(script, '[debug] > GET /v1/credits');
    err(script, '{"error":{"code":"usage","message":"bad"}}');
    err(script, '{not json');
    expect(
      script
        .errors()
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { notice: { code: 'cost', message: '3 credits an answer' } },
      { notice: { code: 'info', message: 'Summary: 3 of 4 answers marked' } },
      { notice: { code: 'warning', message: 'something' } },
      { notice: { code: 'debug', message: '> GET /v1/credits' } },
      { error: { code: 'usage', message: 'bad' } },
      { notice: { code: 'info', message: '{not json' } },
    ]);
  });
});
