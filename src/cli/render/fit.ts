// A table of rows that fits the terminal, as gh's do: on a terminal, columns that do not fit are
// left out (the least needed first) and the widest one kept is cut to fit, its start replaced by
// "…" so the end that names the student stays; piped, every cell is whole.

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
 * column is much narrower than another (never below `least`, never above its own width).
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
  for (let over = width() - columns; over > 0; over--) {
    const widest = cuttable.filter((at) => fitted[at] > options.least).sort((a, b) => fitted[b] - fitted[a])[0];
    if (widest === undefined) break;
    fitted[widest]--;
  }
  return { shown, widths: fitted, dropped };
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
