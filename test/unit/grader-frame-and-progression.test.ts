// Feedback on an answer's shape that an audit found untrue, one case each, with the property behind
// it (fast-check, seeded, shrinking): 1. new points that name the question's topic are not
// "restating earlier points"; 2. a one-paragraph answer ending "In conclusion, ..." has a
// conclusion; 3. a question on a line of its own above the answer is its title, not its opening.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import type { Measured } from '../../packages/sandbox/src/engines/grading/signals.js';
import { RUNS, SEED } from './grader-arbitraries.js';
import { seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const model12 = seededModel(12);
const input = (text: string): GradeInput => ({ ...model12, answerText: text, style: 'Bullet' });
const feedbackOf = (text: string, item: string) => grade(input(text)).evaluation.find((e) => e.item === item)!.feedback;
function measured<Id extends Measured['id']>(text: string, id: Id): Extract<Measured, { id: Id }> {
  for (const j of judgements(input(text)))
    for (const p of j.points) if (p.measured.id === id) return p.measured as Extract<Measured, { id: Id }>;
  throw new Error(`nothing measured as ${id}`);
}

// ---------- 1. new points are not restatements ----------

const NEW_POINTS =
  'In my opinion, every student at our school should wear a uniform, because it is fair.\n\nA uniform also protects students from pressure. A uniform removes that target in school.\n\nIn conclusion, the board should require a uniform.';

/** Points about uniforms, each in words of its own: the question's words (uniform, student, school) are all they share. */
const POINTS = [
  'A uniform protects students from pressure about brands.',
  'Every uniform removes an easy target for bullies in school.',
  'Students in uniform save time each morning before lessons.',
  'A school uniform costs families less than fashionable clothes.',
  'Wearing a uniform prepares students for workplace dress codes.',
  'Visitors recognise pupils of our school on trips by their uniform.',
  'Teachers notice fewer arguments about clothing when students wear uniform.',
];

describe('a new point is not a restatement because it names the topic', () => {
  it('counts no sentence of "A uniform also protects students… A uniform removes that target in school." as restating', () => {
    expect(measured(NEW_POINTS, 'progression').restated).toBe(0);
    expect(feedbackOf(NEW_POINTS, 'Organisation')).not.toMatch(/restating earlier points/);
  });

  it(`counts none in any order of points that share only the question's words, and still counts a point said twice (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(POINTS, { minLength: 3 }), fc.nat(), (points, at) => {
        const text = `I believe students should wear a uniform, because it is fair.\n\n${points.join(' ')}\n\nIn conclusion, the uniform should stay.`;
        expect(measured(text, 'progression').restated, text).toBe(0);
        const again = points[at % points.length];
        const repeated = `I believe students should wear a uniform, because it is fair.\n\n${points.join(' ')} ${again}\n\nIn conclusion, the uniform should stay.`;
        expect(measured(repeated, 'progression').restated, repeated).toBeGreaterThanOrEqual(1);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 2. a one-paragraph answer's conclusion ----------

const ONE_PARAGRAPH =
  'I think our school should keep its uniform, because it saves time every morning. Students do not have to choose an outfit. Critics argue that uniforms are dull. However, a dull jumper is a small price for an easier morning. In conclusion, the uniform should stay.';

const BODY = [
  'Students do not have to choose an outfit.',
  'A uniform costs less than branded clothes.',
  'Critics argue that uniforms are dull.',
  'However, a dull jumper is a small price for an easier morning.',
  'Teachers spend less time on dress rules.',
];
const ENDINGS = [
  'In conclusion, the uniform should stay.',
  'Overall, the board should keep the uniform.',
  'To sum up, uniforms help our school.',
];

describe('a one-paragraph answer that ends with its conclusion has one', () => {
  it('does not say "lacks … a conclusion" of an answer ending "In conclusion, the uniform should stay."', () => {
    expect(measured(ONE_PARAGRAPH, 'frame').closes).toBe(true);
    const organisation = feedbackOf(ONE_PARAGRAPH, 'Organisation');
    for (const lack of readBullet(organisation).lacks)
      expect(lack, organisation).not.toMatch(/^(?:an opening paragraph and )?a conclusion/);
    expect(organisation).toMatch(/Shows:[^\n]*a conclusion at its end/);
  });

  it(`finds the conclusion of any one-paragraph answer that ends with one, and none where it has none (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(BODY, { minLength: 2 }), fc.constantFrom(...ENDINGS), (body, ending) => {
        const opening = 'I think our school should keep its uniform, because it saves time every morning.';
        expect(measured([opening, ...body, ending].join(' '), 'frame').closes).toBe(true);
        expect(measured([opening, ...body].join(' '), 'frame').closes).toBe(false);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 3. a question as the answer's title ----------

const TITLED =
  'Should students wear uniforms?\n\nI believe they should, because a uniform makes every student equal.\n\nCritics argue that uniforms are expensive. However, second-hand uniforms are cheap.\n\nIn conclusion, uniforms should stay.';

describe('a question on a line of its own above the answer is its title', () => {
  it('reads the position of the paragraph under "Should students wear uniforms?" as stated, with its reason, in the opening', () => {
    const thesis = feedbackOf(TITLED, 'Thesis & position');
    expect(thesis).not.toMatch(/stated after the opening/);
    expect(readBullet(thesis).lacks, thesis).not.toContain('a precise position, with its reasons, in the opening');
  });

  it('reads the same position whatever title question stands above it, and none when the question is the whole answer', () => {
    for (const title of ['Should students wear uniforms?', 'Should Schools Require Uniforms?', 'Are uniforms fair?']) {
      const thesis = feedbackOf(TITLED.replace('Should students wear uniforms?', title), 'Thesis & position');
      expect(thesis, title).not.toMatch(/stated after the opening/);
    }
    // a question answered in the same paragraph is the answer's opening, not a title
    const opening = 'Should students wear uniforms? I believe they should, because a uniform makes every student equal.';
    expect(feedbackOf(`${opening}\n\nIn conclusion, uniforms should stay.`, 'Thesis & position')).not.toMatch(/stated after the opening/);
  });
});

// ---------- 4. one source a sentence ----------

const SURVEY =
  "I believe our school should keep its uniform, because it is fair.\n\nA survey by the Children's Society found that uniforms reduce bullying.\n\nIn conclusion, the uniform should stay.";
const SOURCES = [
  "A survey by the Children's Society found that uniforms reduce bullying.",
  'According to a report by researchers at the University of Nottingham, experts found that uniforms save time.',
  'Research shows that a study of 200 schools reported that uniforms cut costs.',
  // named by its date: "a poll of parents" alone names no source
  'Statistics from a 2022 poll of parents estimated that uniforms cost less.',
];

describe('a source is counted once however its sentence names it', () => {
  it('counts "A survey by the Children\'s Society found that…" as 1 source, not "2 named sources"', () => {
    expect(measured(SURVEY, 'evidence').sources).toBe(1);
    const evidence = feedbackOf(SURVEY, 'Evidence & reasoning');
    expect(evidence).not.toMatch(/named source/);
    expect(evidence).toMatch(/1 source\b/);
  });

  it(`counts one source for each sentence that cites one (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(SOURCES, { minLength: 1 }), (cited) => {
        const text = `I believe our school should keep its uniform, because it is fair.\n\n${cited.join(' ')}\n\nIn conclusion, the uniform should stay.`;
        expect(measured(text, 'evidence').sources, text).toBe(cited.length);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('"Finally, …" brings a last point unless it concludes', () => {
  const BODY =
    'I believe our school should keep its uniform because it is fair to everyone.\n\nUniforms save families money. A blazer costs less than the latest trainers.\n\nUniforms also stop arguments about clothes in the morning.';

  it('does not take "Finally, a uniform builds a sense of belonging." for a conclusion', () => {
    const text = `${BODY}\n\nFinally, a uniform builds a sense of belonging. When we play other schools at football, everyone knows which team is ours.`;
    expect(measured(text, 'frame').closes).toBe(false);
    expect(feedbackOf(text, 'Organisation')).not.toMatch(/Shows:[^\n]*a conclusion in its last paragraph/);
  });

  it(`still finds a last paragraph that begins "Finally," and restates the position (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom('uniforms should stay at our school', 'I believe the uniform is a good idea', 'the board should keep the uniform'),
        (restated) => {
          const text = `${BODY}\n\nFinally, ${restated}, because it helps every student.`;
          expect(measured(text, 'frame').closes, text).toBe(true);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('figures written in words', () => {
  it('counts "forty pounds" and "seven hours a day" as two figures', () => {
    const text =
      'I think uniforms are a bad idea because they cost too much. Blazers can cost over forty pounds each. Students also spend seven hours a day in school, so comfort matters.';
    const evidence = judgements(input(text))
      .flatMap((j) => j.points)
      .map((p) => p.measured)
      .find((m) => m.id === 'evidence') as Extract<Measured, { id: 'evidence' }>;
    expect(evidence.figures).toBe(2);
  });
});

describe('an answer held down as too short is told the length, not "every point is met"', () => {
  it('names the words asked for in the next step of a criterion whose points are all met', () => {
    const text =
      'I believe our school should keep its uniform, because it is fair to every family.\n\nA uniform costs less than the latest fashions, and it stops arguments about clothes in the morning.\n\nIn conclusion, the board should keep the uniform.';
    const all = grade(input(text)).evaluation.map((e) => e.feedback);
    for (const feedback of all) expect(feedback).not.toMatch(/every point this grader measures is met/);
    expect(all.some((feedback) => /develop the answer to the 400 to 600 words the task asks for \(it has \d+\)/.test(feedback))).toBe(true);
  });
});
