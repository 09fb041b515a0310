// The class table fits the terminal: which columns stay, and how a path is cut (keeping its end).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitColumns, fitTable, fitWidth, keepEnd, keepStart, tableWidth, wrapCell } from '../../../src/cli/render/fit.js';
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

// The tables of `kct models` and `kct upload` as the walkthrough saw them (walk h8, defect 2).
const MODELS = [
  { head: 'ID', cells: ['12', '13', '14'] },
  {
    head: 'Name',
    cells: ['Persuasive essay: school uniforms', 'Literary analysis: Of Mice and Men', 'Lab report: photosynthesis'],
    prose: true,
  },
  { head: 'Status', cells: ['ready', 'ready', 'training'] },
  { head: 'Total', cells: ['20', '10', '24'] },
  { head: 'Method', cells: ['sum', 'average', 'sum'] },
  { head: 'Criteria', cells: ['4', '5', '4'] },
];
const URL_81 = 'http://127.0.0.1:40101/files/2042afb1a241ca3607e3c5404e838f06/question-paper.docx';
const UPLOAD = [
  { head: 'Name', cells: ['rubric.pdf', 'question-paper.docx'] },
  { head: 'Type', cells: ['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'], leaveOut: 1 },
  { head: 'Size', cells: ['3083', '9188'] },
  { head: 'URL', cells: [URL_81.replace('question-paper.docx', 'rubric.pdf'), URL_81], whole: true },
];

describe('fitTable', () => {
  it('a table that fits is drawn as it is', () => {
    expect(fitTable(MODELS, 100, length)).toBeUndefined();
  });

  it('kct models in 40 columns: the last columns are left out before a word is split', () => {
    const fit = fitTable(MODELS, 40, length)!;
    expect(fit.shown).toEqual([0, 1, 2]);
    expect(fit.dropped).toEqual([3, 4, 5]);
    expect(tableWidth(fit.widths)).toBeLessThanOrEqual(40);
    // "training" is whole in its column; the name wraps between words
    expect(fit.widths[2]).toBeGreaterThanOrEqual('training'.length);
    expect(wrapCell('Persuasive essay: school uniforms', fit.widths[1], length).split('\n')).toEqual([
      'Persuasive essay:',
      'school uniforms',
    ]);
  });

  it('kct upload: the type goes first; where the URL leaves no room, nothing is squeezed (drawn whole)', () => {
    const fit = fitTable(UPLOAD, 120, length)!;
    expect(fit.shown).toEqual([0, 2, 3]);
    expect(fit.widths).toEqual(['question-paper.docx'.length, 4, URL_81.length]);
    expect(fitTable(UPLOAD, 100, length)).toBeUndefined();
  });
});

describe('wrapCell', () => {
  it('breaks between words, and splits only a word wider than the column', () => {
    expect(wrapCell('ready', 5, length)).toBe('ready');
    expect(wrapCell('a ready reader', 7, length)).toBe('a ready\nreader');
    expect(wrapCell('tsk_a94e722197d9', 6, length)).toBe('tsk_a9\n4e7221\n97d9');
  });
});

describe('fitWidth', () => {
  it('a terminal, or COLUMNS, sets the width; piped, the table is whole', () => {
    expect(fitWidth({ stdoutIsTTY: true, columns: 80 })).toBe(80);
    expect(fitWidth({ stdoutIsTTY: false, widthAsked: true, columns: 150 })).toBe(150);
    expect(fitWidth({ stdoutIsTTY: false, columns: 100 })).toBeUndefined();
  });
});
