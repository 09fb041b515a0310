// A teacher's walkthrough, round 2: feedback untrue of the answer, one case each, with its property
// (fast-check, seeded; KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in docs/testing.md):
// 2. a word a scan split ("stu dents", "re-\nquire") is the scan's, not a slip, and quoted joined (text.ts);
// 4. a reason that restates the claim ("good because they are good") is no reason (position.ts);
// 5. Lacks names only what the task asks for: no comment on methods for an argument, nor for a lab
//    report's "Method" (criterion.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, type GradeRubric, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { inWordList, isWord } from '../../packages/sandbox/src/engines/grading/spelling.js';
import { answer, RUNS, SEED } from './grader-arbitraries.js';
import { type Marking, seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const model12 = seededModel(12);
const input = (m: Marking, answerText: string): GradeInput => ({ ...m, answerText, style: 'Bullet' });
const slipsOf = (m: Marking, text: string) =>
  judgements(input(m, text))
    .flatMap((j) => j.points)
    .find((p) => p.measured.id === 'accuracy')?.measured;
/** What marking an answer comes to: each criterion's score and feedback. */
const marked = (m: Marking, text: string) => grade(input(m, text)).evaluation.map((e) => [e.score, e.feedback]);
const SPELLING: Marking = { ...model12, rubrics: [{ item: 'Spelling, punctuation and grammar', max_score: 6 }], totalScore: 6 };

// ---------- 2. a word a scan split ----------

const SCANNED = `Should stu dents wear a uniform? I think they should, because a uniform makes every student equal and the rules re-
quire nothing that costs much. My con clusion is that uniforms should stay.`;
const TYPED = `Should students wear a uniform? I think they should, because a uniform makes every student equal and the rules require nothing that costs much. My conclusion is that uniforms should stay.`;

/** Places to split a listed word of six letters or more, outside quotations, into halves of two letters or more that are not both words. */
function splits(text: string): { index: number; at: number }[] {
  const quoted = [...text.matchAll(/["“][^"”\n]*["”]/g)].map((m) => [m.index, m.index + m[0].length]);
  const out: { index: number; at: number }[] = [];
  for (const m of text.matchAll(/(?<![\p{L}\p{N}'’-])\p{Ll}{6,}(?![\p{L}\p{N}'’-])/gu)) {
    if (quoted.some(([a, b]) => m.index >= a && m.index < b) || !inWordList(m[0])) continue;
    for (let at = 2; at <= m[0].length - 2; at++)
      if (!(isWord(m[0].slice(0, at)) && isWord(m[0].slice(at)))) out.push({ index: m.index, at });
  }
  return out;
}

describe('a word a scan split is the scan’s, not the student’s', () => {
  it('counts no slip for “stu dents”, “con clusion” or “re-\\nquire”, and quotes them joined', () => {
    expect(marked(SPELLING, SCANNED)).toEqual(marked(SPELLING, TYPED));
    const slips = slipsOf(SPELLING, SCANNED);
    expect(slips?.id === 'accuracy' && slips.misspelt).toEqual([]);
    for (const e of grade(input(model12, SCANNED)).evaluation) expect(e.feedback).not.toMatch(/stu dents|con clusion|re-quire|“stu”/);
    // two words apart stay two: "some one" is not the scan's
    expect(marked(SPELLING, TYPED.replace('nothing', 'some one'))).not.toEqual(marked(SPELLING, TYPED.replace('nothing', 'someone')));
  });

  it(`marks an answer the same whatever words a scan split, with a space, a line end or a hyphen at one (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(answer, fc.nat(), fc.constantFrom(' ', '\n', '-\n', ' \n'), fc.constantFrom(model12, SPELLING), (text, pick, gap, m) => {
        const places = splits(text);
        fc.pre(places.length > 0);
        const { index, at } = places[pick % places.length];
        const broken = `${text.slice(0, index + at)}${gap}${text.slice(index + at)}`;
        expect(marked(m, broken), broken).toEqual(marked(m, text));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 4. a reason that restates the claim ----------

const CLAIMS = ['Uniforms are good', 'School uniforms are unfair', 'Uniforms should be compulsory', 'Uniforms should not be compulsory'];
/** A reason that says the claim again: its own words, or "they" for its subject. */
const circular = (claim: string) => [
  claim.replace(/^(?:school )?uniforms/i, 'they'),
  claim.replace(/^(?:school )?uniforms/i, 'they really'),
  claim.charAt(0).toLowerCase() + claim.slice(1),
];
const REASONS = ['they save families money', 'nobody is judged on their clothes', 'they are itchy and uncomfortable', 'they cost too much'];
const BODY =
  'A blazer costs £40 at the only shop in town.\n\nSome parents say uniforms are too expensive. However, the school could run a second-hand shop.\n\nIn conclusion, uniforms should stay.';
const precision = (text: string) =>
  judgements(input(model12, text))
    .flatMap((j) => j.points)
    .find((p) => p.measured.id === 'precision')?.measured;

describe('a reason that restates the claim is no reason', () => {
  it('does not credit “Uniforms are good because they are good.” as a precise position with a reason', () => {
    const text = `Uniforms are good because they are good.\n\n${BODY}`;
    expect(precision(text)).toEqual({ id: 'precision', early: true, precise: false });
    const thesis = readBullet(grade(input(model12, text)).evaluation[0].feedback);
    expect(thesis.shows.join('; ')).not.toMatch(/precise position/);
    expect(precision(`Uniforms are good because they save families money.\n\n${BODY}`)).toMatchObject({ precise: true });
  });

  it(`credits a reason given in the sentence or the next exactly when it says something the claim does not (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CLAIMS),
        fc.boolean(),
        fc.nat(),
        fc.constantFrom('because', 'since', 'next'),
        (claim, restated, pick, how) => {
          // a reason in the next sentence is read when it speaks of the claim's subject ("They …")
          const choices = restated ? circular(claim) : REASONS.filter((r) => how !== 'next' || r.startsWith('they'));
          const reason = choices[pick % choices.length];
          const opening = how === 'next' ? `${claim}. ${reason.charAt(0).toUpperCase()}${reason.slice(1)}.` : `${claim} ${how} ${reason}.`;
          const measured = precision(`${opening}\n\n${BODY}`);
          expect(measured?.id === 'precision' && measured.precise, opening).toBe(!restated);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 5. Lacks names only what the task asks for ----------

const LETTER = `Dear Headteacher,

Mobile phones should not be banned at our school because they help us learn.

Many students use their phones to check homework. For example, my friend Sam uses a dictionary app every day. This shows that phones can be a tool for learning.

In conclusion, phones should not be banned because they help us learn.

Yours sincerely,
Alex`;
const METHODS = /\bmethods?\b|analytic words|a word choice, the setting/;
const argument = (questionText: string, description?: string): Marking => ({
  name: `Argument on “${questionText}”`,
  questionText,
  rubrics: [{ item: 'Argument', max_score: 6, ...(description ? { description } : {}) } as GradeRubric],
  cumMethod: 'sum',
  totalScore: 6,
});

describe('Lacks names only what the task asks for', () => {
  it('does not ask a letter on phones for comment on the methods used and their effect', () => {
    const read = readBullet(
      grade(input(argument('Should mobile phones be banned at school?', 'Argument.'), LETTER)).evaluation[0].feedback,
    );
    expect(read.lacks.join('; ')).not.toMatch(METHODS);
    expect(read.step).not.toMatch(METHODS);
  });

  it('marks a lab report’s “Method” as a section of the report, not as methods to analyse (model 14)', () => {
    const report = `Method\nI placed a piece of Elodea in a test tube of water. I put a lamp at 10 cm, 20 cm, 30 cm and 40 cm from the tube and counted the bubbles in one minute. I kept the temperature the same and repeated each distance three times.\n\nConclusion\nThe results show that the closer the lamp, the more bubbles were produced.`;
    const method = grade(input(seededModel(14), report)).evaluation.find((e) => e.item === 'Method')!;
    expect(method.feedback.replace(/“[^”]*”/g, '“”')).not.toMatch(METHODS);
    expect(method.feedback).not.toMatch(/quotations from the text/);
  });

  it(`never asks for comment on methods where neither the task nor the criterion is about a text or a source (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        answer,
        fc.constantFrom(
          'Should mobile phones be banned at school?',
          'Write about something that matters to you.',
          'Is homework worth it? Give your view.',
          seededModel(14).questionText ?? '',
        ),
        fc.constantFrom('Argument', 'Thesis & position', 'Position', 'Point of view', 'Method', 'Methods and techniques'),
        fc.constantFrom(undefined, 'Argument.', 'A clear position, argued with reasons.'),
        (text, question, item, description) => {
          const m = { ...argument(question, description), rubrics: [{ item, max_score: 6, ...(description ? { description } : {}) }] };
          for (const j of judgements(input(m, text)))
            expect(
              j.points.map((p) => p.id),
              `${question} / ${item}`,
            ).not.toContain('analysis');
          for (const e of grade(input(m, text)).evaluation) expect(e.feedback.replace(/“[^”]*”/g, '“”'), text).not.toMatch(METHODS);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
