// The one exporter, as gh's cmdutil.Exporter: a command hands it rows or a record, and it prints
// them in the format chosen (format.ts: --json, --output, KCT_OUTPUT, `kct config set output`),
// the same on a terminal as on a pipe. The rules, for every command
// (docs/guides/configuration-and-keys.md, "Output formats"):
// - json: one document, indented by two spaces (what a person sees is what a file gets; a compact
//   line is what ndjson is for). Rows: an array of their records, or the command's document of them.
// - ndjson: one compact JSON line per record, each ending in a newline; no rows, no lines.
// - csv: a header of column names, then a row per record; one record is a header of its fields
//   and one row. Numbers stay numbers; objects are JSON text; a cell that could run as a formula is
//   guarded (rows.ts CSV_OPTIONS).
// - table: the rows under their columns' headers, or the command's own view of a record.

import type { Context } from '../core/context.js';
import { type IO, notice, out, outRaw, safeText, type Written } from '../core/io.js';
import { type OutputFormat, resolveFormat } from './format.js';
import { type Column, CSV_OPTIONS, cell, renderRows } from './rows.js';

interface ListOptions<Row> {
  /** What json and ndjson print of a row (default: the row itself, e.g. the record as the server sent it). */
  record?: (row: Row) => unknown;
  /** What json prints of the records (default: their array), e.g. `{ ok, checks }`; ndjson and csv still print the rows. */
  document?: (records: unknown[]) => unknown;
  /** Said on stderr instead of an empty table (the machine formats print their empty form). */
  empty?: string;
  /** A line between the table's rows (for wrapped, many-line cells). */
  lines?: boolean;
}

/** Rows that arrive one at a time, printed as they come (a table waits for all of them). */
interface RowStream<Row> {
  /** `written` is told once the row is handed to the system, or that it could not be (a table's rows are held: at once). */
  row(row: Row, written?: Written): void;
  /** Closes what is open (json's array) or prints the table; call it once, also when there were no rows. */
  end(): Promise<void>;
}

interface StreamOptions<Row> extends Pick<ListOptions<Row>, 'record' | 'lines'> {
  /**
   * Events of a command that runs until stopped (`kct callbacks listen`), each printed as it
   * comes: json too is a line an event (an array that never ends cannot be read), and the table
   * a line an event, as `line` writes it (columns cannot be laid out before the last row).
   */
  events?: boolean;
  line?: (row: Row) => string;
}

export interface Exporter {
  readonly format: OutputFormat;
  /** A list of rows (see the rules above); none is `[]` in json, nothing in ndjson, the header alone in csv. */
  list<Row>(rows: readonly Row[], columns: readonly Column<Row>[], options?: ListOptions<Row>): Promise<void>;
  /** One record; `human` is the table format's view of it (lines, a table, or nothing on stdout). */
  record(record: object, human: () => void | Promise<void>): Promise<void>;
  /** A list printed row by row; csv's header goes out at once. */
  stream<Row>(columns: readonly Column<Row>[], options?: StreamOptions<Row>): Promise<RowStream<Row>>;
}

/** The exporter of a command's flags: --json and --output when it has them, else the configured format. */
export async function exporterFor(options: { output?: unknown; json?: unknown }, context: Context): Promise<Exporter> {
  return createExporter(context.io, resolveFormat(options, (await context.settings()).output));
}

export function createExporter(io: IO, format: OutputFormat): Exporter {
  return {
    format,
    list: (rows, columns, options) => printList(io, format, rows, columns, options),
    record: (record, human) => printRecord(io, format, record, human),
    stream: (columns, options) => openStream(io, format, columns, options),
  };
}

async function printList<Row>(
  io: IO,
  format: OutputFormat,
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  options: ListOptions<Row> = {},
): Promise<void> {
  const record = options.record ?? ((row: Row) => row);
  if (format === 'json') return out(io, pretty(options.document ? options.document(rows.map(record)) : rows.map(record)));
  if (format === 'ndjson') return writeLines(io, rows.map(record));
  if (format === 'csv')
    return outRaw(io, (await csvStringify())([columns.map((c) => c.name), ...rows.map((row) => columns.map((c) => c.value(row)))]));
  if (rows.length === 0 && options.empty !== undefined) return notice(io, 'info', options.empty);
  out(io, await renderRows(io, rows, columns, { lines: options.lines }));
}

async function printRecord(io: IO, format: OutputFormat, record: object, human: () => void | Promise<void>): Promise<void> {
  if (format === 'table') return human();
  if (format === 'json') return out(io, pretty(record));
  if (format === 'ndjson') return writeLines(io, [record]);
  const fields = Object.entries(record);
  outRaw(io, (await csvStringify())([fields.map(([key]) => key), fields.map(([, value]) => value)]));
}

async function openStream<Row>(
  io: IO,
  format: OutputFormat,
  columns: readonly Column<Row>[],
  options: StreamOptions<Row> = {},
): Promise<RowStream<Row>> {
  const record = options.record ?? ((row: Row) => row);
  if (format === 'ndjson' || (format === 'json' && options.events)) {
    return { row: (row, written) => writeLines(io, [record(row)], written), end: async () => {} };
  }
  if (format === 'json') {
    let count = 0;
    return {
      // as JSON.stringify(rows, null, 2) prints them, a row at a time
      row(row, written) {
        outRaw(io, `${count++ === 0 ? '[\n' : ',\n'}  ${pretty(record(row)).replaceAll('\n', '\n  ')}`, written);
      },
      end: async () => outRaw(io, count === 0 ? '[]\n' : '\n]\n'),
    };
  }
  if (format === 'csv') {
    const stringify = await csvStringify();
    outRaw(io, stringify([columns.map((c) => c.name)]));
    return { row: (row, written) => outRaw(io, stringify([columns.map((c) => c.value(row))]), written), end: async () => {} };
  }
  if (options.events) {
    const line = options.line ?? ((row: Row) => columns.map((c) => cell(c.show ? c.show(row) : c.value(row))).join('  '));
    return { row: (row, written) => out(io, safeText(io, line(row)), written), end: async () => {} };
  }
  const held: Row[] = [];
  return {
    row: (row, written) => {
      held.push(row);
      written?.();
    },
    end: async () => out(io, await renderRows(io, held, columns, { lines: options.lines })),
  };
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

function writeLines(io: IO, records: unknown[], written?: Written): void {
  for (const [at, record] of records.entries()) out(io, JSON.stringify(record), at === records.length - 1 ? written : undefined);
}

/** csv-stringify, loaded when a CSV is printed; numbers stay numbers (a negative one is no formula), the rest is cell text. */
async function csvStringify(): Promise<(rows: unknown[][]) => string> {
  const { stringify } = await import('csv-stringify/sync');
  return (rows) =>
    stringify(
      rows.map((row) => row.map((value) => (typeof value === 'number' ? value : cell(value)))),
      CSV_OPTIONS,
    );
}
