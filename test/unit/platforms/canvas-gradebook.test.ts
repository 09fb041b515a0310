import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import { fillCanvasGradebook, findCanvasAssignment, readCanvasGradebook } from '../../../src/platforms/canvas-gradebook.js';
import { readAsCanvasImports } from '../../../src/platforms/canvas-import-rules.js';
import type { Mark } from '../../../src/platforms/grade-scale.js';
import { recogniseDownload } from '../../../src/platforms/submissions.js';
import { minimalCell, PROPERTY_SETTINGS, rawCells, recordTexts, writeCsv } from './fixtures.js';

const HEADER = [
  'Student',
  'ID',
  'SIS User ID',
  'SIS Login ID',
  'Section',
  'Essay 1 (5501)',
  'Quiz, part 2 (5502)',
  'Current Score',
  'Final Score',
];
const POINTS = ['    Points Possible', '', '', '', '', '20.00', '5.00', '(read only)', '(read only)'];
const STUDENTS = [
  ['Doe, Jane', '301', 'S301', 'jdoe', 'Section A', '', '4.00', '20.00', '20.00'],
  ['Ng, "Bo"', '302', 'S302', 'bng', 'Section A', '12.00', '5.00', '85.00', '85.00'],
  ['Zed, Al', '303', 'S303', 'azed', 'Section B', 'N/A', '', '0.00', '0.00'],
  ['Ex, Cused', '304', 'S304', 'cex', 'Section B', 'EX', '', '0.00', '0.00'],
  ['Student, Test', '305', '', '', 'Section A', '', '', '', ''],
];
const exportOf = (options: { delimiter?: ',' | ';'; bom?: boolean; eol?: '\n' | '\r\n'; manual?: string; header?: string[] } = {}) => {
  const header = options.header ?? HEADER;
  const manual = options.manual === undefined ? [] : [['', '', '', '', '', options.manual, '', '', '']];
  return writeCsv({ rows: [header, ...manual, POINTS, ...STUDENTS], delimiter: options.delimiter, bom: options.bom, eol: options.eol });
};
const marks = (entries: [string, Mark][]) => new Map(entries);

describe('readCanvasGradebook', () => {
  test('finds the ID column, the assignments by "<name> (<id>)", the Points Possible row and the students', () => {
    const book = readCanvasGradebook(exportOf().bytes);
    expect(book.idColumn).toBe(1);
    expect(book.assignments.map((a) => [a.index, a.name, a.id])).toEqual([
      [5, 'Essay 1', '5501'],
      [6, 'Quiz, part 2', '5502'],
    ]);
    expect(book.pointsPossibleRecord).toBe(1);
    expect(book.students.map((s) => [s.id, s.name])).toEqual([
      ['301', 'Doe, Jane'],
      ['302', 'Ng, "Bo"'],
      ['303', 'Zed, Al'],
      ['304', 'Ex, Cused'],
      ['305', 'Student, Test'],
    ]);
  });

  test('finds an assignment by id, by whole header or by exact name, and says what there is when it cannot', () => {
    const book = readCanvasGradebook(exportOf().bytes);
    expect(findCanvasAssignment(book, '5502').index).toBe(6);
    expect(findCanvasAssignment(book, 'Quiz, part 2 (5502)').index).toBe(6);
    expect(findCanvasAssignment(book, 'Essay 1').index).toBe(5);
    expect(() => findCanvasAssignment(book, 'Essay 2')).toThrow(
      /no assignment "Essay 2". Its assignments: "Essay 1 \(5501\)", "Quiz, part 2 \(5502\)"/,
    );
    const twice = readCanvasGradebook(exportOf({ header: HEADER.map((h) => (h === 'Quiz, part 2 (5502)' ? 'Essay 1 (5503)' : h)) }).bytes);
    expect(() => findCanvasAssignment(twice, 'Essay 1')).toThrow(/2 assignments named "Essay 1"/);
  });

  test('refuses a file without the Student and ID columns', () => {
    expect(() =>
      readCanvasGradebook(
        writeCsv({
          rows: [
            ['Name', 'Score'],
            ['A', '1'],
          ],
        }).bytes,
      ),
    ).toThrow(UsageError);
  });

  test('reads the LastName, FirstName variant, a semicolon export with a BOM, and a Manual Posting row', () => {
    const split = ['LastName', 'FirstName', 'ID', 'SIS Login ID', 'Section', 'Essay 1 (5501)'];
    const book = readCanvasGradebook(
      writeCsv({ rows: [split, ['    Points Possible', '', '', '', '', '10'], ['Doe', 'Jane', '301', 'jdoe', 'A', '']] }).bytes,
    );
    expect(book.idColumn).toBe(2);
    expect(book.students).toMatchObject([{ id: '301', name: 'Jane Doe' }]);
    const semi = readCanvasGradebook(exportOf({ delimiter: ';', bom: true, manual: 'Manual Posting' }).bytes);
    expect(semi.doc.delimiter).toBe(';');
    expect(semi.doc.bom).toBe(true);
    expect([semi.manualPostingRecord, semi.pointsPossibleRecord]).toEqual([1, 2]);
  });
});

describe('fillCanvasGradebook', () => {
  test("a late Canvas submission, marked, lands in its student's row scaled to Points Possible; nothing else changes", () => {
    const zip = recogniseDownload(['doejane_LATE_301_9001_essay.docx', 'ngbo_302_9002_Essay final.pdf', 'zedal_303_text.html']);
    expect(zip.platform).toBe('canvas');
    expect(zip.students.map((s) => [s.participantId, s.late])).toEqual([
      ['301', true],
      ['302', false],
      ['303', false],
    ]);
    const scores: Record<string, number> = { '301': 17, '302': 9.5, '303': 20 };
    const { bytes } = exportOf({ eol: '\r\n' });
    const result = fillCanvasGradebook(
      bytes,
      new Map(zip.students.map((s) => [s.participantId, { score: scores[s.participantId], maxScore: 20 }])),
      { assignment: 'Essay 1' },
    );
    expect(result.report.target).toEqual({ column: 'Essay 1 (5501)', maximum: 20 });
    expect(result.report.entries.map((e) => [e.participantId, e.status, e.grade ?? e.reason])).toEqual([
      ['301', 'filled', '17.00'],
      ['302', 'filled', '9.50'],
      ['303', 'refused', '20.00'],
      ['304', 'not-marked', undefined],
      ['305', 'not-marked', undefined],
    ]);
    expect(result.report.entries[2]).toMatchObject({ reason: 'not-assigned' });
    expect(result.report.entries[1].warnings).toEqual(['overwrites-grade']);
    const [before, after] = [recordTexts(bytes), recordTexts(result.bytes)];
    expect(after[2]).toBe('"Doe, Jane",301,S301,jdoe,Section A,17.00,4.00,20.00,20.00');
    expect(after.filter((r, i) => r !== before[i])).toHaveLength(2);
    expect(result.bytes.toString().match(/\r\n/g)).toHaveLength(before.length);
    const imported = readAsCanvasImports(result.bytes, 'Essay 1 (5501)');
    expect(imported.pointsPossible).toBe('20.00');
    expect(Object.fromEntries(imported.grades)).toEqual({ '301': '17.00', '302': '9.50', '303': 'N/A', '304': 'EX', '305': '' });
  });

  test('scales a different maximum: 15 of 20 on a 5-point column is 3.75, rounded as asked', () => {
    const fill = (rounding: 'half' | 'one-decimal') =>
      fillCanvasGradebook(exportOf().bytes, marks([['305', { score: 15, maxScore: 20 }]]), { assignment: '5502', rounding });
    expect(readAsCanvasImports(fill('one-decimal').bytes, 'Quiz, part 2 (5502)').grades.get('305')).toBe('3.8');
    expect(readAsCanvasImports(fill('half').bytes, 'Quiz, part 2 (5502)').grades.get('305')).toBe('4.0');
  });

  test('leaves an excusal in place, refuses a score out of range, and reports students on one side only', () => {
    const { bytes } = exportOf();
    const result = fillCanvasGradebook(
      bytes,
      marks([
        ['304', { score: 10, maxScore: 20 }],
        ['301', { score: 30, maxScore: 20 }],
        ['999', { score: 1, maxScore: 2 }],
      ]),
      { assignment: '5501' },
    );
    expect(
      result.report.entries
        .filter((e) => e.status === 'refused' || e.status === 'not-in-file')
        .map((e) => [e.participantId, e.reason ?? e.status]),
    ).toEqual([
      ['301', 'out-of-range'],
      ['304', 'excused'],
      ['999', 'not-in-file'],
    ]);
    expect(result.report.studentsMatch).toBe(false);
    expect(result.bytes.equals(bytes)).toBe(true);
  });

  test('keeps a semicolon export\'s separator, BOM and quoting; writes "." decimals, which the importer reads either way', () => {
    const { bytes } = exportOf({ delimiter: ';', bom: true, manual: 'Manual Posting' });
    const result = fillCanvasGradebook(bytes, marks([['301', { score: 13, maxScore: 20 }]]), { assignment: '5501' });
    expect(result.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(recordTexts(result.bytes, ';')[3]).toBe('Doe, Jane;301;S301;jdoe;Section A;13.00;4.00;20.00;20.00');
    expect(result.report.notes.join(' ')).toMatch(/posted manually/);
    expect(readAsCanvasImports(result.bytes, 'Essay 1 (5501)').grades.get('301')).toBe('13.00');
  });

  test('refuses, as Canvas would misread it, a semicolon export with a line break in its first lines', () => {
    const bytes = writeCsv({
      rows: [
        ['Student', 'ID', 'Section', 'Notes', 'Essay (7)'],
        ['    Points Possible', '', '', '', '10'],
        ['Doe', '1', 'S', 'two\nlines', ''],
      ],
      delimiter: ';',
    }).bytes;
    expect(() => fillCanvasGradebook(bytes, marks([['1', { score: 1, maxScore: 2 }]]), { assignment: '7' })).toThrow(/not valid CSV/);
    expect(() => readAsCanvasImports(bytes, 'Essay (7)')).toThrow();
  });

  test('refuses a read-only column, a column without points possible, and anonymous scores hidden from instructors', () => {
    const readOnly = writeCsv({ rows: [HEADER, POINTS.map((p, i) => (i === 5 ? '(read only)' : p)), ...STUDENTS] }).bytes;
    expect(() => fillCanvasGradebook(readOnly, marks([['301', { score: 1, maxScore: 2 }]]), { assignment: '5501' })).toThrow(/read only/);
    const noPoints = writeCsv({ rows: [HEADER, ...STUDENTS] }).bytes;
    expect(() => fillCanvasGradebook(noPoints, marks([['301', { score: 1, maxScore: 2 }]]), { assignment: '5501' })).toThrow(
      /no points possible/,
    );
    expect(
      readAsCanvasImports(
        fillCanvasGradebook(noPoints, marks([['301', { score: 1, maxScore: 2 }]]), { assignment: '5501', pointsPossible: 50 }).bytes,
        'Essay 1 (5501)',
      ).grades.get('301'),
    ).toBe('25.00');
    const hidden = exportOf({ manual: 'Manual Posting (scores hidden from instructors)' }).bytes;
    const result = fillCanvasGradebook(hidden, marks([['301', { score: 1, maxScore: 2 }]]), { assignment: '5501' });
    expect(result.report.entries[0]).toMatchObject({ status: 'refused', reason: 'hidden-anonymous' });
    expect(result.bytes.equals(hidden)).toBe(true);
  });
});

describe('property', () => {
  test('only the chosen column of filled rows changes, and the importer reads exactly those grades', () => {
    // Canvas names hold no line breaks (and its importer reads the separator line by line)
    const name = fc.string({ unit: fc.constantFrom('a', 'é', ',', ';', '"', ' ', '=', '1'), maxLength: 10 });
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({ id: fc.integer({ min: 1, max: 9999 }), name, grade: fc.constantFrom('', '3.50', 'N/A', 'EX', '10.00') }),
          { selector: (s) => s.id, maxLength: 10 },
        ),
        fc.constantFrom<',' | ';'>(',', ';'),
        fc.boolean(),
        fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
        fc.func(fc.boolean()),
        fc.func(fc.integer({ min: 0, max: 20 })),
        (students, delimiter, bom, eol, isMarked, scoreOf) => {
          const rows = [
            ['Student', 'ID', 'SIS Login ID', 'Section', 'Notes', 'Essay (7)', 'Other (8)'],
            ['    Points Possible', '', '', '', '', '10.00', '5.00'],
            ...students.map((s) => [s.name || 'x', String(s.id), `l${s.id}`, 'S', s.name, s.grade, s.grade]),
          ];
          const bytes = writeCsv({ rows, delimiter, bom, eol, quote: (v) => minimalCell(v, delimiter) }).bytes;
          const marked = new Map(students.filter((s) => isMarked(s.id)).map((s) => [String(s.id), { score: scoreOf(s.id), maxScore: 20 }]));
          const result = fillCanvasGradebook(bytes, marked, { assignment: '7' });
          const [before, after] = [recordTexts(bytes, delimiter), recordTexts(result.bytes, delimiter)];
          const imported = readAsCanvasImports(result.bytes, 'Essay (7)').grades;
          students.forEach((s, i) => {
            const entry = result.report.entries.find((e) => e.participantId === String(s.id))!;
            if (entry.status !== 'filled') {
              expect(after[i + 2]).toBe(before[i + 2]);
              return;
            }
            expect(s.grade === 'N/A' || s.grade === 'EX').toBe(false);
            const [b, a] = [rawCells(before[i + 2], delimiter), rawCells(after[i + 2], delimiter)];
            b.forEach((cell, c) => c === 5 || expect(a[c]).toBe(cell));
            expect(Number(imported.get(String(s.id)))).toBeCloseTo((scoreOf(s.id) * 10) / 20, 2);
          });
        },
      ),
      PROPERTY_SETTINGS,
    );
  });
});
