// "Tables that stay readable" (fit.ts): on a terminal a table for people (renderTable) fits its
// width by leaving columns out and wrapping between words, never splitting a word that fits its
// column's least width and never cutting a cell to "…"; piped, it is the table as it is, whole.
// Before, a piped table was fitted to 100 columns and every column not kept whole was cut to 4
// characters, splitting "ready" into "read|y".
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { WORD_BOUND } from '../../../src/cli/render/fit.js';
import { renderTable } from '../../../src/cli/render/rows.js';
import { propertyRuns, propertySeed } from '../property-runs.js';
import { quietIO } from '../quiet-io.js';

const SHORT = ['ready', 'training', 'Persuasive', 'essay:', 'a', 'kct_****63c6', '(KCT_API_KEY)', 'average', '20', 'Émilie', '日本語'];
const LONG = [
  'http://127.0.0.1:42969/files/ef561a654aa73d2d1af899a1cc5e014c/slow1.txt',
  'tsk_a94e722197d9c32c922f2d5e',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
];
const word = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...SHORT) }, { weight: 1, arbitrary: fc.constantFrom(...LONG) });
const text = fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));
const HEADS = ['ID', 'Name', 'Status', 'URL', 'From', 'Total'];

const table = fc.integer({ min: 1, max: 6 }).chain((count) =>
  fc.record({
    head: fc.constant(HEADS.slice(0, count)),
    body: fc.array(fc.array(text, { minLength: count, maxLength: count }), { minLength: 1, maxLength: 4 }),
    wrap: fc.array(fc.boolean(), { minLength: count, maxLength: count }),
    // a column kept whole (an upload's URL): never wrapped, cut or left out
    whole: fc.array(fc.boolean(), { minLength: count, maxLength: count }),
    leaveOut: fc.array(fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }), { minLength: count, maxLength: count }),
    columns: fc.integer({ min: 20, max: 200 }),
  }),
);

const tty = (columns: number) => ({ ...quietIO(), stdoutIsTTY: true, columns });

/** The table's rows: for each, each column's lines of text (the lines between rows split them). */
function rowsOf(drawn: string): string[][][] {
  const rows: string[][][] = [];
  let current: string[][] | undefined;
  for (const line of drawn.split('\n').slice(3)) {
    if (!line.startsWith('│')) {
      if (current) rows.push(current);
      current = undefined;
      continue;
    }
    const cells = line.split('│').slice(1, -1);
    current ??= cells.map(() => []);
    cells.forEach((cell, c) => current![c].push(cell.trim()));
  }
  return rows;
}

describe('a table drawn for people', () => {
  it(`fits a terminal, leaving columns out and never splitting a word that fits; piped, it is whole (seed ${propertySeed(9090)})`, async () => {
    await fc.assert(
      fc.asyncProperty(table, async ({ head, body, wrap: wraps, whole: wholes, leaveOut, columns }) => {
        const whole = wholes.map((kept, c) => kept && !wraps[c]);
        const wrap = wraps.map((flag, c) => flag && !whole[c]);
        const options = { whole, leaveOut, compact: false };
        const unfitted = await renderTable(tty(100_000), head, body, wrap, options);
        // piped: the table as it is, whatever the width
        expect(await renderTable({ ...quietIO(), columns }, head, body, wrap, options)).toBe(unfitted);

        const drawn = await renderTable(tty(columns), head, body, wrap, options);
        if (drawn === unfitted) {
          // drawn whole on a terminal: it fits as it is, or the first column at its least and those
          // kept whole (which are never cut or left out) leave no room, and squeezing the rest gains nothing
          const fits = drawn.split('\n').every((line) => stringWidth(line) <= columns);
          const widest = (c: number, of: (cell: string) => number[]) =>
            Math.max(stringWidth(head[c]), ...body.flatMap((row) => of(row[c])));
          const least = head.reduce((sum, _, c) => {
            if (whole[c]) return sum + 3 + widest(c, (cell) => [stringWidth(cell)]);
            if (c > 0) return sum;
            return (
              sum +
              3 +
              Math.max(
                stringWidth(head[c]),
                Math.min(
                  widest(c, (cell) => cell.split(' ').map((w) => stringWidth(w))),
                  WORD_BOUND,
                ),
              )
            );
          }, 1);
          expect(fits || least > columns, drawn).toBe(true);
          return;
        }
        for (const line of drawn.split('\n')) expect(stringWidth(line), drawn).toBeLessThanOrEqual(columns);
        const lines = drawn.split('\n');
        const end = lines.findLastIndex((line) => line.startsWith('└'));
        const [table, note] = [lines.slice(0, end + 1), end + 1 < lines.length ? lines.slice(end + 1).join(' ') : undefined];
        const shown = table[1]
          .split('│')
          .slice(1, -1)
          .map((cell) => cell.trim());
        const left = head.filter((h) => !shown.includes(h));
        // every column is shown or named as left out; the first and those kept whole are never left out
        if (left.length > 0)
          expect(note).toBe(`(${left.join(', ')} left out to fit ${columns} columns: --json has ${left.length === 1 ? 'it' : 'them'})`);
        else expect(note).toBeUndefined();
        expect(shown[0]).toBe(head[0]);
        for (const [c, kept] of whole.entries()) if (kept) expect(shown).toContain(head[c]);
        const rows = rowsOf(table.join('\n'));
        expect(rows).toHaveLength(body.length);
        for (const [r, row] of body.entries()) {
          for (const [place, h] of shown.entries()) {
            const c = head.indexOf(h);
            const cellLines = rows[r][place];
            // nothing is lost or cut to "…": the words, read across the cell's lines, are the cell's
            expect(cellLines.join('').replace(/\s/g, ''), drawn).toBe(row[c].replace(/\s/g, ''));
            // a word no longer than WORD_BOUND (and so than the column's least width) is on one line, whole
            const onLines = new Set(cellLines.flatMap((line) => line.split(' ')));
            for (const w of row[c].split(' '))
              if (whole[c] || stringWidth(w) <= WORD_BOUND) expect(onLines, `${w} in ${drawn}`).toContain(w);
          }
        }
      }),
      { numRuns: propertyRuns(80), seed: propertySeed(9090) },
    );
  });
});
