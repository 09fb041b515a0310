// Properties of filling generated worksheets: random names (commas, quotes, line breaks, accents),
// random column subsets and orders, BOM or not, CRLF or LF, either quoting, random marked subsets.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type Mark, ROUNDINGS, type Rounding } from '../../../src/platforms/grade-scale.js';
import { readAsMoodleImports } from '../../../src/platforms/moodle-import-rules.js';
import { fillMoodleWorksheet } from '../../../src/platforms/moodle-worksheet.js';
import { minimalCell, PROPERTY_SETTINGS, phpCell, rawCells, recordTexts, writeCsv } from './fixtures.js';

const REQUIRED = ['Identifier', 'Grade', 'Last modified (grade)'];
const OPTIONAL = [
  'Full name',
  'Email address',
  'Status',
  'Maximum Grade',
  'Grade can be changed',
  'Last modified (submission)',
  'Online text',
  'Feedback comments',
  'Notes',
];
const nasty = fc.string({
  unit: fc.constantFrom('a', 'Z', 'é', 'ß', 'ñ', '😀', ' ', ',', '"', '\\', ';', '\n', '\r\n', '\t', '1', '.', '-', "'"),
  maxLength: 14,
});
const gradeText = fc.oneof(
  fc.constant(''),
  fc.constant('-'),
  fc.integer({ min: 0, max: 10_000 }).map((n) => (n / 100).toFixed(2)),
);
const STEP: Record<Rounding, number> = { integer: 1, half: 0.5, 'one-decimal': 0.1, 'two-decimals': 0.01 };

const worksheet = fc.record({
  header: fc
    .subarray(OPTIONAL)
    .chain((optional) => fc.shuffledSubarray([...REQUIRED, ...optional], { minLength: REQUIRED.length + optional.length })),
  students: fc.uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 99_999 }),
      name: nasty,
      grade: gradeText,
      canChange: fc.constantFrom('Yes', 'Yes', 'Yes', 'No'),
      other: nasty,
    }),
    { selector: (s) => s.id, maxLength: 12 },
  ),
  maxGrade: fc.constantFrom(100, 20, 7.5, 10),
  bom: fc.boolean(),
  eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
  php: fc.boolean(),
});

const marksFor = (ids: number[]) =>
  fc
    .tuple(
      fc.subarray(ids),
      fc.uniqueArray(fc.integer({ min: 100_000, max: 100_010 }), { maxLength: 2 }),
      fc.constantFrom(10, 20, 25),
      fc.array(
        fc.record({
          fraction: fc.oneof(fc.double({ min: -0.05, max: 1.05, noNaN: true }), fc.constantFrom(0, 0.5, 0.95, 0.97, 1)),
          feedback: fc.option(nasty, { nil: undefined }),
        }),
        { minLength: 16, maxLength: 16 },
      ),
    )
    .map(([marked, strangers, maxScore, picks]) => {
      const marks = new Map<string, Mark>();
      [...marked, ...strangers].forEach((id, i) => {
        const { fraction, feedback } = picks[i % picks.length];
        marks.set(String(id), {
          score: Math.round(fraction * maxScore * 100) / 100,
          maxScore,
          ...(feedback !== undefined ? { feedback } : {}),
        });
      });
      return marks;
    });

type Spec = typeof worksheet extends fc.Arbitrary<infer T> ? T : never;

function build({ header, students, maxGrade, bom, eol, php }: Spec): Buffer {
  const cell = (column: string, s: (typeof students)[number]): string =>
    ({
      Identifier: `Participant ${s.id}`,
      'Full name': s.name,
      Grade: s.grade,
      'Maximum Grade': maxGrade.toFixed(2),
      'Grade can be changed': s.canChange,
      'Last modified (grade)': s.grade ? 'Tuesday, 4 March 2025, 9:00 AM' : '-',
      'Feedback comments': s.other,
    })[column] ?? s.other;
  const rows = [header, ...students.map((s) => header.map((column) => cell(column, s)))];
  return writeCsv({ rows, bom, eol, quote: php ? phpCell : (v: string) => minimalCell(v) }).bytes;
}

const words = (text: string) => text.replace(/\s+/g, ' ').trim();
const htmlText = (html: string) =>
  html
    .replace(/<\/?(p|br)>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');

describe('filling generated worksheets (properties)', () => {
  test('(a, b) only the Grade and Feedback cells of filled rows change; every other cell and row stays byte for byte', () => {
    fc.assert(
      fc.property(
        worksheet.chain((w) => fc.tuple(fc.constant(w), marksFor(w.students.map((s) => s.id)), fc.constantFrom(...ROUNDINGS))),
        ([w, marks, rounding]) => {
          const bytes = build(w);
          const result = fillMoodleWorksheet(bytes, marks, {
            rounding,
            ...(w.header.includes('Maximum Grade') ? {} : { maxGrade: w.maxGrade }),
          });
          expect(result.bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(w.bom);
          const before = recordTexts(bytes);
          const after = recordTexts(result.bytes);
          expect(after).toHaveLength(before.length);
          const filled = new Set(result.report.entries.filter((e) => e.status === 'filled').map((e) => e.participantId));
          const editable = new Set([w.header.indexOf('Grade'), w.header.indexOf('Feedback comments')]);
          before.forEach((record, i) => {
            const id = i === 0 ? undefined : String(w.students[i - 1].id);
            if (!id || !filled.has(id)) {
              expect(after[i]).toBe(record);
              return;
            }
            const [b, a] = [rawCells(record), rawCells(after[i])];
            expect(a).toHaveLength(b.length);
            b.forEach((cell, c) => editable.has(c) || expect(a[c]).toBe(cell));
          });
          // the line endings between records are the file's own
          const text = result.bytes.toString('utf8');
          expect(text.endsWith(w.eol)).toBe(true);
        },
      ),
      PROPERTY_SETTINGS,
    );
  });

  test("(c) Moodle's importer rules import exactly the marked participants' grades when in range, and the rest as before", () => {
    fc.assert(
      fc.property(
        worksheet.chain((w) => fc.tuple(fc.constant(w), marksFor(w.students.map((s) => s.id)), fc.constantFrom(...ROUNDINGS))),
        ([w, marks, rounding]) => {
          const bytes = build(w);
          const result = fillMoodleWorksheet(bytes, marks, {
            rounding,
            ...(w.header.includes('Maximum Grade') ? {} : { maxGrade: w.maxGrade }),
          });
          const locked = new Set(
            w.students.filter((s) => s.canChange === 'No' && w.header.includes('Grade can be changed')).map((s) => String(s.id)),
          );
          const before = readAsMoodleImports(bytes, { maxGrade: w.maxGrade, locked });
          const after = readAsMoodleImports(result.bytes, { maxGrade: w.maxGrade, locked });
          const feedbackRead = w.header.indexOf('Feedback comments') > 0;
          for (const s of w.students) {
            const id = String(s.id);
            const mark = marks.get(id);
            const entry = result.report.entries.find((e) => e.participantId === id)!;
            const inRange = mark !== undefined && mark.score >= 0 && mark.score <= mark.maxScore && !locked.has(id);
            expect(entry.status).toBe(mark === undefined ? 'not-marked' : inRange ? 'filled' : 'refused');
            if (entry.status === 'filled') {
              const imported = after.imports.get(id)!;
              expect(imported.grade).toBe(Number(entry.grade));
              expect(Math.abs(imported.grade - (mark!.score * w.maxGrade) / mark!.maxScore)).toBeLessThanOrEqual(STEP[rounding] + 1e-9);
              expect(imported.grade).toBeLessThanOrEqual(w.maxGrade);
              // the feedback Moodle reads says what the mark said, as HTML, where no comment was there; a comment there is kept
              const typed = w.header.includes('Feedback comments') && s.other.trim() !== '';
              if (feedbackRead && typed)
                expect(imported.feedback).toBe(s.other.replaceAll('\r\n', '\n')); // the importer reads \r\n as \n
              else if (feedbackRead && mark!.feedback !== undefined)
                expect(words(htmlText(imported.feedback!))).toBe(words(mark!.feedback));
            } else {
              expect(after.imports.get(id)).toEqual(before.imports.get(id));
            }
          }
          for (const id of marks.keys())
            if (!w.students.some((s) => String(s.id) === id))
              expect(result.report.entries.find((e) => e.participantId === id)?.status).toBe('not-in-file');
        },
      ),
      PROPERTY_SETTINGS,
    );
  });
});
