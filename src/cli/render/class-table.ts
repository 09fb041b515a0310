// The class run's table for people: rows kept on disk in the order found (RowSpool) as they arrive,
// each column as wide as its widest cell, printed at the end in pieces; the folder every file shares
// said once above it, and on a terminal the columns fitted to its width.
import type { IO } from '../core/io.js';
import { out, outRaw, safeText } from '../core/io.js';
import { fitColumns, fitWidth, keepEnd, keepStart, leftOutNote } from './fit.js';
import type { AnswerOutcome } from './outcome.js';
import { RowSpool } from './row-spool.js';
import { type Column, cell, displayWidth, renderTableInChunks } from './rows.js';
import { formatNumber, statusColor } from './style.js';

/** The class table's columns (the rows' other formats hold every field: ndjson, json, csv). */
const COLUMNS: readonly Column<AnswerOutcome>[] = [
  { name: 'file', header: 'File', value: (o) => o.file },
  { name: 'student_id', header: 'Student', value: (o) => o.student_id ?? '' },
  { name: 'task_id', header: 'Task', value: (o) => o.task_id ?? '' },
  { name: 'status', header: 'Status', value: (o) => o.status, paint: (text, io) => statusColor(io, text) },
  {
    name: 'score',
    header: 'Score',
    value: (o) => o.score,
    show: (o) =>
      o.score === undefined || o.score === null
        ? ''
        : `${formatNumber(o.score)}${typeof o.max_score === 'number' ? ` / ${formatNumber(o.max_score)}` : ''}`,
  },
];
const at = (name: string) => COLUMNS.findIndex((column) => column.name === name);
/** What a terminal too narrow for the table gives up: the task ids first (every other format has them), then path and student are cut. */
const FIT = { dropFirst: [at('task_id')], shrink: [at('file'), at('student_id')], least: 12 };

export class ClassTable {
  private readonly spool: RowSpool;
  /** Display width of a cell, as the table measures it (wide characters count double). */
  private strlen?: (text: string) => number;
  private readonly widths = COLUMNS.map(() => 0);
  private folder: string[] | undefined;
  private flat = false;

  constructor(
    private readonly io: IO,
    rows: number,
  ) {
    this.spool = new RowSpool(rows);
  }

  async init(): Promise<void> {
    this.strlen = await displayWidth();
  }

  /** A row that will never be added no longer holds back those after it. */
  skip(index: number): void {
    this.spool.skip(index);
  }

  add(index: number, o: AnswerOutcome): void {
    const cells = COLUMNS.map((column) => safeText(this.io, cell(column.show ? column.show(o) : column.value(o))));
    this.spool.put(index, JSON.stringify(cells));
    cells.forEach((text, i) => {
      this.widths[i] = Math.max(this.widths[i], this.strlen!(text));
    });
    this.folder = commonFolder(this.folder, cells[0], this.flat);
    if (this.folder === undefined) this.flat = true;
  }

  async print(): Promise<void> {
    // The folder all files share is said once above the table. On a terminal the table fits its
    // width (or COLUMNS): the task ids go first (every other format has them), then the wider of path and
    // student is cut (a path from the left, keeping the end that names the file); piped, every cell is whole.
    const shared = this.folder?.join('') ?? '';
    const folder = shared === '' || shared === '/' || shared === './' ? '' : shared;
    const strlen = this.strlen!;
    const head = COLUMNS.map((column) => column.header);
    const natural = this.widths.map((width, i) => Math.max(width - (i === 0 ? strlen(folder) : 0), head[i].length));
    const room = fitWidth(this.io);
    const fit = room !== undefined ? fitColumns(natural, room, FIT) : { shown: COLUMNS.map((_, i) => i), widths: natural, dropped: [] };
    const rows = (function* (spool: RowSpool, io: IO) {
      for (const line of spool.all()) {
        const cells = JSON.parse(line) as string[];
        cells[0] = cells[0].slice(folder.length);
        // a path keeps its end (the file's name), a student's name its start
        yield fit.shown.map((i, place) => {
          const text =
            i === 0 ? keepEnd(cells[0], fit.widths[place], strlen) : i === 1 ? keepStart(cells[1], fit.widths[place], strlen) : cells[i];
          const paint = COLUMNS[i].paint;
          return paint ? paint(text, io) : text;
        });
      }
    })(this.spool, this.io);
    if (folder) out(this.io, `Files in ${safeText(this.io, folder)}`);
    await renderTableInChunks(
      this.io,
      fit.shown.map((i) => head[i]),
      fit.widths,
      rows,
      (text) => outRaw(this.io, text),
    );
    if (room !== undefined && fit.dropped.includes(at('task_id')))
      out(this.io, leftOutNote('task ids', room, '--output csv or ndjson has them', strlen));
  }

  discard(): void {
    this.spool.discard();
  }
}

/** The folder segments every path so far shares (never a file name), or undefined when none can be. */
function commonFolder(shared: string[] | undefined, path: string, flat: boolean): string[] | undefined {
  if (flat) return undefined;
  const parts = path.split(/(?<=[/\\])/).slice(0, -1); // keep each separator on its segment; never the file name
  if (parts.length === 0) return undefined;
  if (shared === undefined) return parts;
  let same = 0;
  while (same < shared.length && same < parts.length && shared[same] === parts[same]) same += 1;
  return same === 0 ? undefined : shared.slice(0, same);
}
