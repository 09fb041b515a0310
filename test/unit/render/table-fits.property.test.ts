// "Tables that fit the terminal": every table kct draws for people (renderTable) is no wider than
// COLUMNS, whatever its cells, and no cell's words are lost. `kct models`, `kct upload` and `kct config
// list` once kept their natural width (a table with no column that wraps was never cut).
import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderTable } from '../../../src/cli/render/rows.js';
import { propertyRuns, propertySeed } from '../property-runs.js';
import { quietIO } from '../quiet-io.js';

const word = fc.oneof(
  fc.constantFrom('ready', 'training', 'Persuasive', 'essay:', 'a', 'kct_****63c6', '(KCT_API_KEY)'),
  fc.constantFrom('http://127.0.0.1:42969/files/ef561a654aa73d2d1af899a1cc5e014c/slow1.txt', 'tsk_a94e722197d9c32c922f2d5e'),
);
const text = fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));

describe('a table drawn for people', () => {
  it(`is no wider than COLUMNS, and keeps every character of a cell that is no prose (seed ${propertySeed(9090)})`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }).chain((count) =>
          fc.record({
            head: fc.array(fc.constantFrom('ID', 'Name', 'Status', 'URL', 'From'), { minLength: count, maxLength: count }),
            body: fc.array(fc.array(text, { minLength: count, maxLength: count }), { minLength: 1, maxLength: 4 }),
            wrap: fc.array(fc.boolean(), { minLength: count, maxLength: count }),
            // a column kept whole (an upload's URL): never wrapped or cut, the others give way
            whole: fc.array(fc.boolean(), { minLength: count, maxLength: count }),
            // the narrowest room a table of these columns can be drawn in: 4 characters a column
            columns: fc.integer({ min: count * 7 + 1, max: 160 }),
          }),
        ),
        async ({ head, body, wrap: wraps, whole: wholes, columns }) => {
          const whole = wholes.map((kept, c) => kept && !wraps[c]);
          const wrap = wraps.map((flag, c) => flag && !whole[c]);
          const drawn = await renderTable({ ...quietIO(), columns }, head, body, wrap, { whole });
          // the room the whole columns take, and 4 characters for each other: the narrowest it can be
          const least = whole.reduce(
            (sum, kept, c) => sum + 3 + (kept ? Math.max(head[c].length, ...body.map((row) => row[c].length)) : 4),
            1,
          );
          for (const line of drawn.split('\n')) expect(stringWidth(line), drawn).toBeLessThanOrEqual(Math.max(columns, least));
          for (const [c, kept] of whole.entries()) if (kept) for (const row of body) expect(drawn).toContain(row[c]);
          // a cell of no prose wraps inside a word rather than end in "…": every character is in its column
          const lines = drawn.split('\n').filter((line) => line.startsWith('│'));
          const column = (c: number) => lines.map((line) => line.split('│')[c + 1].replace(/\s/g, '')).join('');
          for (const [c, flag] of wrap.entries()) {
            if (flag) continue;
            const shown = column(c);
            for (const row of body) expect(shown, drawn).toContain(row[c].replace(/\s/g, ''));
          }
        },
      ),
      { numRuns: propertyRuns(60), seed: propertySeed(9090) },
    );
  });
});
