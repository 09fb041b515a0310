// Printing rows in the formats users pick with --output: a table for people, JSON, NDJSON and
// CSV for pipelines.
import { UsageError } from '../../api/errors.js';
import type { Context } from '../core/context.js';
import type { IO } from '../core/io.js';
import { out, outRaw, safeText } from '../core/io.js';

export type OutputFormat = 'table' | 'json' | 'ndjson' | 'csv';

export interface Column<Row> {
  header: string;
  value: (row: Row) => unknown;
  /** Let this column take the remaining width and wrap. */
  wrap?: boolean;
}

const FORMATS: readonly string[] = ['table', 'json', 'ndjson', 'csv'];

/**
 * --json, else --output, else the configured format (KCT_OUTPUT or `kct config set output`),
 * else a table. A configured value that is not a format is an error, not a silent table.
 */
export function resolveFormat(
  options: { output?: unknown; json?: unknown },
  configured?: { value?: string; source?: string },
): OutputFormat {
  if (options.json) return 'json';
  if (typeof options.output === 'string') return options.output as OutputFormat; // commander checked the choice
  const value = configured?.value;
  if (value === undefined) return 'table';
  if (!FORMATS.includes(value)) {
    throw new UsageError(`output format "${value}" from ${configured?.source ?? 'the configuration'} is not one of ${FORMATS.join(', ')}`);
  }
  return value as OutputFormat;
}

/**
 * The format a command that prints data uses: --json, else its --output, else the configured
 * output (`kct config set output json`, KCT_OUTPUT), else a table. Every command that prints data
 * asks here, so a configured format is followed everywhere.
 */
export async function formatFor(options: { output?: unknown; json?: unknown }, context: Context): Promise<OutputFormat> {
  return resolveFormat(options, (await context.settings()).output);
}

/**
 * One record (a balance, a snapshot, a setting) in the chosen format: `human` prints it for
 * people; json pretty-prints it, ndjson prints one line, csv a header of its fields and one row.
 */
export async function printRecord(io: IO, format: OutputFormat, record: object, human: () => void | Promise<void>): Promise<void> {
  if (format === 'table') return human();
  if (format === 'json') return out(io, JSON.stringify(record, null, 2));
  if (format === 'ndjson') return out(io, JSON.stringify(record));
  const fields = Object.entries(record);
  const { stringify } = await import('csv-stringify/sync');
  outRaw(
    io,
    stringify([fields.map(([key]) => key), fields.map(([, value]) => (typeof value === 'number' ? value : cell(value)))], CSV_OPTIONS),
  );
}

export async function printRows<Row>(
  io: IO,
  format: OutputFormat,
  rows: Row[],
  columns: Column<Row>[],
  raw: (row: Row) => unknown = (row) => row,
): Promise<void> {
  if (format === 'json') {
    out(io, JSON.stringify(rows.map(raw), null, 2));
    return;
  }
  if (format === 'ndjson') {
    for (const row of rows) out(io, JSON.stringify(raw(row)));
    return;
  }
  if (format === 'csv') {
    const { stringify } = await import('csv-stringify/sync');
    // numbers stay numbers, so a negative one is not mistaken for a formula; any other cell that
    // begins like one (=, +, -, @) is prefixed with ' so a spreadsheet shows it instead of running it
    const csvCell = (value: unknown) => (typeof value === 'number' ? value : cell(value));
    outRaw(io, stringify([columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => csvCell(c.value(row))))], CSV_OPTIONS));
    return;
  }
  out(
    io,
    await renderTable(
      io,
      columns.map((c) => c.header),
      rows.map((row) => columns.map((c) => safeText(io, cell(c.value(row))))),
      columns.map((c) => Boolean(c.wrap)),
      { compact: true },
    ),
  );
}

const COMPACT_CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/** `compact` drops the lines between rows: right for one-line rows, wrong for wrapped feedback. */
export async function renderTable(
  io: IO,
  head: string[],
  body: string[][],
  wrap: boolean[] = [],
  options: { compact?: boolean } = {},
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const widths = columnWidths(io.columns, head, body, wrap);
  const table = new Table({
    head,
    ...(options.compact ? { chars: COMPACT_CHARS } : {}),
    style: { head: io.color ? ['bold'] : [], border: io.color ? ['grey'] : [] },
    ...(widths ? { colWidths: widths, wordWrap: true, wrapOnWordBoundary: true } : {}),
  });
  for (const row of body) table.push(row);
  return table.toString();
}

/** Fixed widths only when the natural table is wider than the terminal: then wrap columns shrink. */
function columnWidths(columns: number, head: string[], body: string[][], wrap: boolean[]): number[] | undefined {
  const natural = head.map((h, i) => Math.max(h.length, ...body.map((row) => longestLine(row[i] ?? ''))) + 2);
  const total = natural.reduce((a, b) => a + b, 0) + head.length + 1;
  if (total <= columns || !wrap.some(Boolean)) return undefined;
  const fixed = natural.reduce((sum, width, i) => sum + (wrap[i] ? 0 : width), 0) + head.length + 1;
  const wrapCount = wrap.filter(Boolean).length;
  const share = Math.max(20, Math.floor((columns - fixed) / wrapCount));
  return natural.map((width, i) => (wrap[i] ? Math.min(width, share) : width));
}

/** A cell's width on the terminal (colours ignored, wide characters counted double). */
export async function displayWidth(): Promise<(text: string) => number> {
  const { default: stringWidth } = await import('string-width');
  return stringWidth;
}

/** Rows per piece when a table is printed piece by piece. */
const CHUNK_ROWS = 500;

/**
 * A table of any length without holding it: columns as wide as their widest cell (`widths`, as
 * measured by displayWidth), printed CHUNK_ROWS rows at a time. The lines are the same as one
 * renderTable() of all the rows: each piece is a table of those widths, with the borders between
 * pieces left out.
 */
export async function renderTableInChunks(
  io: IO,
  head: string[],
  widths: number[],
  rows: Iterable<string[]>,
  write: (text: string) => void,
): Promise<void> {
  const { default: Table } = await import('cli-table3');
  const colWidths = head.map((h, i) => Math.max(h.length, widths[i] ?? 0) + 2);
  const style = { head: io.color ? ['bold'] : [], border: io.color ? ['grey'] : [] };
  let first = true;
  let pending: string[][] = [];
  let held: string[] | undefined; // the last piece's lines, printed once it is known whether more follow
  const piece = () => {
    const table = new Table({ head: first ? head : [], chars: COMPACT_CHARS, style, colWidths });
    for (const row of pending) table.push(row);
    const lines = table.toString().split('\n');
    // a piece after the first drops its top border; every piece but the last drops its bottom one
    const body = first ? lines : lines.slice(1);
    if (held) write(`${held.slice(0, -1).join('\n')}\n`);
    held = body;
    first = false;
    pending = [];
  };
  for (const row of rows) {
    pending.push(row);
    if (pending.length >= CHUNK_ROWS) piece();
  }
  if (pending.length > 0 || first) piece();
  if (held) write(`${held.join('\n')}\n`);
}

function longestLine(text: string): number {
  return Math.max(0, ...text.split('\n').map((line) => line.length));
}

/** csv-stringify's options for every CSV kct prints: a text cell that could run as a formula is shown as text. */
export const CSV_OPTIONS = { cast: { string: guardFormula } };

/**
 * CSV injection (OWASP): a text cell that starts with =, +, - or @ and goes on, or with a tab or a
 * carriage return, gets a leading ' so a spreadsheet shows it instead of running it. A lone "-"
 * (an answer read from stdin) or "=" is no formula; csv-stringify's escape_formulas guards those too.
 */
export function guardFormula(value: string): string {
  return /^[=+\-@]./s.test(value) || /^[\t\r]/.test(value) ? `'${value}` : value;
}

export function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
