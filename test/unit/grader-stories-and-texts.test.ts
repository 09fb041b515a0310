// Feedback on stories and on answers about a text that an audit found untrue, one case each, with
// the property behind them (fast-check, seeded, shrinking): speech or a quotation of several
// sentences is one, not invisible; "Are you coming?" asked Mum is no sentence begun in lower case;
// a story's last line "From that day on, …" is no letter's sign-off; a story told in the past
// tense is a story without dialogue or turning words; "the 1930s" is a date; a one-paragraph answer
// ends with its judgement; an answer of 3 short paragraphs is not told to paragraph its points.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import type { Measured } from '../../packages/sandbox/src/engines/grading/signals.js';
import { RUNS, SEED } from './grader-arbitraries.js';
import { seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const story = seededModel(31);
const literature = seededModel(13);
type Model = ReturnType<typeof seededModel>;
const input = (m: Model, text: string): GradeInput => ({ ...m, answerText: text, style: 'Bullet' });
const feedbackOf = (m: Model, text: string, item: string) => grade(input(m, text)).evaluation.find((e) => e.item === item)!.feedback;
const allFeedback = (m: Model, text: string) => grade(input(m, text)).evaluation.map((e) => e.feedback);
function measured<Id extends Measured['id']>(m: Model, text: string, id: Id): Extract<Measured, { id: Id }> | undefined {
  for (const j of judgements(input(m, text)))
    for (const p of j.points) if (p.measured.id === id) return p.measured as Extract<Measured, { id: Id }>;
  return undefined;
}

const DIVING = [
  'Tom stood shaking on the diving board.',
  '"I can\'t jump. It is too high."',
  'His dad smiled up from the water. "You can. I will catch you."',
  'Tom closed his eyes and jumped. He decided he would never be scared of the pool again.',
].join('\n\n');

const CROOKS = [
  'Steinbeck presents loneliness as the normal state of ranch life in Of Mice and Men.',
  "Crooks tells Lennie, \"S'pose you didn't have nobody. S'pose you couldn't go into the bunk house and play rummy 'cause you was black.\" This shows that racism leaves Crooks completely alone.",
  'In conclusion, Steinbeck suggests that loneliness destroys the men who cannot belong.',
].join('\n\n');

const BEN = [
  "Ben always hid at the back of the class and never spoke. One morning Miss Shah asked a question that nobody could answer. The room was silent. Ben's hand shook as he raised it, and he gave the answer in a whisper. Everyone turned to stare at him, and Miss Shah smiled.",
  'From that day on, Ben sat at the front.',
].join('\n\n');

describe('speech and quotations of several sentences', () => {
  it('counts both speeches of the diving story as dialogue set out with speech marks', () => {
    expect(measured(story, DIVING, 'dialogue')?.lines).toBe(2);
    for (const feedback of allFeedback(story, DIVING))
      expect(readBullet(feedback).lacks.join('; '), feedback).not.toMatch(/dialogue set out/);
  });

  it("finds Crooks's quotation, and counts none of its contractions or its “you was” as the writer's", () => {
    expect(measured(literature, CROOKS, 'quotations')?.quotations).toBeGreaterThanOrEqual(1);
    for (const feedback of allFeedback(literature, CROOKS)) {
      expect(readBullet(feedback).lacks.join('; '), feedback).not.toMatch(/quotations from the text|contractions/);
      expect(feedback).not.toMatch(/No reference to the text/);
    }
  });

  it(`counts one line of dialogue for each speech, of one to three sentences (seed ${SEED}, ${RUNS} runs)`, () => {
    const spoken = fc.array(fc.constantFrom('I am scared.', 'It is too high.', 'Wait for me!', 'Can you see it?', 'We will be late.'), {
      minLength: 1,
      maxLength: 3,
    });
    const narrative = fc.constantFrom('Tom looked down at the water.', 'His sister laughed.', 'The wind blew across the pool.');
    fc.assert(
      fc.property(fc.array(fc.tuple(narrative, spoken), { minLength: 1, maxLength: 4 }), (lines) => {
        const opening = 'It was the last day of the summer holidays, and the pool was full of children shouting and splashing.';
        const text = [opening, ...lines.map(([said, speech]) => `${said} "${speech.join(' ')}"`)].join('\n\n');
        expect(measured(story, text, 'dialogue')?.lines, text).toBe(lines.length);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('a dialogue tag after a question or an exclamation', () => {
  it('is no sentence begun in lower case: "Are you coming?" asked Mum.', () => {
    const text =
      '"Are you coming?" asked Mum. I looked up at the diving board and shook my head. Then I climbed the ladder anyway, and I jumped.';
    for (const feedback of allFeedback(story, text)) expect(feedback).not.toMatch(/starting in lower case|check capital letters/);
  });
});

describe("a story's last line", () => {
  it('"From that day on, Ben sat at the front." is a paragraph of the story, not a sign-off', () => {
    expect(measured(story, BEN, 'paragraphs')?.paragraphs).toBe(2);
    for (const feedback of allFeedback(story, BEN)) expect(feedback).not.toMatch(/one block of/);
  });

  it('"From Sam" after a letter is still its sign-off', () => {
    const letter =
      'Dear Head Teacher,\n\nI am writing to ask you to end homework for our year, because it harms our sleep.\n\nMost students work late every night. Many are tired in lessons.\n\nFrom Sam';
    expect(measured(seededModel(12), letter, 'paragraphs')?.paragraphs).toBe(2);
  });
});

describe('a story told in the past tense', () => {
  it('is a story, without dialogue or turning words', () => {
    const text =
      'Ben always hid at the back of the class and never spoke. One morning Miss Shah asked a question that nobody could answer. The room was silent. Ben raised his hand slowly and gave the answer in a whisper. Everyone turned to stare at him, and Miss Shah smiled. After the lesson he walked home with a new friend.';
    const ideas = feedbackOf(story, text, 'Ideas & content');
    expect(readBullet(ideas).lacks.join('; '), ideas).not.toMatch(/a story: events that happen to characters/);
  });
});

describe('more of the audit of the other models', () => {
  const history = seededModel(21);

  it('counts "the 1930s" as a date the answer brings', () => {
    const text =
      "Crooks lives alone because he is black, which reflects the racism of the 1930s. Curley's wife wears red, which symbolises danger. This suggests that women were treated as objects.";
    for (const feedback of allFeedback(literature, text)) expect(feedback).not.toMatch(/0 names or dates/);
  });

  it('credits a one-paragraph answer with the judgement it reaches at its end', () => {
    const text =
      'Source A is not very useful. It is only a poster and it does not tell us anything about the men. Posters are made to persuade people. A historian would need diaries or letters from soldiers to know why they joined. So it is not useful.';
    for (const feedback of allFeedback(history, text))
      expect(readBullet(feedback).lacks.join('; '), feedback).not.toMatch(/a judgement reached at the end/);
  });

  it('does not tell a short answer set out in paragraphs to give each point a paragraph of its own', () => {
    const text =
      'Source A is useful, but only partly.\n\nIt was published by the government in 1914 as propaganda, so it shows what the government wanted men to feel.\n\nIn conclusion, it is useful for the methods of recruitment.';
    for (const feedback of allFeedback(history, text)) expect(feedback).not.toMatch(/give each main point a paragraph of its own/);
  });

  it('does not say a story without dialogue is told "through events and speech"', () => {
    const text =
      'Ben always hid at the back of the class and never spoke. One morning Miss Shah asked a question that nobody could answer. The room was silent. Ben raised his hand slowly and gave the answer in a whisper. From that moment everything changed, and Miss Shah smiled. After the lesson he walked home with a new friend.';
    for (const feedback of allFeedback(story, text)) expect(feedback).not.toMatch(/events and speech \(0 lines/);
  });
});

describe('an essay on a text takes its position through what the author does', () => {
  const ESSAY = [
    'Steinbeck shows that loneliness destroys the men who work on the ranch, because none of them can trust anyone.',
    'Crooks says "A guy needs somebody" which shows that even the strongest man breaks when he is alone.',
    'In conclusion, Steinbeck suggests that loneliness is the price of the American Dream.',
  ].join('\n\n');

  it('reads "Steinbeck shows that …" as a position stated, and says so', () => {
    expect(measured(literature, ESSAY, 'position')).toMatchObject({ stated: true, early: true });
    const feedback = feedbackOf(literature, ESSAY, 'Interpretation & argument');
    expect(readBullet(feedback).lacks.join('; '), feedback).not.toMatch(/\ba position\b/);
  });

  it(`never reads "This shows that" or "The source shows that" as one (seed ${SEED})`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom('This', 'It', 'The source', 'The poster', 'He', 'That', 'Source A', 'The evidence'),
        fc.constantFrom('shows', 'suggests', 'reveals', 'implies'),
        (subject, verb) => {
          const text = `${subject} ${verb} that the men were lonely on the ranch in the story.`;
          expect(measured(literature, text, 'position')?.stated, text).not.toBe(true);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
