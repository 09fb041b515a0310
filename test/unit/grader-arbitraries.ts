// Generated answers and rubrics for the grader's properties (fast-check): answers made of sentences
// of every kind the grader measures (positions, opposing views and replies, support, slips,
// analysis, stories...), rubrics of criteria of every focus with level descriptors made of the
// feature vocabulary's phrases. Shared by grader-claims.test.ts and grader-judgement.test.ts.
import fc from 'fast-check';
import type { GradeRubric } from '../../packages/sandbox/src/engines/grader.js';
import VOCABULARY from '../../packages/sandbox/src/engines/grading/feature-vocabulary.json' with { type: 'json' };
import { examplesModel, type Marking, SEEDED } from './grader-helpers.js';

export const SEED = Number(process.env.KCT_PROPERTY_SEED ?? 25025);
export const RUNS = Number(process.env.KCT_PROPERTY_RUNS ?? 60);

export const SENTENCES = {
  position: [
    'I believe schools should ban homework for students under sixteen because it harms sleep and family life.',
    'school uniforms should not be compulsory because they cost alot and nobody likes wearing them.',
    'Yes, | think they should, because uniforms make every student equal.',
    'In my opinion homework is pointless.',
    'Steinbeck presents Crooks as the loneliest man on the ranch, because of racism.',
    'Source A is useful to a historian, but only up to a point.',
  ],
  counter: [
    'Some teachers say homework builds discipline.',
    'Critics argue that uniforms limit self-expression.',
    'Some people might say the poster only shows what the government wanted.',
  ],
  reply: [
    'However, discipline can be taught during the school day, in longer study periods where a teacher can help every student who is stuck.',
    'Still, this ignores the cost to families.',
    'I understand this worry.',
    'However, these benefits do not need homework.',
  ],
  evidence: [
    'A 2019 survey at my school found that 64% of students felt less judged.',
    "For example, my cousin's school dropped homework in 2021.",
    'According to researchers at Ohio State University, grades did not change.',
    'As our headteacher said, "a classroom is a place for ideas, not a fashion show."',
  ],
  explanation: [
    'This shows that the rule makes a real difference.',
    'This means students sleep longer and learn more.',
    'As a result, lessons go better.',
  ],
  slips: ['Alot of people have diffrent opinions about this.', 'i think its realy unfair and thats that.', "It's kinda annoying tbh!!"],
  analysis: [
    'The metaphor conveys a sense of loss, and the repetition emphasises how trapped he feels.',
    'The setting suggests isolation.',
  ],
  source: ['The poster was made by the government as propaganda in 1914, so its purpose limits what it can show.'],
  story: ['She opened the door and gasped.', '"Where are you going?" asked Tom.', 'For the first time, she realised she was not afraid.'],
  conclusion: [
    'In conclusion, homework should be banned for students under sixteen.',
    'Overall, uniforms should stay, because they are fair.',
  ],
  other: [
    'The weather was nice yesterday.',
    'Homework takes hours every night.',
    'Uniforms look smart.',
    'There are many things to say about it.',
    'This year our student council asked whether uniforms should stay compulsory.',
    'Therefore, families would save money every single term.',
    'Furthermore, teachers would spend less time checking what students wear.',
  ],
};
export const FLAWED = SENTENCES.slips.flatMap((s) => s.split(' ').filter((w) => /alot|diffrent|realy|thats|kinda|tbh/i.test(w)));

const sentence = fc.constantFrom(...Object.values(SENTENCES).flat());
/** Paragraphs of sentences; a scanned answer's line breaks split words with a hyphen now and then. */
export const answer = fc
  .record({
    paragraphs: fc.array(fc.array(sentence, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }),
    broken: fc.boolean(),
  })
  .map(({ paragraphs, broken }) => {
    const text = paragraphs.map((p) => p.join(' ')).join('\n\n');
    return broken ? text.replace(/\b(every|afford|students)\b/g, (w) => `${w.slice(0, 3)}-\n${w.slice(3)}`) : text;
  });

export const features = VOCABULARY.features as {
  id: string;
  asserts: string[];
  denies: string[];
  near?: { subject: string[]; denies: string[] };
}[];
/** A piece of a level descriptor: a phrase of the vocabulary (either side), a neutral one, or words that claim nothing. */
const bit = fc.oneof(
  fc.constantFrom(...features.flatMap((f) => [...f.asserts, ...f.denies])),
  fc.constantFrom(...features.flatMap((f) => (f.near?.denies ?? []).map((d) => `the ${f.near!.subject[0]} is ${d}`))),
  fc.constantFrom(...VOCABULARY.neutral),
  fc.constantFrom('in most places', 'with some flair', 'shows understanding', 'original and compelling', 'uneven pacing'),
);
const descriptor = fc
  .tuple(fc.array(bit, { minLength: 1, maxLength: 3 }), fc.constantFrom('; ', ', ', ', or ', ' and ', ' but ', ' or '))
  .map(([bits, joiner]) => {
    const s = bits.join(joiner);
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  });
const criterion = fc
  .record({
    item: fc.constantFrom(
      'Thesis & position',
      'Evidence & reasoning',
      'Organisation',
      'Language & conventions',
      'Analysis of method',
      'Context',
      'Provenance',
      'Judgement',
      'Ideas & content',
      'Voice & style',
      'Overall quality',
      'Spelling, punctuation and grammar',
    ),
    max: fc.constantFrom(4, 5, 6, 8, 10),
    levels: fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), descriptor), { maxLength: 5 }),
  })
  .map(
    ({ item, max, levels }): GradeRubric => ({
      item,
      max_score: max,
      ...(levels.length > 0 ? { levels: levels.map(([s, d]) => ({ score: Math.min(max, s / 2), descriptor: d })) } : {}),
    }),
  );
const QUESTIONS = [
  ...SEEDED.map((m) => m.questionText ?? ''),
  examplesModel().questionText ?? '',
  'Write about something that matters to you.',
];
export const rubric = fc
  .record({
    rubrics: fc.uniqueArray(criterion, { minLength: 1, maxLength: 5, selector: (c) => c.item }),
    questionText: fc.constantFrom(...QUESTIONS),
  })
  .map(
    ({ rubrics, questionText }): Marking => ({
      name: 'a generated rubric',
      questionText,
      rubrics,
      cumMethod: 'sum',
      totalScore: rubrics.reduce((n, r) => n + r.max_score, 0),
    }),
  );

/** Every rubric the sandbox knows: the seeded models' and the README's examples model. */
export const KNOWN: Marking[] = [...SEEDED, examplesModel()];
