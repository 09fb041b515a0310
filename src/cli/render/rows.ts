// Tables for people, and the cells every format shares: one table system, its columns named
// (Column), drawn by cli-table3. Which format a command prints in, and the machine formats, are
// the exporter's (export.ts).
import type { IO } from '../core/io.js';
import { safeText } from '../core/io.js';
import { fitTable, fitWidth, leftOutNote, wrapCell } from './fit.js';

/**
 * One column of rows, in the table and in CSV. `name` heads it in CSV: snake_case, and the
 * record's key when `value` is that field as it is, so a CSV column and a JSON key of one name
 * hold one value (a column computed for people has a name of its own). `header` heads it in the
 * table a person reads.
 */
export interface Column<Row> {
  name: string;
  header: string;
  /** The cell in CSV, and in the table unless `show` says otherwise. */
  value: (row: Row) => unknown;
  /** The table's cell when it is not the value as it is (a date to the minute, "4 / 5"). */
  show?: (row: Row) => unknown;
  /** A colour for the table's cell, given its text already made safe for the terminal. */
  paint?: (text: string, io: IO) => string;
  /** Let this column take the remaining width and wrap. */
  wrap?: boolean;
  /** Never wrapped, cut or left out (what the command is for, to copy: an upload's URL); the table may then be wider than the terminal. */
  whole?: boolean;
  /** Left out first on a terminal too narrow for the table (1 before 2); columns without it go from the right (fit.ts). */
  leaveOut?: number;
}

/**
 * Rows as a table of these columns. `lines` draws a line between rows: wrong for one-line rows,
 * right for wrapped feedback.
 */
export async function renderRows<Row>(
  io: IO,
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  options: { lines?: boolean } = {},
): Promise<string> {
  return renderTable(
    io,
    columns.map((c) => c.header),
    rows.map((row) => columns.map((c) => safeText(io, cell(c.show ? c.show(row) : c.value(row))))),
    columns.map((c) => Boolean(c.wrap)),
    {
      compact: !options.lines,
      whole: columns.map((c) => Boolean(c.whole)),
      leaveOut: columns.map((c) => c.leaveOut),
      paint: columns.map((c) => c.paint && ((text: string) => c.paint!(text, io))),
    },
  );
}

const COMPACT_CHARS = { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' };

/**
 * A table of these cells (plain text; `paint` colours a column's cells). Piped it is whole; on a
 * terminal it fits its width as fit.ts decides, and a line under it names the columns left out.
 * `compact` drops the lines between rows: right for one-line rows, wrong for wrapped feedback.
 */
export async function renderTable(
  io: IO,
  head: string[],
  body: string[][],
  wrap: boolean[] = [],
  options: {
    compact?: boolean;
    whole?: boolean[];
    leaveOut?: (number | undefined)[];
    paint?: (((text: string) => string) | undefined)[];
  } = {},
): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const room = fitWidth(io);
  const strlen = await displayWidth();
  const columns = head.map((h, i) => ({
    head: h,
    cells: body.map((row) => row[i] ?? ''),
    prose: wrap[i],
    whole: options.whole?.[i],
    leaveOut: options.leaveOut?.[i],
  }));
  const fit = room === undefined ? undefined : fitTable(columns, room, strlen);
  const shown = fit?.shown ?? head.map((_, i) => i);
  const table = new Table({
    head: shown.map((i) => head[i]),
    ...(options.compact ? { chars: COMPACT_CHARS } : {}),
    style: { head: io.color ? ['bold'] : [], border: io.color ? ['grey'] : [] },
    ...(fit ? { colWidths: fit.widths.map((width) => width + 2) } : {}),
  });
  for (const row of body) {
    table.push(
      shown.map((i, place) => {
        const text = fit ? wrapCell(row[i] ?? '', fit.widths[place], strlen) : (row[i] ?? '');
        const paint = options.paint?.[i];
        // each line painted alone, so a colour never runs across the border
        return paint ? text.split('\n').map(paint).join('\n') : text;
      }),
    );
  }
  if (!fit || room === undefined || fit.dropped.length === 0) return table.toString();
  const left = fit.dropped.map((i) => head[i]);
  return `${table.toString()}\n${leftOutNote(left.join(', '), room, `--json has ${left.length === 1 ? 'it' : 'them'}`, strlen)}`;
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
