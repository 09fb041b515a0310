// Feedback a teacher's walkthrough (a model on "Should mobile phones be banned at school?", no
// length stated) found untrue of the answer, one case each, with the property behind it
// (fast-check, seeded; KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in docs/testing.md):
// 1. a sentence a scan broke with a blank line is one sentence, scored as typed;
// 2. "held to the conclusion" only when the conclusion restates the same side;
// 3. "with a reason" only for a reason given, not promised;
// 4. "No discernible structure" is not quoted beside an opening and a conclusion shown;
// 5. a length the question does not state is not said to be the task's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeRubric, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { answer, RUNS, SEED } from './grader-arbitraries.js';
import { inputOf as input, phonesLetter as letter, type Marking, seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const levels = (max: number, descriptors: string[]) =>
  descriptors.map((descriptor, i) => ({ score: Math.round(max * [1, 0.7, 0.4, 0][i]), descriptor }));
const criterion = (item: string, max: number, description: string, descriptors: string[]): GradeRubric => ({
  item,
  max_score: max,
  description,
  levels: levels(max, descriptors),
});

/** The teacher's model: four criteria, and a question that names no length. */
const phones: Marking = {
  name: 'the phones model',
  questionText: 'Should mobile phones be banned at school?',
  assignmentDesc: 'A persuasive letter to the headteacher.',
  rubrics: [
    criterion('Argument', 6, 'A clear position, argued with reasons.', [
      'A clear, sustained position with convincing reasons',
      'A clear position with some reasons',
      'A position is stated',
      'No position',
    ]),
    criterion('Evidence', 6, 'Evidence and examples that support the argument.', [
      'Well chosen, explained evidence',
      'Relevant evidence with some explanation',
      'Some evidence',
      'No evidence',
    ]),
    criterion('Organisation', 4, 'Paragraphs, an opening and a conclusion, linked ideas.', [
      'Clear paragraphs with an opening and a conclusion',
      'Paragraphs with some linking',
      'Some organisation',
      'No discernible structure',
    ]),
    criterion('Register', 5, 'A formal register suited to a letter, and accurate spelling.', [
      'Consistently formal and accurate',
      'Mostly formal',
      'Some informal language',
      'Informal throughout',
    ]),
  ],
  cumMethod: 'sum',
  totalScore: 21,
};
const model12 = seededModel(12);
const feedbackOf = (m: Marking, text: string, item: string) => grade(input(m, text)).evaluation.find((e) => e.item === item)!.feedback;

const TYPED = letter(
  'Mobile phones should not be banned at our school because they help us learn.',
  'In conclusion, phones should not be banned because they help us learn.',
);

// ---------- 1. a sentence broken by a scan ----------

/** What marking an answer comes to: each criterion's score and feedback, and the slips found. */
function marked(m: Marking, text: string) {
  const slips = judgements(input(m, text)).flatMap((j) => j.points.filter((p) => p.measured.id === 'accuracy').map((p) => p.measured));
  return { evaluation: grade(input(m, text)).evaluation.map((e) => [e.score, e.feedback]), slips };
}

/** Spaces inside a sentence before a lower-case word: where a scan or a page may break a line. */
function breakable(text: string): number[] {
  return [...text.matchAll(/(?<=[\p{L}\p{N},;])[ ](?=\p{Ll})/gu)].map((m) => m.index);
}

describe('a sentence a scan broke is the sentence typed', () => {
  it('marks the letter the same whether "hand their phones\\n\\nin at the start" was broken or typed', () => {
    const scanned = TYPED.replace('hand their phones in at', 'hand their phones\n\nin at');
    expect(marked(phones, scanned)).toEqual(marked(phones, TYPED));
    for (const e of grade(input(phones, scanned)).evaluation) expect(e.feedback).not.toMatch(/lower case|6 words\)/);
  });

  it(`never changes a score, a line or a slip for a break ("\\n\\n" or "\\n") before a lower-case word inside a sentence (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        answer,
        fc.array(fc.nat(), { minLength: 1, maxLength: 3 }),
        fc.constantFrom('\n\n', '\n', '\n\n\n', ' \n \n'),
        fc.constantFrom(model12, phones),
        (text, picks, gap, m) => {
          const at = breakable(text);
          fc.pre(at.length > 0);
          const chosen = new Set(picks.map((p) => at[p % at.length]));
          const broken = [...text].map((c, i) => (chosen.has(i) ? gap : c)).join('');
          expect(marked(m, broken), broken).toEqual(marked(m, text));
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('keeps a letter’s greeting its own line, whatever the case of the line after it', () => {
    const greeted = 'Dear Sir,\n\ni think phones should not be banned because they help us learn.';
    const j = judgements(input(phones, greeted))[0];
    expect(j.quote?.text ?? '').not.toMatch(/Dear Sir/);
  });
});

// ---------- 2. held to the conclusion ----------

const OPENINGS = {
  keep: [
    'Mobile phones should not be banned at our school because they help us learn.',
    'I believe phones should be allowed in school because they help us learn.',
    'I am against a ban on mobile phones, since they keep us safe.',
  ],
  ban: [
    'Mobile phones should be banned at our school because they distract us.',
    'I believe phones should not be allowed in school because they distract us.',
  ],
};
const CONCLUSIONS = {
  keep: [
    'In conclusion, phones should not be banned because they help us learn.',
    'In conclusion, mobile phones should be allowed at school.',
    'To conclude, I do not think phones should be banned.',
  ],
  ban: ['In conclusion, phones should be banned.', 'In conclusion, mobile phones should not be allowed at school.'],
  none: ['In conclusion, I urge you to consider my letter carefully.', 'In conclusion, thank you for reading my letter.'],
};
const HELD = /held to the conclusion/;

describe('a position is held to the conclusion only when the conclusion restates it', () => {
  it('does not say "held to the conclusion" of a conclusion on the other side, or one that takes no side', () => {
    const opening = OPENINGS.keep[0];
    for (const conclusion of [CONCLUSIONS.ban[0], CONCLUSIONS.none[0]])
      expect(feedbackOf(phones, letter(opening, conclusion), 'Argument'), conclusion).not.toMatch(HELD);
    expect(feedbackOf(phones, letter(opening, CONCLUSIONS.keep[1]), 'Argument')).toMatch(HELD);
  });

  it(`shows it held exactly when the conclusion takes the opening’s side (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom('keep', 'ban' as const),
        fc.nat(),
        fc.constantFrom('keep', 'ban', 'none' as const),
        fc.nat(),
        (side, o, end, c) => {
          const opening = OPENINGS[side][o % OPENINGS[side].length];
          const conclusion = CONCLUSIONS[end][c % CONCLUSIONS[end].length];
          const position = judgements(input(phones, letter(opening, conclusion)))
            .flatMap((j) => j.points)
            .find((p) => p.measured.id === 'position')?.measured;
          expect(position?.id === 'position' && position.held, `${opening} / ${conclusion}`).toBe(side === end);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 3. a reason given, not promised ----------

const PROMISES = [', and that is my view.', ', and I will explain why.', ', and here is why.', ', and I will tell you why in this letter.'];
const REASONS = [' because they help us learn.', ' since they keep us safe.', ', as they are cheap, useful and quick.'];
const PRECISE = /a precise position: the opening states it with a reason/;

describe('a precise position gives its reason', () => {
  it('does not call "…at our school, and that is my view." or "…, and I will explain why." a position with a reason', () => {
    for (const promise of PROMISES.slice(0, 2)) {
      const text = letter(`Mobile phones should not be banned at our school${promise}`, CONCLUSIONS.keep[0]);
      const precision = judgements(input(phones, text))[0].points.find((p) => p.measured.id === 'precision')?.measured;
      expect(precision, promise).toEqual({ id: 'precision', early: true, precise: false });
      expect(readBullet(feedbackOf(phones, text, 'Argument')).shows.join('; '), promise).not.toMatch(PRECISE);
    }
  });

  it(`shows a precise position for a reason given, never for one promised (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...PROMISES, ...REASONS), fc.constantFrom(...OPENINGS.keep.slice(0, 2)), (tail, opening) => {
        const stated = opening.replace(/ because they help us learn\.$/, '');
        const text = letter(`${stated}${tail}`, CONCLUSIONS.keep[0]);
        const precision = judgements(input(phones, text))
          .flatMap((j) => j.points)
          .find((p) => p.measured.id === 'precision')?.measured;
        expect(precision?.id === 'precision' && precision.precise, tail).toBe(REASONS.includes(tail));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 4. the level named and the Shows list agree ----------

describe('a level’s descriptor is not quoted against what the answer shows', () => {
  const short =
    'Phones should not be banned because they help us learn.\n\nWe use them for homework.\n\nIn conclusion, phones should not be banned.';

  it('does not quote "No discernible structure" beside an opening paragraph and a conclusion shown', () => {
    const read = readBullet(feedbackOf(phones, short, 'Organisation'));
    expect(read.shows.join('; ')).toMatch(/an opening paragraph and a conclusion/);
    expect(read.descriptor ?? '').not.toMatch(/No discernible structure/);
    expect(read.levels).toEqual([0]);
  });

  it(`never quotes "No discernible structure" when an opening or a conclusion is shown (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(answer, (text) => {
        const read = readBullet(feedbackOf(phones, text, 'Organisation'));
        if (read.shows.some((s) => /an opening paragraph|a conclusion/.test(s)))
          expect(read.descriptor ?? '', text).not.toMatch(/structure/i);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 5. a length the task does not state ----------

describe('a length the question does not state is not the task’s', () => {
  it('says 300 to 800 is usual, not that the task asks for it, and still says what a question asks for', () => {
    for (const text of [TYPED, 'Phones are good.']) {
      for (const e of grade(input(phones, text)).evaluation) {
        expect(e.feedback, e.item).not.toMatch(/asks? for|asked for/);
        if (e.item !== 'Register') expect(e.feedback, e.item).toMatch(/300 to 800 (?:is usual|words usual)/);
      }
    }
    expect(feedbackOf(model12, 'Uniforms are good.', 'Thesis & position')).toContain('where the task asks for 400 to 600');
  });

  it(`never attributes a length to a task whose question names none (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(answer, (text) => {
        for (const e of grade(input(phones, text)).evaluation)
          expect(e.feedback, text).not.toMatch(/asks? for \d|\d+ (?:words )?asked for|are asked for/);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
