// A teacher's walkthrough: a conclusion that argues the other side of the opening is no longer
// credited as "held to the conclusion" (grader-walkthrough-phones.test.ts); the Lacks line says why,
// in plain words, from the same comparison that refused the credit (readings.ts, positionReading).
// Properties are fast-check, seeded (KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in docs/testing.md).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import type { Measured } from '../../packages/sandbox/src/engines/grading/signals.js';
import { answer, KNOWN, RUNS, SEED, SENTENCES } from './grader-arbitraries.js';
import {
  inputOf as input,
  labelledAnswers,
  phonesLetter as letter,
  type Marking,
  PHONES as phones,
  seededModel,
} from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

/** The position the criterion was marked on, as measured. */
function position(m: Marking, text: string): Extract<Measured, { id: 'position' }> | undefined {
  for (const j of judgements(input(m, text))) for (const p of j.points) if (p.measured.id === 'position') return p.measured;
  return undefined;
}
const argument = (text: string) => readBullet(grade(input(phones, text)).evaluation[0].feedback);
const CONTRARY =
  /^a (?:conclusion that holds to the position taken at the start|position stated early, and a conclusion that holds to it) \((?:the opening|the answer first) argues “(.+)”, the conclusion the opposite: “(.+)”\)$/;

const OPENINGS = {
  keep: [
    'Mobile phones should not be banned at our school because they help us learn.',
    'I believe phones should be allowed in school because they help us learn.',
    'No, mobile phones should not be banned at school, since they keep us safe.',
    'Mobile phones should be allowed in school, not because they are fun but because they help us learn.',
  ],
  ban: [
    'Mobile phones should be banned at our school because they distract us.',
    'I believe phones should not be allowed in school because they distract us.',
    'Phones are bad for learning and we should not have them in school.',
  ],
};
const CONCLUSIONS = {
  keep: [
    'In conclusion, phones should not be banned because they help us learn.',
    'In conclusion, mobile phones should be allowed at school.',
    'To conclude, I do not think phones should be banned.',
    'In conclusion, because phones help us learn, I believe they should not be banned.',
  ],
  ban: [
    'In conclusion, phones should be banned.',
    'In conclusion, the school should get rid of mobile phones.',
    'That is why phones are bad and we should not have them at school.',
  ],
  none: ['In conclusion, I urge you to consider my letter carefully.', 'In conclusion, thank you for reading my letter.'],
};

describe('a conclusion that argues against the opening is named in Lacks', () => {
  it('says so in plain words, quoting both sides, and advises holding the position to the end', () => {
    const text = letter(OPENINGS.keep[0], CONCLUSIONS.ban[0]);
    const read = argument(text);
    expect(read.shows).toContain('a position stated in the opening');
    expect(read.shows.join('; ')).not.toMatch(/held to the conclusion/);
    expect(read.lacks[0]).toBe(
      'a conclusion that holds to the position taken at the start (the opening argues “Mobile phones should not be banned at our school”, the conclusion the opposite: “In conclusion, phones should be banned”)',
    );
    expect(read.step).toMatch(/^hold the position to the end/);
    for (const style of ['Short', 'Long'] as const)
      expect(grade(input(phones, text, style)).evaluation[0].feedback, style).toContain(
        'the conclusion the opposite: “In conclusion, phones should be banned”',
      );
  });

  it('names nothing of the kind when the conclusion restates the opening in other words ("get rid of", "not because", "Because …, I believe")', () => {
    for (const [opening, conclusion] of [
      [OPENINGS.keep[0], CONCLUSIONS.keep[1]],
      [OPENINGS.ban[2], CONCLUSIONS.ban[1]],
      ['I do not think mobile phones should be allowed at our school.', 'So overall I think the school should get rid of phones.'],
      [OPENINGS.keep[3], CONCLUSIONS.keep[3]],
    ]) {
      const read = argument(letter(opening, conclusion));
      expect(read.lacks.join('; '), conclusion).not.toMatch(/the conclusion the opposite/);
      expect(read.shows.join('; '), conclusion).toMatch(/held to the conclusion/);
    }
  });

  it('names none where the end is not read as a side ("uniforms should go" after "should not be compulsory")', () => {
    const text =
      'I think uniforms should not be compulsory, as they cost too much.\n\nMy friend pays £40 for a blazer.\n\nIn conclusion, uniforms should go.';
    for (const e of grade(input(seededModel(12), text)).evaluation) expect(e.feedback, e.item).not.toMatch(/the conclusion the opposite/);
  });

  it('names none in the labelled answers, each written to one side ("not as a private misfortune but as …" is one side)', () => {
    for (const a of labelledAnswers())
      for (const e of grade(input(a.model, a.text)).evaluation)
        expect(e.feedback, `${a.name}: ${e.item}`).not.toMatch(/the conclusion the opposite/);
  });

  it(`names the contrary conclusion exactly when the end takes the other side, from the judgement that refused "held" (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom('keep', 'ban' as const),
        fc.nat(),
        fc.constantFrom('keep', 'ban', 'none' as const),
        fc.nat(),
        (side, o, end, c) => {
          const opening = OPENINGS[side][o % OPENINGS[side].length];
          const conclusion = CONCLUSIONS[end][c % CONCLUSIONS[end].length];
          const text = letter(opening, conclusion);
          const where = `${opening} / ${conclusion}`;
          const measured = position(phones, text);
          expect(measured?.held, where).toBe(side === end);
          expect(measured?.contrary !== undefined, where).toBe(end !== 'none' && side !== end);
          const named = argument(text)
            .lacks.map((l) => CONTRARY.exec(l))
            .find((m) => m !== null);
          expect(named !== undefined, where).toBe(end !== 'none' && side !== end);
          if (named) {
            // the words quoted are the answer's own, those of each sentence that state its side
            expect(opening, where).toContain(named[1]);
            expect(conclusion, where).toContain(named[2]);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`on any answer and rubric, names a contrary conclusion only beside no "held", quoting the answer (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPENINGS.keep, ...OPENINGS.ban, ...SENTENCES.position),
        answer,
        fc.constantFrom(...CONCLUSIONS.keep, ...CONCLUSIONS.ban, ...CONCLUSIONS.none, ...SENTENCES.conclusion),
        fc.constantFrom(...KNOWN, phones),
        (opening, body, conclusion, m) => {
          const text = [opening, body, conclusion].join('\n\n');
          const measured = position(m, text);
          for (const e of grade(input(m, text)).evaluation) {
            const read = readBullet(e.feedback);
            const named = read.lacks.map((l) => CONTRARY.exec(l)).find((x) => x !== null);
            if (!named) continue;
            expect(measured?.held, text).toBe(false);
            expect(read.shows.join('; '), text).not.toMatch(/held to the conclusion/);
            for (const words of [named[1], named[2]]) expect(text.replace(/\s+/g, ' '), e.feedback).toContain(words.replace(/…$/, ''));
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
