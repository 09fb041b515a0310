// A teacher's walkthrough of models 13 and 14: feedback untrue of the answer, one case each, with its
// property (fast-check, seeded; KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in docs/testing.md):
// 1. a listed phrase is found only when its content words are there together (criterion.ts);
// 2. a lab report, marked by the grading engine (model 14 is still `training`): "The results show
//    that" explains the Results before it (features.ts), a Conclusion section is a judgement on the
//    question (features.ts), and "No method." is not quoted of an answer with a Method (facts.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import type { Measured } from '../../packages/sandbox/src/engines/grading/signals.js';
import { RUNS, SEED } from './grader-arbitraries.js';
import { type Marking, seededModel } from './grader-helpers.js';

const model13 = seededModel(13);
const model14 = seededModel(14);
const input = (m: Marking, answerText: string): GradeInput => ({ ...m, answerText, style: 'Bullet' });
function measured<Id extends Measured['id']>(m: Marking, text: string, item: string, id: Id): Extract<Measured, { id: Id }> {
  const j = judgements(input(m, text)).find((x) => x.item === item)!;
  return j.points.find((p) => p.measured.id === id)!.measured as Extract<Measured, { id: Id }>;
}

// ---------- 1. a listed phrase is its words together ----------

const CONTEXT = 'Context & themes';
/** Model 13's listed context, by the words that make each phrase (“in” and “the” are not; nor is “work”, marking language to the grader). */
const PHRASES: [string, string[]][] = [
  ['the Great Depression', ['great', 'depression']],
  ['itinerant ranch work', ['itinerant', 'ranch']],
  ['gender in 1930s America', ['gender', '1930s', 'america']],
];
/** Sentences on the novel that use none of the listed words. */
const FILLER = [
  'Steinbeck presents loneliness through Crooks and Candy.',
  'Curley’s wife has nobody to talk to, which suggests how isolated she feels.',
  'George says that “guys like us” are the loneliest guys.',
  'The dream of the farm gives the men hope.',
  'Lennie is often left alone in the bunkhouse.',
];

describe('a phrase the criterion lists is found only as a phrase (model 13)', () => {
  it('does not credit “gender in 1930s America” from “ranch workers in the 1930s”', () => {
    const text = `Steinbeck presents loneliness as the normal state of ranch workers in the 1930s. George says that "guys like us" are "the loneliest guys in the world", which suggests that loneliness is part of ranch life.

Crooks is isolated because of his race. He lives alone in the harness room, which shows how he is shut out.`;
    const c = measured(model13, text, CONTEXT, 'coverage');
    expect(c.found).toEqual(['race']);
    expect(c.missing).toEqual(expect.arrayContaining(['gender in 1930s America', 'itinerant ranch work', 'the Great Depression']));
    const feedback = grade(input(model13, text)).evaluation.find((e) => e.item === CONTEXT)!.feedback;
    expect(feedback).not.toMatch(/Shows:[^\n]*gender in 1930s America/);
  });

  it(`finds a phrase when all its words are in one sentence, never when some are missing (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PHRASES),
        fc.nat(),
        fc.boolean(),
        fc.array(fc.constantFrom(...FILLER), { minLength: 2, maxLength: 5 }),
        (phrase, drop, all, filler) => {
          const [text, words] = phrase;
          const used = all ? words : words.filter((_, k) => k !== drop % words.length);
          const sentence = `The men are shaped by ${used.join(' and ')} in this novel.`;
          const answer = [filler.join(' '), sentence, filler.slice().reverse().join(' ')].join('\n\n');
          const c = measured(model13, answer, CONTEXT, 'coverage');
          expect(c.found.includes(text), answer).toBe(all);
          expect(c.missing.includes(text), answer).toBe(!all);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`never finds a phrase from its words in paragraphs apart (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...PHRASES), fc.constantFrom(...FILLER), (phrase, filler) => {
        const [text, words] = phrase;
        const answer = words.map((w) => `${filler} It comes back to ${w}.`).join('\n\n');
        expect(measured(model13, answer, CONTEXT, 'coverage').found, answer).not.toContain(text);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 2. a lab report ----------

const LAB = `Hypothesis
I predict that the closer the lamp is to the pondweed, the faster the rate of photosynthesis, because light provides the energy for photosynthesis.

Method
I placed a piece of Elodea in a test tube of water. I put a lamp at 10 cm, 20 cm, 30 cm and 40 cm from the tube and counted the bubbles in one minute. I kept the temperature the same and repeated each distance three times.

Results
At 10 cm there were 42 bubbles, at 20 cm 30 bubbles, at 30 cm 18 bubbles and at 40 cm 9 bubbles.

Conclusion
The results show that the closer the lamp, the more bubbles were produced, so light intensity increases the rate of photosynthesis. This supports my hypothesis. One source of error was that the bubbles were hard to count, so next time I would measure the volume of gas with a syringe.`;

/** A section as a student sets it out: its heading on a line of its own, apart, or with a colon. */
const section = (name: string, body: string, style: number) =>
  style === 0 ? `${name}\n${body}` : style === 1 ? `${name}\n\n${body}` : `${name}:\n${body}`;
const RESULTS = [
  'At 10 cm there were 42 bubbles a minute.',
  'At 20 cm there were 30 bubbles, and at 40 cm only 9.',
  'The mean at 30 cm was 18 bubbles.',
];
const CONCLUSIONS = [
  'The results show that the closer the lamp, the more bubbles, so light intensity increases the rate of photosynthesis.',
  'The results show that more light gave more bubbles, so the rate of photosynthesis rises with light intensity.',
  'My results show that the rate fell as the lamp moved away, so light is a limiting factor.',
];
const METHODS = [
  'I put pondweed in water under a lamp and counted the bubbles.',
  'I moved the lamp from 10 cm to 40 cm and counted bubbles for a minute each time.',
  'I kept the temperature the same with a water bath.',
];
const report = fc
  .record({
    style: fc.integer({ min: 0, max: 2 }),
    hypothesis: fc.boolean(),
    method: fc.subarray(METHODS, { minLength: 1 }),
    results: fc.subarray(RESULTS, { minLength: 1 }),
    conclusion: fc.constantFrom(...CONCLUSIONS),
    more: fc.subarray(['This supports my hypothesis.', 'The bubbles were hard to count, so I would use a syringe next time.']),
  })
  .map(({ style, hypothesis, method, results, conclusion, more }) =>
    [
      hypothesis ? section('Hypothesis', 'I predict more light will give more bubbles.', style) : '',
      section('Method', method.join(' '), style),
      section('Results', results.join(' '), style),
      section('Conclusion', [conclusion, ...more].join(' '), style),
    ]
      .filter(Boolean)
      .join('\n\n'),
  );

describe('a lab report’s feedback is true of it (model 14, by the grading engine)', () => {
  it('counts “The results show that … so …” as explaining the results before it', () => {
    for (const e of grade(input(model14, LAB)).evaluation) expect(e.feedback, e.item).not.toContain('0 pieces of support explained');
    expect(measured(model14, LAB, 'Conclusion & evaluation', 'explanation').explained).toBeGreaterThanOrEqual(1);
  });

  it('reads a conclusion under a Conclusion heading as a judgement on the question asked', () => {
    const e = grade(input(model14, LAB)).evaluation.find((x) => x.item === 'Conclusion & evaluation')!;
    expect(e.feedback).not.toContain('a judgement on the question asked');
    expect(measured(model14, LAB, 'Conclusion & evaluation', 'judgement').final).toBe(true);
  });

  it('does not quote level 0 “No method.” for an answer with a Method section', () => {
    const short = 'Method\nI put pondweed in water under a lamp and counted the bubbles.';
    const e = grade(input(model14, short)).evaluation.find((x) => x.item === 'Method')!;
    expect(e.score).toBe(0);
    expect(e.feedback).not.toMatch(/No method/);
  });

  it(`explains its results, judges in its conclusion and is never said to have no method, however set out (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(report, (text) => {
        for (const e of grade(input(model14, text)).evaluation) {
          expect(e.feedback, text).not.toContain('0 pieces of support explained');
          expect(e.feedback, text).not.toContain('a judgement on the question asked');
          expect(e.feedback, text).not.toMatch(/No method/);
        }
        expect(measured(model14, text, 'Conclusion & evaluation', 'judgement').judgements, text).toBeGreaterThan(0);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
