// Feedback an audit found untrue of an answer's opposing view, its reply and the reason for its
// position, one case each, with the property behind it (fast-check, seeded, shrinking;
// KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in docs/testing.md): 1. a reply without a marker word
// is a reply; 2. common ways of stating the other side are an opposing view; 3. a reason in the
// next sentence without a marker is a reason; 4. a reply ends before the conclusion.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import type { Measured } from '../../packages/sandbox/src/engines/grading/signals.js';
import { words } from '../../packages/sandbox/src/engines/grading/text.js';
import { answer, RUNS, SEED, SENTENCES } from './grader-arbitraries.js';
import { seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const model12 = seededModel(12);
const input = (answerText: string): GradeInput => ({ ...model12, answerText, style: 'Bullet' });
const feedbackOf = (text: string, item: string) => grade(input(text)).evaluation.find((e) => e.item === item)!.feedback;
/** A point measured for the answer, by id, from whichever criterion measured it. */
function measured<Id extends Measured['id']>(text: string, id: Id): Extract<Measured, { id: Id }> {
  const found = judgements(input(text))
    .flatMap((j) => j.points.map((p) => p.measured))
    .find((m) => m.id === id);
  expect(found, `${id}\n${text}`).toBeDefined();
  return found as Extract<Measured, { id: Id }>;
}
const essay = (...paragraphs: string[]) => paragraphs.join('\n\n');
/** Words as the grader counts them ("second-hand" is two). */
const wordCount = (s: string) => words(s).length;
const UNANSWERED = 'a reply to the opposing view it states';
const NO_VIEW = 'the strongest opposing argument, and a reply to it';
const OPENING = 'I believe our school should not require uniforms, because they cost families too much.';
const CLOSING = 'In conclusion, the board should drop the uniform rule.';

/** The generated answer without views or replies of its own: the one a test adds is the only one. */
function withoutViews(text: string): string[] {
  const others = new Set([...SENTENCES.counter, ...SENTENCES.reply]);
  return text
    .split('\n\n')
    .map((p) => p.split(/(?<=[.!?]["”]?)\s+/).filter((s) => !others.has(s)))
    .filter((p) => p.length > 0)
    .map((p) => p.join(' '));
}

// ---------- 1. a reply without a marker word ----------

const VIEWS = [...SENTENCES.counter, 'Some parents say uniforms stop bullying about clothes.', 'Parents say uniforms save money.'];
/** Replies that deny the view or offer a way out, with no "however" or "but". */
const DENIALS = [
  'That is not what happens.',
  'Students simply find other things to tease each other about.',
  'Discipline comes from clear rules and fair teachers, not from the colour of a jumper.',
  'Students can express themselves in many other ways, such as clubs, art and music.',
  'The school could run a second-hand shop for families who need one.',
  'In reality, most families spend more on fashion than on a blazer.',
  "That isn't true of most schools.",
  'This rarely happens in practice.',
];
/** What grants the view or goes on stating it: never a reply. */
const CONCESSIONS = [
  'These concerns are real, and they deserve a fair hearing.',
  'Nobody wants families to struggle.',
  'Such worries are understandable.',
  'Many families feel this strongly.',
];
const CONTINUATIONS = [
  'They also say that uniforms are not comfortable.',
  'Others argue that uniforms are never fair.',
  'Critics also point out that blazers are not cheap.',
  'Some families simply cannot afford them.',
  'Students cannot wear what they like.',
  // what the objection is made of: a cost, a lack, a limit
  'A blazer alone costs £60, not counting shoes.',
  'Not every family has that kind of money.',
  'Families with three children do not have spare money.',
];

describe('a reply without a marker word is a reply', () => {
  it('finds "That is not what happens. Students simply find other things…" (the audit\'s answer)', () => {
    const reply = 'That is not what happens. Students simply find other things to tease each other about.';
    const text = essay(OPENING, `Some parents say uniforms stop bullying about clothes. ${reply}`, CLOSING);
    for (const item of ['Thesis & position', 'Evidence & reasoning']) {
      const feedback = feedbackOf(text, item);
      expect(readBullet(feedback).lacks, feedback).not.toContain(UNANSWERED);
    }
    expect(measured(text, 'counter')).toMatchObject({ views: 1, replied: true, replySentences: 2, replyWords: wordCount(reply) });
  });

  it.each([
    ['Some teachers say uniforms improve discipline.', DENIALS[2]],
    ['Critics argue that uniforms limit self-expression.', DENIALS[3]],
    ['Some parents say uniforms are too expensive.', DENIALS[4]],
  ])('finds the reply to "%s" in "%s"', (view, reply) => {
    const text = essay(OPENING, `${view} ${reply}`, CLOSING);
    expect(measured(text, 'counter')).toMatchObject({ views: 1, replied: true, replySentences: 1, replyWords: wordCount(reply) });
  });

  it.each([
    ['Some parents say uniforms stop bullying about clothes.', true],
    ['Some parents say uniforms are too expensive.', false],
  ])('finds a reply in "Uniforms do not stop bullying." after "%s": %s (a negation of what the view says)', (view, replied) => {
    const text = essay(OPENING, `${view} Uniforms do not stop bullying.`, CLOSING);
    expect(measured(text, 'counter')).toMatchObject({ views: 1, replied });
  });

  it.each([...CONCESSIONS, ...CONTINUATIONS])('finds no reply in "%s"', (after) => {
    const text = essay(OPENING, `Some parents say uniforms stop bullying about clothes. ${after}`, CLOSING);
    expect(measured(text, 'counter')).toMatchObject({ replied: false });
    expect(readBullet(feedbackOf(text, 'Thesis & position')).lacks).toContain(UNANSWERED);
  });

  const answered = fc.record({
    before: answer,
    view: fc.constantFrom(...VIEWS),
    between: fc.array(fc.constantFrom(...CONCESSIONS, ...CONTINUATIONS), { maxLength: 2 }),
    reply: fc.option(fc.constantFrom(...DENIALS), { nil: undefined }),
  });
  it(`finds an unmarked denial after a view, and no reply after a concession or another view (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(answered, ({ before, view, between, reply }) => {
        const paragraph = [view, ...between, ...(reply ? [reply] : [])].join(' ');
        const text = [...withoutViews(before), paragraph, SENTENCES.conclusion[1]].join('\n\n');
        const counter = measured(text, 'counter');
        if (reply) expect(counter, text).toMatchObject({ replied: true, replySentences: 1, replyWords: wordCount(reply) });
        else expect(counter, text).toMatchObject({ replied: false });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 2. common ways of stating the other side ----------

/** Each an opposing view an answer for uniforms states. */
const STATED = [
  'Some parents worry about the cost of uniforms.',
  'Parents say uniforms are too expensive for big families.',
  'Supporters say uniforms make everyone equal.',
  'Of course, some people hate wearing the same thing every day.',
  'Of course, not everyone likes uniforms.',
  'Some students find them uncomfortable in hot weather.',
  'The most common objection is the argument that it limits freedom, which I think is the strongest point against it.',
];
/** A debate mentioned, or the writer's own support: no side given to others. */
const NOT_STATED = [
  'Many people argue about school uniforms and I can see why.',
  'Some students worry about what their classmates will think.',
  'Every morning, thousands of students stand in front of a wardrobe and worry about what their classmates will think.',
  'Many students worry about being teased about their clothes.',
];

describe('common ways of stating the other side are an opposing view', () => {
  it('finds "Some parents worry about the cost of uniforms", and its reply "The school can solve this…" (the audit\'s answer)', () => {
    const text = essay(
      'I believe our school should keep its uniform, because it makes students equal.',
      'Some parents worry about the cost of uniforms. The school can solve this with a second-hand sale every term.',
      'In conclusion, the uniform should stay.',
    );
    const feedback = feedbackOf(text, 'Thesis & position');
    expect(readBullet(feedback).lacks, feedback).not.toContain(NO_VIEW);
    expect(measured(text, 'counter')).toMatchObject({ views: 1, replied: true, replySentences: 1, replyWords: 12 });
  });

  it.each(STATED)('finds a view in "%s"', (view) => {
    expect(measured(essay(OPENING, view, CLOSING), 'counter').views).toBe(1);
  });

  it.each(NOT_STATED)('finds none in "%s"', (sentence) => {
    expect(measured(essay(OPENING, sentence, CLOSING), 'counter').views).toBe(0);
  });

  const SUBJECTS = ['Some parents', 'Parents', 'Supporters', 'Some people', 'Many teachers', 'Critics'];
  const VERBS = ['say', 'argue', 'claim', 'insist'];
  const CLAIMS = ['uniforms are too expensive', 'uniforms stop bullying', 'homework builds discipline'];
  it(`finds a view in "<others> <say> <a claim>", and none in a worry about something else (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SUBJECTS),
        fc.constantFrom(...VERBS),
        fc.constantFrom(...CLAIMS),
        fc.constantFrom('being teased', 'what their friends will think', 'their exams'),
        (subject, verb, claim, worry) => {
          const view = `${subject} ${verb} that ${claim}.`;
          expect(measured(essay(OPENING, view, CLOSING), 'counter').views, view).toBe(1);
          const own = `Some students worry about ${worry}.`;
          expect(measured(essay(OPENING, own, CLOSING), 'counter').views, own).toBe(0);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 3. a reason in the next sentence ----------

const REASONED =
  'I think uniforms should be scrapped. They are itchy and uncomfortable.\n\nFor example, my blazer costs £60. This shows that uniforms cost families money.\n\nCritics argue that uniforms stop bullying. However, bullies find other targets.\n\nIn conclusion, the board should scrap them.';
/** A position without a reason, and what its subject is called in the next sentence. */
const POSITIONS: [string, string][] = [
  ['I think uniforms should be scrapped.', 'They'],
  ['In my opinion, school uniforms should stay.', 'They'],
  ['I believe the uniform should go.', 'It'],
  ['Our school should keep its uniform.', 'It'],
  ['I think uniforms should be scrapped.', 'This'],
];
const SAID_OF_IT: [string, string][] = [
  ['are itchy and uncomfortable', 'is itchy and uncomfortable'],
  ['cost families too much money', 'costs families too much money'],
  ['make every student look the same', 'makes every student look the same'],
  ['do not let students express themselves', 'does not let students express themselves'],
];
const UNRELATED = [
  'My brother likes football.',
  'The weather was nice yesterday.',
  'It was raining all morning.',
  'This is my opinion.',
  'They went to the park after school.',
  'They say it is a tradition.',
  'This year our student council asked whether uniforms should stay compulsory.',
];

describe('a reason in the next sentence, without a marker, is a reason', () => {
  it('finds the reason of "I think uniforms should be scrapped. They are itchy and uncomfortable." (the audit\'s answer)', () => {
    const feedback = feedbackOf(REASONED, 'Thesis & position');
    expect(feedback).not.toMatch(/the opening states a view without giving a reason for it/);
    expect(measured(REASONED, 'precision')).toEqual({ id: 'precision', early: true, precise: true });
  });

  it.each(UNRELATED)('finds no reason in "%s"', (next) => {
    const text = essay(`I think uniforms should be scrapped. ${next}`, CLOSING);
    expect(measured(text, 'precision')).toEqual({ id: 'precision', early: true, precise: false });
  });

  it(`finds it in "<pronoun> <says something of it>", and not in an unrelated sentence (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...POSITIONS),
        fc.constantFrom(...SAID_OF_IT),
        fc.constantFrom(...UNRELATED),
        ([position, pronoun], [plural, singular], unrelated) => {
          const reason = `${pronoun} ${pronoun === 'They' ? plural : singular}.`;
          const precise = (next: string) => measured(essay(`${position} ${next}`, CLOSING), 'precision').precise;
          expect(precise(reason), `${position} ${reason}`).toBe(true);
          expect(precise(unrelated), `${position} ${unrelated}`).toBe(false);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 4. a reply ends before the conclusion ----------

describe('a reply ends before the conclusion', () => {
  it('measures "…but you can buy them second hand." as 1 sentence of 13 words, not 2 with "In conclusion, …" (the audit\'s answer)', () => {
    const text =
      'I think uniforms should stay, because they are fair. Some people say uniforms are expensive but you can buy them second hand. In conclusion, uniforms should stay.';
    const feedback = feedbackOf(text, 'Thesis & position');
    expect(feedback).not.toMatch(/answered in 2 sentences \(18 words\)/);
    expect(feedback).toMatch(/an opposing view, answered in 1 sentence \(13 words\)/);
    expect(measured(text, 'counter')).toMatchObject({ replied: true, replySentences: 1, replyWords: 13 });
  });

  it('keeps a reply that goes on after a "therefore" in its own paragraph', () => {
    const reply = 'However, a plain uniform costs little. Therefore the cost is no reason to drop it.';
    const text = essay(OPENING, `Some people say uniforms are expensive. ${reply}`, CLOSING);
    expect(measured(text, 'counter')).toMatchObject({ replied: true, replySentences: 2, replyWords: wordCount(reply) });
  });

  it(`never counts the conclusion in a reply (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VIEWS),
        fc.constantFrom(...SENTENCES.reply, ...DENIALS),
        fc.constantFrom(...SENTENCES.conclusion),
        fc.boolean(),
        (view, reply, conclusion, oneParagraph) => {
          const body = `${view} ${reply}`;
          const text = oneParagraph ? `${OPENING} ${body} ${conclusion}` : essay(OPENING, body, conclusion);
          expect(measured(text, 'counter'), text).toMatchObject({ replied: true, replySentences: 1, replyWords: wordCount(reply) });
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('"The most common argument against uniforms is that …" is an opposing view', () => {
  it('is seen, and the reply "I disagree. …" after it', () => {
    const text = [
      'I believe our school should keep its uniform because it is fair to everyone.',
      'The most common argument against uniforms is that they stop students from expressing themselves. I disagree. Our personality shows in what we say and do, not in our jumpers.',
      'In conclusion, the board should keep the uniform.',
    ].join('\n\n');
    const counter = judgements({ ...seededModel(12), answerText: text, style: 'Bullet' })
      .flatMap((j) => j.points)
      .map((p) => p.measured)
      .find((m) => m.id === 'counter') as { views: number; replied: boolean } | undefined;
    expect(counter).toMatchObject({ replied: true });
    expect(counter!.views).toBeGreaterThanOrEqual(1);
  });
});
