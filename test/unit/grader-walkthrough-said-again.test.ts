// A teacher's walkthrough: one short sentence said eight times was shown as "each point moving the
// answer on (0 sentences of 8 restating an earlier one)". A sentence said again word for word
// restates, however short (repetition.ts). fast-check, seeded (KCT_PROPERTY_RUNS, KCT_PROPERTY_SEED).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { KNOWN, RUNS, SEED, SENTENCES } from './grader-arbitraries.js';
import { type Marking, seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const mark = (m: Marking, answerText: string) => ({
  js: judgements({ ...m, answerText, style: 'Bullet' }),
  out: grade({ ...m, answerText, style: 'Bullet' }).evaluation,
});
const progression = (m: Marking, text: string) =>
  mark(m, text)
    .js.flatMap((j) => j.points)
    .find((p) => p.measured.id === 'progression')?.measured;

/** Short sentences: fewer than four words of their own, which the overlap of content words does not catch. */
const SHORT = ['Uniforms are good because they are good.', 'Phones are bad.', 'Homework is boring and hard.', 'I like it a lot.'];

describe('a sentence said again restates, however short', () => {
  it('does not show "each point moving the answer on" for one sentence said eight times', () => {
    const text = Array(8).fill(SHORT[0]).join(' ');
    expect(progression(seededModel(12), text)).toEqual({ id: 'progression', restated: 7, sentences: 8 });
    for (const e of mark(seededModel(12), text).out)
      expect(readBullet(e.feedback).shows.join('; '), e.item).not.toMatch(/moving the answer on/);
  });

  it(`counts every sentence said again word for word as restating (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...SHORT, ...SENTENCES.other, ...SENTENCES.position), { minLength: 3, maxLength: 12 }),
        fc.constantFrom(...KNOWN),
        (sentences, m) => {
          const text = sentences.join(' ');
          const again = sentences.filter((s, i) => sentences.indexOf(s) < i).length;
          const measured = progression(m, text);
          if (measured?.id === 'progression') expect(measured.restated, text).toBeGreaterThanOrEqual(again);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
