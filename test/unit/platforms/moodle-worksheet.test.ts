import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import { UsageError } from '../../../src/api/errors.js';
import type { Mark } from '../../../src/platforms/grade-scale.js';
import { readAsMoodleImports } from '../../../src/platforms/moodle-import-rules.js';
import { fillMoodleWorksheet, readMoodleWorksheet } from '../../../src/platforms/moodle-worksheet.js';
import { MOODLE_HEADER, moodleWorksheet, phpCell, writeCsv } from './fixtures.js';

const CLASS = [
  { id: 101, name: 'Ada Lovelace' },
  { id: 102, name: 'O\'Brien, Seán "Jack"' },
  { id: 103, name: 'Grace Hopper', grade: '80.00' },
  { id: 104, name: 'Alan Turing', canChange: 'No' as const },
  { id: 105, name: 'Katherine Johnson' },
];
const marks = (entries: [number, Mark][]) => new Map(entries.map(([id, mark]) => [String(id), mark]));
const records = (bytes: Buffer) => parse(bytes.subarray(bytes[0] === 0xef ? 3 : 0), { relax_column_count: true }) as string[][];
/** Each record's exact bytes, found by csv-parse's byte count (independent of the module's own splitting). */
const rawRecords = (bytes: Buffer): Buffer[] => {
  const body = bytes.subarray(bytes[0] === 0xef ? 3 : 0);
  const info = parse(body, { info: true, relax_column_count: true, record_delimiter: ['\r\n', '\n'] }) as unknown as {
    info: { bytes: number };
  }[];
  return info.map((r, i) => body.subarray(i === 0 ? 0 : info[i - 1].info.bytes, r.info.bytes));
};
const GRADE = MOODLE_HEADER.indexOf('Grade');
const FEEDBACK = MOODLE_HEADER.indexOf('Feedback comments');

describe('readMoodleWorksheet', () => {
  test('reads each participant by the number after "Participant ", names with commas and quotes exactly', () => {
    const sheet = readMoodleWorksheet(moodleWorksheet(CLASS).bytes);
    expect(sheet.doc.bom).toBe(true);
    expect(sheet.rows.map((r) => [r.participantId, r.fullName, r.grade, r.canChange])).toEqual([
      ['101', 'Ada Lovelace', '', 'Yes'],
      ['102', 'O\'Brien, Seán "Jack"', '', 'Yes'],
      ['103', 'Grace Hopper', '80.00', 'Yes'],
      ['104', 'Alan Turing', '', 'No'],
      ['105', 'Katherine Johnson', '', 'Yes'],
    ]);
    expect(sheet.columns).toMatchObject({
      identifier: 0,
      grade: GRADE,
      feedback: FEEDBACK,
      lastModified: MOODLE_HEADER.indexOf('Last modified (grade)'),
    });
  });

  test.each(['Identifier', 'Grade', 'Last modified (grade)'])('refuses a worksheet without "%s", as Moodle\'s importer does', (column) => {
    const header = MOODLE_HEADER.filter((c) => c !== column);
    const read = () => readMoodleWorksheet(moodleWorksheet(CLASS, { header }).bytes);
    expect(read).toThrow(UsageError);
    expect(read).toThrow(`no "${column}" column`);
  });

  test('says when a spreadsheet re-saved the worksheet with semicolons', () => {
    const bytes = writeCsv({ rows: [MOODLE_HEADER, ['Participant 1']], delimiter: ';' }).bytes;
    expect(() => readMoodleWorksheet(bytes)).toThrow(/semicolons/);
  });

  test("a worksheet from a Moodle in another language: says so, and how to get one kct reads (not that Moodle's importer would refuse it)", () => {
    const german = [
      'Bezeichner',
      'Vollständiger Name',
      'E-Mail-Adresse',
      'Status',
      'Bewertung',
      'Bestwertung',
      'Zuletzt geändert (Bewertung)',
    ];
    const read = () => readMoodleWorksheet(writeCsv({ rows: [german, ['Teilnehmer/in 1']] }).bytes);
    expect(read).toThrow('has none of the "Identifier", "Grade", "Last modified (grade)" columns kct reads (its header is "Bezeichner"');
    expect(read).toThrow(/perhaps Moodle wrote it in another language/);
    try {
      read();
    } catch (error) {
      expect((error as UsageError).suggestion).toMatch(/Switch your Moodle to English .* import the filled file in English too/);
      expect((error as UsageError).message).not.toContain('refuses');
    }
  });

  test("Canvas's gradebook export given as the worksheet: said so, with the command that fills it", () => {
    const canvas = ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Essay 1 (5001)'];
    const read = () => readMoodleWorksheet(writeCsv({ rows: [canvas, ['Ada', '101', '', '', 'A', '']] }).bytes);
    expect(read).toThrow(/looks like Canvas's gradebook export/);
    expect(read).toThrow(expect.objectContaining({ suggestion: expect.stringContaining('kct grades canvas') }));
  });

  test('reads a worksheet downloaded in another language when told its column names', () => {
    const header = ['Kennung', 'Vollständiger Name', 'Bewertung', 'Bestwertung', 'Zuletzt geändert (Bewertung)'];
    const bytes = writeCsv({ rows: [header, ['Teilnehmer/in 7', 'Eva', '', '10,00', '-']] }).bytes;
    const sheet = readMoodleWorksheet(bytes, {
      columnNames: {
        identifier: 'Kennung',
        fullName: 'Vollständiger Name',
        grade: 'Bewertung',
        maxGrade: 'Bestwertung',
        lastModified: 'Zuletzt geändert (Bewertung)',
      },
    });
    expect(sheet.rows[0]).toMatchObject({ participantId: '7', fullName: 'Eva', maxGrade: '10,00' });
  });
});

describe('fillMoodleWorksheet', () => {
  test('fills Grade scaled from a rubric of 20 to a maximum of 100, and Feedback comments as HTML; nothing else changes', () => {
    const { bytes } = moodleWorksheet(CLASS);
    const result = fillMoodleWorksheet(
      bytes,
      marks([
        [101, { score: 17, maxScore: 20, feedback: 'Clear thesis.\n\nCite "sources" & dates.' }],
        [102, { score: 13.5, maxScore: 20 }],
      ]),
    );
    const before = records(bytes);
    const after = records(result.bytes);
    expect(after[1][GRADE]).toBe('85.00');
    expect(after[1][FEEDBACK]).toBe('<p>Clear thesis.</p><p>Cite &quot;sources&quot; &amp; dates.</p>');
    expect(after[2][GRADE]).toBe('67.50');
    expect(after[2][FEEDBACK]).toBe('');
    // every other cell of every row is as it was
    const blank = (rows: string[][]) =>
      rows.map((row, i) => row.map((cell, c) => (i > 0 && i < 3 && (c === GRADE || c === FEEDBACK) ? '' : cell)));
    expect(blank(after)).toEqual(blank(before));
    // and every untouched record is byte for byte the same, BOM included
    expect(result.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [b, a] = [rawRecords(bytes), rawRecords(result.bytes)];
    for (const i of [0, 3, 4, 5]) expect(a[i].equals(b[i])).toBe(true);
    expect(a[1].toString()).toBe(
      '"Participant 101","Ada Lovelace",student101@example.org,"Submitted for grading",85.00,100.00,Yes,"Monday, 3 March 2025, 10:15 AM",,-,"<p>Clear thesis.</p><p>Cite &quot;sources&quot; &amp; dates.</p>"\n',
    );
    expect(result.report.entries.map((e) => [e.participantId, e.status, e.grade])).toEqual([
      ['101', 'filled', '85.00'],
      ['102', 'filled', '67.50'],
      ['103', 'not-marked', undefined],
      ['104', 'not-marked', undefined],
      ['105', 'not-marked', undefined],
    ]);
  });

  test('keeps CRLF line endings and the absence of a BOM', () => {
    const { bytes } = moodleWorksheet(CLASS, { bom: false, eol: '\r\n' });
    const out = fillMoodleWorksheet(bytes, marks([[105, { score: 20, maxScore: 20, feedback: 'Line one\nline two' }]])).bytes;
    expect(out.subarray(0, 10).toString()).toBe('Identifier'); // no BOM
    const text = out.toString('utf8');
    expect(text.match(/\r\n/g)?.length).toBe(CLASS.length + 1);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text).toContain(
      '"Participant 105","Katherine Johnson",student105@example.org,"Submitted for grading",100.00,100.00,Yes,"Monday, 3 March 2025, 10:15 AM",,-,"<p>Line one<br>line two</p>"\r\n',
    );
  });

  test('without a Feedback comments column, fills the grade and warns that the feedback was not written', () => {
    const header = MOODLE_HEADER.filter((c) => c !== 'Feedback comments');
    const { bytes } = moodleWorksheet(CLASS, { header });
    const result = fillMoodleWorksheet(bytes, marks([[101, { score: 10, maxScore: 20, feedback: 'Good' }]]));
    expect(records(result.bytes)[1][GRADE]).toBe('50.00');
    expect(records(result.bytes)[1]).toHaveLength(header.length);
    expect(result.report.entries[0]).toMatchObject({ status: 'filled', warnings: ['feedback-not-written'] });
  });

  test('a blind-marking worksheet, where the full name is "Participant N", is keyed by the same number', () => {
    const blind = [
      { id: 9001, name: 'Participant 9001' },
      { id: 9002, name: 'Participant 9002' },
    ];
    const result = fillMoodleWorksheet(moodleWorksheet(blind).bytes, marks([[9002, { score: 15, maxScore: 20 }]]));
    expect(records(result.bytes).map((r) => [r[0], r[1], r[GRADE]])).toEqual([
      ['Identifier', 'Full name', 'Grade'],
      ['Participant 9001', 'Participant 9001', ''],
      ['Participant 9002', 'Participant 9002', '75.00'],
    ]);
  });

  test('a student in only one of the two files is reported on each side, and the students do not match', () => {
    const result = fillMoodleWorksheet(
      moodleWorksheet(CLASS).bytes,
      marks([
        [101, { score: 1, maxScore: 2 }],
        [999, { score: 2, maxScore: 2 }],
      ]),
    );
    expect(result.report.entries.find((e) => e.participantId === '999')).toMatchObject({ status: 'not-in-file' });
    expect(result.report.entries.find((e) => e.participantId === '105')).toMatchObject({
      status: 'not-marked',
      displayName: 'Katherine Johnson',
    });
    expect(result.report.counts).toEqual({ filled: 1, refused: 0, 'not-in-file': 1, 'not-marked': 4 });
    expect(result.report.studentsMatch).toBe(false);
    const all = fillMoodleWorksheet(moodleWorksheet(CLASS.slice(0, 1)).bytes, marks([[101, { score: 1, maxScore: 2 }]]));
    expect(all.report.studentsMatch).toBe(true);
  });

  test('refuses, and leaves untouched, what Moodle would skip: a locked grade and a score out of range', () => {
    const { bytes } = moodleWorksheet(CLASS);
    const result = fillMoodleWorksheet(
      bytes,
      marks([
        [104, { score: 10, maxScore: 20 }],
        [105, { score: 21, maxScore: 20 }],
        [101, { score: -1, maxScore: 20 }],
      ]),
    );
    expect(result.report.entries.filter((e) => e.status === 'refused').map((e) => [e.participantId, e.reason])).toEqual([
      ['101', 'out-of-range'],
      ['104', 'grade-locked'],
      ['105', 'out-of-range'],
    ]);
    expect(result.bytes.equals(bytes)).toBe(true);
  });

  test("a --max-grade other than the worksheet's Maximum Grade refuses the whole fill: a grade within it would be imported on the wrong scale", () => {
    const { bytes } = moodleWorksheet(CLASS);
    const marked = marks([
      [101, { score: 15, maxScore: 20 }],
      [105, { score: 5, maxScore: 20 }],
    ]);
    for (const maxGrade of [200, 50])
      expect(() => fillMoodleWorksheet(bytes, marked, { maxGrade })).toThrow(
        new RegExp(`--max-grade ${maxGrade} is not the worksheet's Maximum Grade 100: Moodle reads each grade as out of 100`),
      );
    // the worksheet's own maximum, given again, is no conflict
    expect(fillMoodleWorksheet(bytes, marked, { maxGrade: 100 }).report.entries.find((e) => e.participantId === '105')).toMatchObject({
      status: 'filled',
      grade: '25.00',
    });
  });

  test('says when it overwrites a grade the worksheet already held, and why that matters to Moodle', () => {
    const result = fillMoodleWorksheet(moodleWorksheet(CLASS).bytes, marks([[103, { score: 18, maxScore: 20 }]]));
    expect(result.report.entries.find((e) => e.participantId === '103')).toMatchObject({
      status: 'filled',
      grade: '90.00',
      previousGrade: '80.00',
      lastModified: 'Tuesday, 4 March 2025, 9:00 AM',
      warnings: ['overwrites-grade'],
    });
    expect(result.report.notes.join(' ')).toMatch(/more than a minute after its "Last modified \(grade\)"/);
  });

  test('keeps a comment the teacher wrote and says so; --overwrite-feedback replaces it, and says that', () => {
    const rows = [
      { id: 108, name: 'Hal Ng', grade: '55.00', feedback: '<p>Good start</p>' },
      { id: 109, name: 'Ida B', feedback: '<p>Well argued</p>' },
    ];
    const marked = marks([
      [108, { score: 16.5, maxScore: 20, feedback: 'Clear thesis.' }],
      [109, { score: 17, maxScore: 20, feedback: 'Well argued' }],
    ]);
    const result = fillMoodleWorksheet(moodleWorksheet(rows).bytes, marked);
    expect(records(result.bytes)[1][FEEDBACK]).toBe('<p>Good start</p>');
    expect(result.report.entries.find((e) => e.participantId === '108')).toMatchObject({
      warnings: ['overwrites-grade', 'keeps-feedback'],
      previousFeedback: '<p>Good start</p>',
    });
    // the same comment kct writes is no loss
    expect(result.report.entries.find((e) => e.participantId === '109')?.warnings).toEqual([]);
    expect(result.report.notes.join(' ')).toContain('1 filled row already held a feedback comment, kept as it was');
    // a note reads the same in --json, where nothing is "listed above", and counts in words, not "row(s)"
    expect(result.report.notes.join(' ')).not.toMatch(/\(s\)|listed above/);
    const both = fillMoodleWorksheet(moodleWorksheet(rows.map((row) => ({ ...row, feedback: '<p>Mine</p>' }))).bytes, marked);
    expect(both.report.notes.join(' ')).toContain('2 filled rows already held a feedback comment, kept as it was');
    expect(result.report.notes.join(' ')).toContain("--overwrite-feedback writes the marks' feedback over them");
    const over = fillMoodleWorksheet(moodleWorksheet(rows).bytes, marked, { overwriteFeedback: true });
    expect(records(over.bytes)[1][FEEDBACK]).toBe('<p>Clear thesis.</p>');
    expect(over.report.entries.find((e) => e.participantId === '108')).toMatchObject({
      warnings: ['overwrites-grade', 'overwrites-feedback'],
      previousFeedback: '<p>Good start</p>',
    });
    expect(over.report.notes.join(' ')).toContain(
      "1 filled row already held a feedback comment, replaced by the marks' feedback as --overwrite-feedback asks",
    );
    // --feedback none: the comment stays, and nothing is said of it
    const none = fillMoodleWorksheet(moodleWorksheet(rows).bytes, marked, { feedback: 'none' });
    expect(records(none.bytes)[1][FEEDBACK]).toBe('<p>Good start</p>');
    expect(none.report.entries.find((e) => e.participantId === '108')?.warnings).toEqual(['overwrites-grade']);
  });

  test.each([
    ['integer', '67'],
    ['half', '66.5'],
    ['one-decimal', '66.5'],
    ['two-decimals', '66.50'],
  ] as const)('rounds 13.3 of 20 on 100 as %s: %s', (rounding, grade) => {
    const result = fillMoodleWorksheet(moodleWorksheet(CLASS).bytes, marks([[101, { score: 13.3, maxScore: 20 }]]), { rounding });
    expect(records(result.bytes)[1][GRADE]).toBe(grade);
  });

  test('never rounds above the maximum: 20 of 20 on a maximum of 7.5, rounded to integers, is 7', () => {
    const rows = [{ id: 1, name: 'A', max: '7.50' }];
    const result = fillMoodleWorksheet(moodleWorksheet(rows).bytes, marks([[1, { score: 20, maxScore: 20 }]]), { rounding: 'integer' });
    expect(records(result.bytes)[1][GRADE]).toBe('7');
  });

  test('needs a maximum: from the column, or given; a scale assignment is refused', () => {
    const header = MOODLE_HEADER.filter((c) => c !== 'Maximum Grade');
    const { bytes } = moodleWorksheet(CLASS, { header });
    expect(() => fillMoodleWorksheet(bytes, marks([[101, { score: 1, maxScore: 2 }]]))).toThrow(/no "Maximum Grade" column/);
    expect(
      records(fillMoodleWorksheet(bytes, marks([[101, { score: 1, maxScore: 2 }]]), { maxGrade: 10 }).bytes)[1][header.indexOf('Grade')],
    ).toBe('5.00');
    const scale = moodleWorksheet(CLASS, { header: header.map((c) => (c === 'Grade can be changed' ? 'Scale' : c)) }).bytes;
    expect(() => fillMoodleWorksheet(scale, marks([[101, { score: 1, maxScore: 2 }]]))).toThrow(/scale/);
  });

  test('feedback can be written as given, or not at all', () => {
    const { bytes } = moodleWorksheet(CLASS);
    const asText = fillMoodleWorksheet(bytes, marks([[101, { score: 1, maxScore: 2, feedback: 'a <b>, "c"' }]]), { feedback: 'text' });
    expect(records(asText.bytes)[1][FEEDBACK]).toBe('a <b>, "c"');
    expect(rawRecords(asText.bytes)[1].toString()).toContain(',"a <b>, ""c"""\n');
    const none = fillMoodleWorksheet(bytes, marks([[101, { score: 1, maxScore: 2, feedback: 'x' }]]), { feedback: 'none' });
    expect(records(none.bytes)[1][FEEDBACK]).toBe('');
  });
});

describe("readAsMoodleImports, the importer's rules, on a filled worksheet", () => {
  test("imports every marked participant's grade and feedback, and nothing else changes", () => {
    const { bytes } = moodleWorksheet(CLASS, { eol: '\r\n' });
    const locked = new Set(['104']);
    const result = fillMoodleWorksheet(
      bytes,
      marks([
        [101, { score: 17, maxScore: 20, feedback: 'Well argued' }],
        [102, { score: 20, maxScore: 20 }],
        [104, { score: 5, maxScore: 20 }],
      ]),
    );
    const before = readAsMoodleImports(bytes, { maxGrade: 100, locked });
    const after = readAsMoodleImports(result.bytes, { maxGrade: 100, locked });
    expect(before.imports.size).toBe(1); // Grace Hopper's 80.00 was already there
    expect([...after.imports.values()]).toEqual([
      { participantId: '101', grade: 85, feedback: '<p>Well argued</p>' },
      { participantId: '102', grade: 100, feedback: '' },
      { participantId: '103', grade: 80, feedback: '' },
    ]);
    expect(after.skipped).toEqual([
      { participantId: '104', reason: 'empty' },
      { participantId: '105', reason: 'empty' },
    ]);
  });

  test('skips what Moodle skips: empty, negative, above the maximum, locked; refuses a file without its columns', () => {
    const rows = [
      MOODLE_HEADER,
      ...[
        ['1', ''],
        ['2', '-3'],
        ['3', '101'],
        ['4', '12,5'],
        ['5', '9'],
      ].map(([id, grade]) => MOODLE_HEADER.map((c) => (c === 'Identifier' ? `Participant ${id}` : c === 'Grade' ? grade : ''))),
    ];
    const bytes = writeCsv({ rows, quote: phpCell }).bytes;
    const result = readAsMoodleImports(bytes, { maxGrade: 100, locked: new Set(['5']) });
    expect(result.skipped).toEqual([
      { participantId: '1', reason: 'empty' },
      { participantId: '2', reason: 'negative' },
      { participantId: '3', reason: 'above-maximum' },
      { participantId: '5', reason: 'locked' },
    ]);
    // PHP's (float) of "12,5" is 12 under an English Moodle: why kct writes '.'
    expect(result.imports.get('4')?.grade).toBe(12);
    expect(readAsMoodleImports(bytes, { decimalSeparator: ',' }).imports.get('4')?.grade).toBe(12.5);
    expect(() => readAsMoodleImports(writeCsv({ rows: [['Identifier', 'Grade']] }).bytes)).toThrow(/invalidgradeimport/);
  });
});
