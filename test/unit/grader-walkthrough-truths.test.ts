// Feedback a new-user walkthrough found untrue of the answer, one case each on model 12, with the
// property behind it (fast-check, seeded, shrinking; KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in
// docs/testing.md): 1. an answer of a word or a few is short, not "No answer text was given";
// 2. one sentence said 60 times has neither a varied vocabulary nor 540 words of development;
// 3. "Research shows" names no source, and "For example, uniforms are nice" is no example.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { lacks } from '../../packages/sandbox/src/engines/grading/phrases.js';
import type { Measured } from '../../packages/sandbox/src/engines/grading/signals.js';
import { KNOWN, RUNS, SEED, SENTENCES } from './grader-arbitraries.js';
import { type Marking, seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const model12 = seededModel(12);
const input = (m: Marking, answerText: string, style: GradeInput['style'] = 'Bullet'): GradeInput => ({ ...m, answerText, style });
function measured<Id extends Measured['id']>(text: string, id: Id): Extract<Measured, { id: Id }> {
  for (const j of judgements(input(model12, text)))
    for (const p of j.points) if (p.measured.id === id) return p.measured as Extract<Measured, { id: Id }>;
  throw new Error(`nothing measured as ${id}`);
}

// ---------- 1. a short answer has text ----------

/** Words an answer of a few words may be made of: the question's, everyday ones, and ones no list has. */
const FEW = ['No', 'yes', 'Uniforms', 'are', 'good', 'I', 'think', 'not', 'school', 'never', 'maybe', 'because', 'qwxz', 'Ofsted', '42'];

describe('an answer of a few words is short, not missing', () => {
  it('tells "Uniforms are good." (3 words) and "No." (1 word) how short they are, on every criterion', () => {
    for (const [text, words] of [
      ['Uniforms are good.', '3 words'],
      ['No.', '1 word'],
    ]) {
      for (const e of grade(input(model12, text)).evaluation) {
        expect(e.feedback, text).not.toMatch(/No answer text was given/);
        expect(e.feedback, text).toContain(`At ${words}, where the task asks for 400 to 600, the answer is too short`);
      }
    }
  });

  it(`never says an answer of one to four words has no text, in any style, on any rubric (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...FEW), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('', '.', '!', '?'),
        fc.constantFrom(...KNOWN),
        fc.constantFrom('Bullet', 'Short', 'Long' as const),
        (words, end, m, style) => {
          const text = `${words.join(' ')}${end}`;
          const out = grade(input(m, text, style));
          for (const [i, e] of out.evaluation.entries()) {
            expect(e.feedback, text).not.toMatch(/No answer text was given/);
            const j = judgements(input(m, text))[i];
            // marked, and held down as what it is: short (or, were it the question's words, copied)
            expect(j.empty, text).toBeUndefined();
            expect(['short', 'copied'], `${text}: ${e.feedback}`).toContain(j.caveat?.kind);
            if (j.caveat?.kind === 'short') expect(j.caveat.words, text).toBe(words.length);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 2. repetition is neither vocabulary nor development ----------

const REPEATED = Array(60).fill('Schools should require uniforms because uniforms make students equal.').join(' ');

/** Sentences of four content words or more, each of which restates itself when said again. */
const SAID_AGAIN = [
  'Schools should require uniforms because uniforms make students equal.',
  'Compulsory uniforms reduce bullying and save families considerable money every year.',
  'Uniforms create discipline, belonging and professional standards throughout secondary education.',
  'Students concentrate better when everybody wears identical, practical, affordable clothing.',
];
const ONE_POINT_OVER_AND_OVER = fc
  .record({
    said: fc.constantFrom(...SAID_AGAIN),
    target: fc.integer({ min: 420, max: 850 }),
    opening: fc.array(fc.constantFrom(...SENTENCES.position, ...SENTENCES.other), { maxLength: 3 }),
    paragraphs: fc.integer({ min: 1, max: 4 }),
  })
  .map(({ said, target, opening, paragraphs }) => {
    const times = Math.ceil(target / said.split(' ').length);
    const body = Array.from({ length: times }, () => said);
    const size = Math.ceil(body.length / paragraphs);
    const blocks = Array.from({ length: paragraphs }, (_, k) => body.slice(k * size, (k + 1) * size).join(' ')).filter(Boolean);
    return [opening.join(' '), ...blocks].filter(Boolean).join('\n\n');
  });

describe('one point said over and over is not varied, nor developed', () => {
  it('does not call 8 different words in any 50 "a varied vocabulary", nor credit 540 words of one sentence as development', () => {
    const out = grade(input(model12, REPEATED));
    for (const e of out.evaluation) {
      const read = readBullet(e.feedback);
      expect(read.shows.join('; '), e.item).not.toMatch(/varied vocabulary|development/);
    }
    const language = out.evaluation.find((e) => e.item === 'Language & conventions')!.feedback;
    expect(readBullet(language).lacks).toContain(
      'a wider vocabulary (on average 8 different words in any 50, 67% of seven letters or more)',
    );
    // the same reading as Organisation's "progression (59 sentences of 60 restating earlier points)"
    const thesis = out.evaluation.find((e) => e.item === 'Thesis & position')!.feedback;
    expect(thesis).toContain(
      'development: only 9 of its 540 words are not restatement (59 of its 60 sentences restate earlier ones), where the task asks for 400 to 600',
    );
  });

  it(`shows a varied vocabulary only when both its range and its long words meet the signal (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(ONE_POINT_OVER_AND_OVER, (text) => {
        for (const j of judgements(input(model12, text))) {
          const v = j.shows.find((p) => p.id === 'vocabulary')?.measured;
          // the range's half is met from 38 different words in 50, the long words' from 17%
          if (v?.id === 'vocabulary') expect(v.distinct / v.window >= 0.75 && v.longPercent >= 17, text).toBe(true);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`never shows development for an answer most of whose sentences restate earlier ones (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(ONE_POINT_OVER_AND_OVER, (text) => {
        const progression = measured(text, 'progression');
        if (progression.restated * 2 <= progression.sentences) return;
        for (const e of grade(input(model12, text)).evaluation) {
          expect(readBullet(e.feedback).shows.join('; '), `${e.item}:\n${e.feedback}`).not.toMatch(/development/);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 3. a source named, an example given ----------

const VAGUE_EVIDENCE = `I think uniforms are a good idea for our school. They are good because they are good for students and good for teachers and good for everyone.

For example, uniforms are nice. Another example is that uniforms look smart. This shows that uniforms are good. Research shows uniforms are good. Experts agree that uniforms are good.

Some people say uniforms are bad. But they are wrong because uniforms are good.

In conclusion, uniforms are good and every school should have them because they are good.`;

/** Support that names no source, and "examples" that only praise or blame the topic. */
const UNNAMED = [
  'Research shows uniforms are good.',
  'Experts agree that uniforms are good.',
  'Studies say that uniforms help.',
  'Statistics show that uniforms work.',
  'Scientists have found that uniforms are better.',
  'According to experts, uniforms are fair.',
  'Experts say uniforms are helpful.',
];
const CLAIMED = ['For example, uniforms are nice.', 'For instance, a uniform looks smart.', 'For example, school uniforms are great.'];
/** Sources the answer names, and examples that give something particular: one of each a sentence. */
const NAMED = [
  "A survey by the Children's Society found that uniforms reduce bullying.",
  'According to a report by researchers at the University of Nottingham, experts found that uniforms save time.',
  'A 2019 survey of 1,200 parents found that 64% of them saved money.',
  'According to Ofsted, uniforms are common in English schools.',
  'Our head of year reported that detentions fell by half.',
];
const GIVEN = [
  "For example, my cousin's school dropped its uniform in 2021.",
  'For instance, in Finland pupils wear what they like.',
  'Our school could allow small items such as badges or hair accessories.',
];

describe('support is specific: a source named, an example given', () => {
  it('credits neither "Research shows", "Experts agree" nor "For example, uniforms are nice" as specific support', () => {
    const evidence = measured(VAGUE_EVIDENCE, 'evidence');
    expect([evidence.sources, evidence.examples, evidence.unnamed]).toEqual([0, 0, 2]);
    const feedback = grade(input(model12, VAGUE_EVIDENCE)).evaluation.find((e) => e.item === 'Evidence & reasoning')!.feedback;
    const read = readBullet(feedback);
    expect(read.shows.join('; ')).not.toMatch(/specific support/);
    expect(read.lacks).toContain('specific support: figures, named sources or examples (2 sources not named)');
    expect(feedback).not.toContain('(shows specific support');
    expect(read.step).toMatch(/^name the source of each claim/);
  });

  it(`counts only the sources it names and the examples that give something particular (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...UNNAMED, ...CLAIMED, ...NAMED, ...GIVEN], { minLength: 1 }),
        fc.integer({ min: 1, max: 3 }),
        (cited, paragraphs) => {
          const size = Math.ceil(cited.length / paragraphs);
          const body = Array.from({ length: paragraphs }, (_, k) => cited.slice(k * size, (k + 1) * size).join(' ')).filter(Boolean);
          const text = [
            'I believe our school should keep its uniform, because it is fair.',
            ...body,
            'In conclusion, the uniform should stay.',
          ].join('\n\n');
          const evidence = measured(text, 'evidence');
          expect(evidence.sources, text).toBe(cited.filter((s) => NAMED.includes(s)).length);
          expect(evidence.examples, text).toBe(cited.filter((s) => GIVEN.includes(s)).length);
          const unnamed = cited.filter((s) => UNNAMED.includes(s)).length;
          expect(evidence.unnamed, text).toBe(unnamed);
          if (unnamed > 0) expect(lacks(evidence), text).toMatch(new RegExp(`\\b${unnamed} sources? not named\\)`));
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
