// The class table fits the terminal: which columns stay, and how a path is cut (keeping its end).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitColumns, keepEnd, keepStart, tableWidth } from '../../../src/cli/render/fit.js';
import { propertyRuns, propertySeed } from '../property-runs.js';

const length = (text: string) => [...text].length;

describe('fitColumns', () => {
  it('keeps every column when they fit', () => {
    expect(fitColumns([10, 8, 24, 7, 5], 200, { dropFirst: [2], shrink: [0, 1], least: 12 })).toEqual({
      shown: [0, 1, 2, 3, 4],
      widths: [10, 8, 24, 7, 5],
      dropped: [],
    });
  });

  it('drops the task column first, then cuts the file column to fit 80 columns', () => {
    const fit = fitColumns([90, 20, 28, 9, 7], 80, { dropFirst: [2], shrink: [0, 1], least: 12 });
    expect(fit.shown).toEqual([0, 1, 3, 4]);
    expect(fit.dropped).toEqual([2]);
    expect(tableWidth(fit.widths)).toBe(80);
  });

  it('cuts the wider of file and student first, never below the least width', () => {
    expect(fitColumns([90, 20, 28, 9, 7], 80, { dropFirst: [2], shrink: [0, 1], least: 12 }).widths).toEqual([31, 20, 9, 7]);
    const both = fitColumns([40, 50, 28, 9, 7], 80, { dropFirst: [2], shrink: [0, 1], least: 12 }).widths;
    expect(tableWidth(both)).toBe(80);
    expect(Math.abs(both[0] - both[1])).toBeLessThanOrEqual(1);
    expect(fitColumns([90, 60, 28, 9, 7], 40, { dropFirst: [2], shrink: [0, 1], least: 12 }).widths).toEqual([12, 12, 9, 7]);
  });

  it('property: the table fits the terminal unless the file column is at its least; no column grows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 120 }), { minLength: 5, maxLength: 5 }),
        fc.integer({ min: 20, max: 300 }),
        (widths, columns) => {
          const fit = fitColumns(widths, columns, { dropFirst: [2], shrink: [0, 1], least: 12 });
          fit.shown.forEach((i, at) => expect(fit.widths[at]).toBeLessThanOrEqual(widths[i]));
          expect(
            tableWidth(fit.widths) <= columns ||
              fit.shown.slice(0, 2).every((i, at) => i > 1 || fit.widths[at] === Math.min(12, widths[i])),
          ).toBe(true);
          if (tableWidth(widths) <= columns) expect(fit.dropped).toEqual([]);
        },
      ),
      { numRuns: propertyRuns(300), seed: propertySeed(80) },
    );
  });
});

describe('keepStart', () => {
  it('keeps the start of a name', () => {
    expect(keepStart('Aleksandra Konstantinopoulou', 12, length)).toBe('Aleksandra …');
    expect(keepStart('Eve', 12, length)).toBe('Eve');
  });
});

describe('keepEnd', () => {
  it('keeps the end of a path, which names the student', () => {
    expect(keepEnd('late/second-try/pupil-10.txt', 15, length)).toBe('…y/pupil-10.txt');
    expect(keepEnd('a.txt', 15, length)).toBe('a.txt');
  });

  it('property: the result fits and is a suffix of the text after the ellipsis', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 2, max: 40 }), (text, width) => {
        const cut = keepEnd(text, width, length);
        expect(length(cut)).toBeLessThanOrEqual(Math.max(width, length(text) <= width ? length(text) : 0));
        if (cut !== text) expect(text.endsWith(cut.slice(1))).toBe(true);
      }),
      { numRuns: propertyRuns(300), seed: propertySeed(200) },
    );
  });
});
