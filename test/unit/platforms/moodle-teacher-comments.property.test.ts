// A comment the teacher typed in Moodle's worksheet is never lost unless --overwrite-feedback asks
// (overwriteFeedback): generated worksheets with some comments typed, some empty (or an editor's
// empty paragraph), marks with real feedback, with a CSV run's score list, or with none.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { feedbackAsHtml } from '../../../src/platforms/feedback-html.js';
import type { Mark } from '../../../src/platforms/grade-scale.js';
import { fillMoodleWorksheet } from '../../../src/platforms/moodle-worksheet.js';
import { MOODLE_HEADER, moodleRow, PROPERTY_SETTINGS, phpCell, rawCells, recordTexts, writeCsv } from './fixtures.js';

const typedComment = fc.oneof(
  fc.constantFrom('<p>Great start, Ada</p>', 'See me about the ending.', '<p dir="ltr">Well done &amp; "thanks"</p>'),
  fc.string({ unit: fc.constantFrom('a', 'Z', 'é', ' ', ',', '"', '\n', '\r\n', '1'), minLength: 1, maxLength: 12 }).map((s) => `x${s}`),
);
const emptyComment = fc.constantFrom('', ' ', '<p><br></p>', '<p></p>', '&nbsp;');
// what a mark's feedback is: the marker's words (ndjson, --json), a CSV run's criterion scores (mark-book.ts), or none
const feedback = fc.option(fc.constantFrom('Clear thesis.\n\nCite pages.', 'Thesis & position: 4.5\n\nEvidence & reasoning: 5.5', 'Good'), {
  nil: undefined,
});

const students = fc.uniqueArray(
  fc.record({
    id: fc.integer({ min: 1, max: 9_999 }),
    typed: fc.boolean(),
    grade: fc.constantFrom('', '55.00'),
    marked: fc.boolean(),
    feedback,
    fraction: fc.constantFrom(0, 0.5, 0.85, 1),
  }),
  { selector: (s) => s.id, minLength: 1, maxLength: 10 },
);
const cases = fc.record({
  students: students.chain((list) =>
    fc
      .tuple(...list.map((s) => (s.typed ? typedComment : emptyComment)))
      .map((comments) => list.map((s, i) => ({ ...s, comment: comments[i] }))),
  ),
  overwrite: fc.boolean(),
  form: fc.constantFrom<'html' | 'text'>('html', 'text'),
  eol: fc.constantFrom<'\n' | '\r\n'>('\n', '\r\n'),
  bom: fc.boolean(),
});

const GRADE = MOODLE_HEADER.indexOf('Grade');
const FEEDBACK = MOODLE_HEADER.indexOf('Feedback comments');

describe("a teacher's comment in the worksheet (property)", () => {
  test('no typed comment is lost unless overwriteFeedback asks; feedback goes into empty cells; every other cell stays byte for byte', () => {
    fc.assert(
      fc.property(cases, ({ students: list, overwrite, form, eol, bom }) => {
        const rows = list.map((s) =>
          moodleRow(MOODLE_HEADER, { id: s.id, name: `Student ${s.id}`, grade: s.grade || undefined, feedback: s.comment }),
        );
        const bytes = writeCsv({ rows: [MOODLE_HEADER, ...rows], bom, eol, quote: phpCell }).bytes;
        const marks = new Map<string, Mark>(
          list
            .filter((s) => s.marked)
            .map((s) => [
              String(s.id),
              { score: s.fraction * 20, maxScore: 20, ...(s.feedback !== undefined ? { feedback: s.feedback } : {}) },
            ]),
        );
        const result = fillMoodleWorksheet(bytes, marks, { overwriteFeedback: overwrite, feedback: form });
        const [before, after] = [recordTexts(bytes), recordTexts(result.bytes)];
        expect(after).toHaveLength(before.length);
        expect(after[0]).toBe(before[0]);
        list.forEach((s, i) => {
          const [was, now] = [rawCells(before[i + 1]), rawCells(after[i + 1])];
          expect(now).toHaveLength(was.length);
          const entry = result.report.entries.find((e) => e.participantId === String(s.id))!;
          const writes = entry.status === 'filled' && s.feedback !== undefined;
          for (const [c, cell] of was.entries()) {
            if (c === GRADE && entry.status === 'filled') continue;
            // the feedback cell changes only where it held no comment, or where the flag asks
            if (c === FEEDBACK && writes && (!s.typed || overwrite)) continue;
            expect(now[c], `participant ${s.id}, column ${MOODLE_HEADER[c]}`).toBe(cell);
          }
          if (!writes) return;
          if (s.typed && !overwrite) {
            expect(entry.warnings).toContain('keeps-feedback');
            expect(entry.previousFeedback).toBe(s.comment);
            return;
          }
          // written: the marks' feedback (a CSV run's scores too) in an empty cell, or over a comment when asked
          const value = (parse(result.bytes.subarray(bom ? 3 : 0), { relax_column_count: true }) as string[][])[i + 1][FEEDBACK];
          expect(value).toBe(form === 'html' ? feedbackAsHtml(s.feedback!) : s.feedback);
          expect(entry.warnings.includes('overwrites-feedback')).toBe(s.typed);
          expect(entry.warnings).not.toContain('keeps-feedback');
        });
      }),
      PROPERTY_SETTINGS,
    );
  });
});
