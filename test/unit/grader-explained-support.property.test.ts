// "N pieces of support explained" is a count the feedback states as fact. Support followed by what
// it shows is counted however a student words the link ("This demonstrates", "These figures
// show", "It is clear from this that"), and support that only reports ("a survey that shows")
// is not. It once missed every wording but "this shows/means/suggests" and said "0 explained".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { RUNS, SEED, SENTENCES } from './grader-arbitraries.js';
import { type Marking, seededModel } from './grader-helpers.js';

const model12 = seededModel(12);
const input = (m: Marking, answerText: string): GradeInput => ({ ...m, answerText, style: 'Bullet' });

/** How students open the sentence that says what their support shows. */
const OPENERS = [
  'This shows that',
  'This means that',
  'This suggests that',
  'This demonstrates that',
  'This illustrates that',
  'This indicates that',
  'This proves that',
  'These figures show that',
  'This evidence proves that',
  'These results suggest that',
  'These statistics show that',
  'This research shows that',
  'These studies show that',
  'These surveys prove that',
  'This data suggests that',
  'That shows that',
  'It is clear from this that',
  'It is obvious that',
  'From this we can see that',
  'This is evidence that',
  'As this shows,',
  'Therefore,',
  'As a result,',
  'In this way',
];
const POINTS = ['uniforms make school fairer.', 'students learn more when they rest.', 'the rule saves families money.'];
/** Support that reports and explains nothing, and sentences that neither support nor explain. */
const REPORTS = ['A survey that shows most pupils prefer uniforms was published in 2020.', ...SENTENCES.evidence];
// "this mean teacher", "by such means": the words of an explanation, not one
const NEUTRAL = [
  'Homework takes hours every night.',
  'Uniforms look smart.',
  'Many pupils walk to school.',
  'This mean teacher gave us more homework.',
  'Families pay by such means as they have.',
];

const THESIS = 'In my view, schools should require uniforms.';

/** The count the feedback states: support explained in its sentence or one of the next two of its paragraph. */
function explained(text: string): number {
  const measured = judgements(input(model12, text))
    .flatMap((j) => j.points)
    .find((p) => p.id === 'explanation')?.measured;
  expect(measured?.id).toBe('explanation');
  return measured?.id === 'explanation' ? measured.explained : -1;
}

/** A scene set with a clock time: no support, so what follows it explains nothing (8:30 was once "a figure"). */
const SCENES = [
  'Walk into any school at 8:30 in the morning and you will see it.',
  'Lessons start at 8:45, before most parents leave for work.',
];

type Kind = 'explained' | 'unexplained' | 'scene';
const paragraph = (kind: Kind) =>
  fc
    .tuple(
      fc.constantFrom(...REPORTS),
      fc.constantFrom(...OPENERS),
      fc.constantFrom(...POINTS),
      fc.constantFrom(...NEUTRAL),
      fc.constantFrom(...SCENES),
    )
    .map(([support, opener, point, neutral, scene]) => ({
      text:
        kind === 'explained'
          ? `${support} ${opener} ${point}`
          : kind === 'unexplained'
            ? `${support} ${neutral}`
            : `${scene} ${opener} ${point}`,
      explained: kind === 'explained',
    }));

describe('the count of support explained', () => {
  it(`counts every paragraph whose support is followed by what it shows, however worded, and none that only report or set a scene (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<Kind>('explained', 'unexplained', 'scene').chain(paragraph), { minLength: 1, maxLength: 4 }),
        (paragraphs) => {
          const text = [THESIS, ...paragraphs.map((p) => p.text)].join('\n\n');
          const wanted = paragraphs.filter((p) => p.explained).length;
          const count = explained(text);
          // one a paragraph: a sentence that says what the support shows ("These figures show…") is not more support
          expect(count, text).toBe(wanted);
          const feedback = grade(input(model12, text)).evaluation.find((e) => e.item === 'Evidence & reasoning')!.feedback;
          if (wanted > 0) expect(feedback, text).not.toMatch(/\(0 pieces of support explained\)/);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('counts "This demonstrates", "These figures show" and "It is clear from this that" (once 0)', () => {
    const text = [
      THESIS,
      'A survey of 400 pupils found that 40 per cent had been teased about their clothes. This demonstrates that uniforms remove a reason for bullying.',
      'Research by the Department for Education shows that families spend £300 a year on clothes. These figures show that uniforms save parents money.',
      'For example, at my school the dress code changed in 2019 and lateness fell. It is clear from this that students waste less time.',
    ].join('\n\n');
    expect(explained(text)).toBe(3);
  });
});
