// A rubric's stated total ("Total: 20 marks", "out of 20", "/20" as its last line), read by the one
// rubric parser (packages/sandbox/src/engines/grading/rubric-text.ts) in the pass that reads its
// criteria, and kct's refusal of a rubric whose criteria add up to another total (model-building.ts).
// Over generated rubric texts with and without a stated total, maxima summing to it or not.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRubricText } from '../../packages/sandbox/src/engines/grader.js';
import { UsageError } from '../../src/api/errors.js';
import { statedTotalError } from '../../src/cli/models/model-building.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const NAMES = ['Thesis', 'Use of evidence', 'Organisation', 'Style', 'Counter-argument', 'Spelling and grammar', 'Audience awareness'];
const HEADERS = [
  (name: string, max: number) => `${name} (${max} marks)`,
  (name: string, max: number) => `${name} - ${max}`,
  (name: string, max: number) => `${name}: ${max} points`,
  (name: string, max: number) => `${name} /${max}`,
  (name: string, max: number) => `- **${name}** (${max} pts)`,
];
/** Where a teacher states the total: before the criteria (any of these) or as the rubric's last line. */
const AT_TOP = [
  (n: number) => `Total: ${n}`,
  (n: number) => `Total marks: ${n}`,
  (n: number) => `Total: ${n} marks. Criterion marks are added together.`,
  (n: number) => `The essay is marked out of ${n}.`,
  (n: number) => `This rubric is worth ${n} marks in total.`,
  (n: number) => `Persuasive essay rubric (out of ${n})`,
  (n: number) => `Out of ${n}`,
];
const AT_END = [
  (n: number) => `Total: ${n}`,
  (n: number) => `TOTAL = ${n} points`,
  (n: number) => `Total (${n} marks)`,
  (n: number) => `/${n}`,
  (n: number) => `Score: ___ /${n}`,
  (n: number) => `${n} marks in total`,
];

const criterion = fc.record({
  max: fc.integer({ min: 1, max: 12 }),
  header: fc.integer({ min: 0, max: HEADERS.length - 1 }),
  described: fc.boolean(),
  levelled: fc.boolean(),
});
const rubric = fc.record({
  criteria: fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: NAMES.length - 1 }), criterion), {
    minLength: 1,
    maxLength: 5,
    selector: ([name]) => name,
  }),
  titled: fc.boolean(),
  // none, or a total that the maxima make (off 0) or miss (off ±1..5)
  stated: fc.option(
    fc.record({
      off: fc.oneof(fc.constant(0), fc.integer({ min: -5, max: 5 })),
      top: fc.boolean(),
      form: fc.nat(),
    }),
    { nil: undefined },
  ),
  spaced: fc.boolean(),
});

type Rubric = typeof rubric extends fc.Arbitrary<infer T> ? T : never;

/** The rubric's text, the total it states (if any) and what its criteria add up to. */
function render(r: Rubric) {
  const sum = r.criteria.reduce((n, [, c]) => n + c.max, 0);
  const total = r.stated === undefined ? undefined : Math.max(1, sum + r.stated.off);
  const lines: string[] = [];
  if (r.titled) lines.push('Marking Rubric: Persuasive Writing');
  if (r.stated && total !== undefined && r.stated.top) lines.push(AT_TOP[r.stated.form % AT_TOP.length](total));
  for (const [name, c] of r.criteria) {
    if (r.spaced) lines.push('');
    lines.push(HEADERS[c.header](NAMES[name], c.max));
    if (c.described) lines.push('States and explains the point clearly.');
    if (c.levelled) lines.push(`${c.max}: Excellent work throughout.`, ...(c.max > 1 ? [`1-${c.max - 1}: Some weaknesses remain.`] : []));
  }
  if (r.stated && total !== undefined && !r.stated.top) lines.push(AT_END[r.stated.form % AT_END.length](total));
  return { text: lines.join('\n'), total, sum };
}

describe('a rubric text’s stated total, read with its criteria', () => {
  it(`is the total it states, or none, and never changes the criteria read (seed ${propertySeed(2041)})`, () => {
    fc.assert(
      fc.property(rubric, (r) => {
        const { text, total } = render(r);
        const read = readRubricText(text);
        expect(read.stated_total, text).toBe(total);
        expect(
          read.rubrics.map((c) => [c.item, c.max_score]),
          text,
        ).toEqual(r.criteria.map(([name, c]) => [NAMES[name], c.max]));
      }),
      { numRuns: propertyRuns(300), seed: propertySeed(2041) },
    );
  });

  it(`is refused by kct exactly when the criteria add up to another number, naming both and what to do (seed ${propertySeed(2042)})`, () => {
    fc.assert(
      fc.property(rubric, (r) => {
        const { text, total, sum } = render(r);
        const read = readRubricText(text);
        const error = statedTotalError(
          { stated_total: read.stated_total ?? null },
          read.rubrics.map((c) => c.max_score),
          'rubric.txt',
        );
        if (total === undefined || total === sum) {
          expect(error, text).toBeUndefined();
          return;
        }
        expect(error).toBeInstanceOf(UsageError);
        expect(error?.message).toBe(`the rubric (rubric.txt) states a total of ${total}, but its criteria's maxima add up to ${sum}`);
        expect(error?.suggestion).toContain(`--total-score ${sum}`);
        expect(error?.suggestion).toContain('Fix the rubric');
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(2042) },
    );
  });

  it('reads a table’s Total row and a grand total; totals of sections that differ state none', () => {
    const table = '| Criterion | Max |\n|---|---|\n| Thesis | 5 |\n| Evidence | 6 |\n| **Total** | **20** |';
    expect(readRubricText(table)).toEqual({
      rubrics: [
        { item: 'Thesis', max_score: 5 },
        { item: 'Evidence', max_score: 6 },
      ],
      stated_total: 20,
    });
    const sections = 'Question 1\nThesis (5 marks)\nTotal: 5\nQuestion 2\nEvidence (6 marks)\nTotal: 6';
    expect(readRubricText(sections).stated_total).toBeUndefined();
    expect(readRubricText(`${sections}\nGrand total: 11`).stated_total).toBe(11);
  });

  it('takes no total from a criterion’s own words, nor from a line that is its maximum', () => {
    const inside = 'Spelling (4 marks)\nAward a total of 2 marks for accurate spelling and 2 for punctuation.\nStyle (3 marks)';
    expect(readRubricText(inside)).toEqual({
      rubrics: [
        { item: 'Spelling', max_score: 4, description: 'Award a total of 2 marks for accurate spelling and 2 for punctuation.' },
        { item: 'Style', max_score: 3 },
      ],
    });
    // a heading without a maximum, then "Out of 4": that criterion's maximum, as before
    expect(readRubricText('Style:\nOut of 4')).toEqual({ rubrics: [{ item: 'Style', max_score: 4 }] });
  });

  it('a rubric that states no total is never refused, whatever its criteria add up to', () => {
    expect(statedTotalError({ stated_total: null }, [5, 6, 10], 'rubric.txt')).toBeUndefined();
    expect(statedTotalError({}, [5, 6, 10], 'rubric.txt')).toBeUndefined();
    // a maximum that is not a number: nothing to add up, so nothing to compare
    expect(statedTotalError({ stated_total: 20 }, [5, 'six'], 'rubric.txt')).toBeUndefined();
  });
});
