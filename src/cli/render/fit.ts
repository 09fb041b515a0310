// Tables for people fit the terminal, as gh's do; piped, they are whole. This module decides both,
// for the class table (class-table.ts) and for every other table (rows.ts): on a terminal, or when
// COLUMNS asks, columns that do not fit are left out (the least needed first) and the rest cut to
// fit; piped, every cell is whole.
import type { IO } from '../core/io.js';

/** The width a table fits: on a terminal or when COLUMNS is set; undefined when piped (the table is whole). */
export function fitWidth(io: Pick<IO, 'stdoutIsTTY' | 'widthAsked' | 'columns'>): number | undefined {
  return io.stdoutIsTTY || io.widthAsked ? io.columns : undefined;
}

/** The room a table with these column widths takes, with its borders (cli-table3: 2 of padding, 1 of border each). */
export function tableWidth(widths: readonly number[]): number {
  return widths.reduce((sum, width) => sum + width + 3, 1);
}

export interface Fitted {
  /** Indexes of the columns shown, in order. */
  shown: number[];
  /** Their widths. */
  widths: number[];
  /** Columns left out to fit. */
  dropped: number[];
}

/**
 * Which columns to show in `columns` of room: all when they fit; else drop those of `dropFirst`,
 * in order, until they do; then cut the widest of `shrink`, one column at a time, so no cut
 * column is much narrower than another (never below `least`, a column's own when it is a list,
 * never above its own width).
 */
export function fitColumns(
  widths: readonly number[],
  columns: number,
  options: { dropFirst: readonly number[]; shrink: readonly number[]; least: number },
): Fitted {
  const shown = widths.map((_, index) => index);
  const dropped: number[] = [];
  const width = () => tableWidth(shown.map((index) => widths[index]));
  for (const index of options.dropFirst) {
    if (width() <= columns) break;
    shown.splice(shown.indexOf(index), 1);
    dropped.push(index);
  }
  const fitted = shown.map((index) => widths[index]);
  const cuttable = options.shrink.map((index) => shown.indexOf(index)).filter((at) => at >= 0);
  cutWidest(fitted, cuttable, () => options.least, columns);
  return { shown, widths: fitted, dropped };
}

/** Cuts the widest of the columns at `cuttable`, one character at a time, until the table fits `room` or each is at its least. */
function cutWidest(widths: number[], cuttable: readonly number[], leastOf: (at: number) => number, room: number): void {
  for (let over = tableWidth(widths) - room; over > 0; over--) {
    const widest = cuttable.filter((at) => widths[at] > leastOf(at)).sort((a, b) => widths[b] - widths[a])[0];
    if (widest === undefined) break;
    widths[widest]--;
  }
}

/** A cell cut to `width` display columns from the left ("…/late/pupil-10.txt"), measured by `strlen`. */
export function keepEnd(text: string, width: number, strlen: (text: string) => number): string {
  if (strlen(text) <= width) return text;
  const chars = [...text];
  let kept = '';
  for (let i = chars.length - 1; i >= 0 && strlen(`…${chars[i]}${kept}`) <= width; i--) kept = chars[i] + kept;
  return `…${kept}`;
}

/** A cell cut to `width` display columns from the right ("Aleksandra Konstan…"). */
export function keepStart(text: string, width: number, strlen: (text: string) => number): string {
  if (strlen(text) <= width) return text;
  let kept = '';
  for (const char of text) {
    if (strlen(`${kept}${char}…`) > width) break;
    kept += char;
  }
  return `${kept}…`;
}

/** A column of a table for people, as fitTable() weighs it. */
export interface FitColumn {
  head: string;
  /** Its cells' text, with no colour (what the terminal shows). */
  cells: readonly string[];
  /** Prose (feedback): wraps between words, and is cut to PROSE_LEAST before any column is left out. */
  prose?: boolean;
  /** Never wrapped, cut or left out (an upload's URL). */
  whole?: boolean;
  /** Left out before the columns without it on a narrow terminal (1 first); the others go from the right. */
  leaveOut?: number;
}

/** The fewest characters prose is cut to before a column is left out. */
const PROSE_LEAST = 20;
/** A word up to this long is never split (a status, a name); a longer one (a URL, an id) may wrap inside itself. */
export const WORD_BOUND = 16;

/**
 * How a table of these columns fits `room` display columns, or undefined when it is drawn whole:
 * it fits as it is, or it cannot fit at all (a column kept whole is wider), and then squeezing
 * the rest gains nothing. Otherwise the columns are cut, the widest first, to their least (their
 * header, or their longest word up to WORD_BOUND; prose first to PROSE_LEAST), and while that is
 * still too wide, columns are left out (never the first, never one kept whole).
 */
export function fitTable(columns: readonly FitColumn[], room: number, strlen: (text: string) => number): Fitted | undefined {
  const natural = columns.map((c) => Math.max(strlen(c.head), ...c.cells.flatMap((text) => text.split('\n').map(strlen))));
  if (tableWidth(natural) <= room) return undefined;
  const least = columns.map((c, i) =>
    c.whole ? natural[i] : Math.max(strlen(c.head), Math.min(longestWord(c.cells, strlen), WORD_BOUND)),
  );
  const proseLeast = columns.map((c, i) => (c.prose ? Math.max(least[i], Math.min(natural[i], PROSE_LEAST)) : least[i]));
  const prose = columns.flatMap((c, i) => (c.prose ? [i] : []));
  const cuttable = columns.flatMap((c, i) => (c.whole ? [] : [i]));
  const droppable = columns.flatMap((c, i) => (i > 0 && !c.whole ? [i] : []));
  const order = [
    ...droppable.filter((i) => columns[i].leaveOut !== undefined).sort((a, b) => columns[a].leaveOut! - columns[b].leaveOut!),
    ...droppable.filter((i) => columns[i].leaveOut === undefined).reverse(),
  ];
  // the columns but those left out, cut: prose first (to `proseFloor`), then every column not kept whole (to its least)
  const cut = (dropped: number[], proseFloor: readonly number[]): Fitted => {
    const shown = natural.flatMap((_, i) => (dropped.includes(i) ? [] : [i]));
    const widths = shown.map((i) => natural[i]);
    const at = (list: number[]) => list.map((i) => shown.indexOf(i)).filter((place) => place >= 0);
    cutWidest(widths, at(prose), (place) => proseFloor[shown[place]], room);
    cutWidest(widths, at(cuttable), (place) => (columns[shown[place]].prose ? proseFloor : least)[shown[place]], room);
    return { shown, widths, dropped: [...dropped].sort((a, b) => a - b) };
  };
  for (let left = 0; left <= order.length; left++) {
    const fit = cut(order.slice(0, left), proseLeast);
    if (tableWidth(fit.widths) <= room) return fit;
  }
  // the last resort before drawing it whole: prose as narrow as its longest word
  const fit = cut(order, least);
  return tableWidth(fit.widths) <= room ? fit : undefined;
}

/** A cell's lines in `width` display columns: broken between words; only a word longer than the width is split. */
export function wrapCell(text: string, width: number, strlen: (text: string) => number): string {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(' ')) {
      const joined = line === '' ? word : `${line} ${word}`;
      if (strlen(joined) <= width) {
        line = joined;
        continue;
      }
      if (line !== '') lines.push(line);
      line = '';
      // a word wider than the column is split where it must be, never cut to "…"
      for (const char of word) {
        if (line !== '' && strlen(line + char) > width) {
          lines.push(line);
          line = '';
        }
        line += char;
      }
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** The line under a fitted table naming what was left out and where it is, wrapped to the width fitted. */
export function leftOutNote(left: string, room: number, where: string, strlen: (text: string) => number): string {
  return wrapCell(`(${left} left out to fit ${room} columns: ${where})`, room, strlen);
}

function longestWord(cells: readonly string[], strlen: (text: string) => number): number {
  return Math.max(0, ...cells.flatMap((text) => text.split(/[ \n]/).map(strlen)));
}
