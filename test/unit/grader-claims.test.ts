// One judgement per criterion (issue 25): the level named, the score and the Shows/Lacks lines come
// from the same evidence, so the feedback never both asserts and denies a feature. The feedback is
// read back with the feature vocabulary (src/sandbox/engines/grading/feature-vocabulary.json), over
// generated answers and rubrics (fast-check, seeded, shrinking) and over every real answer against
// every rubric the sandbox knows. KCT_PROPERTY_RUNS raises the number of generated cases
// (KCT_PROPERTY_SEED changes the seed); a failure prints its seed and the shrunk case.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, type GradeRubric, grade, verdicts } from '../../packages/sandbox/src/engines/grader.js';
import { type Clause, disagreements, FEATURE_IDS, implied, readClaims } from '../../packages/sandbox/src/engines/grading/claims.js';
import VOCABULARY from '../../packages/sandbox/src/engines/grading/feature-vocabulary.json' with { type: 'json' };
import { bands } from '../../packages/sandbox/src/engines/grading/levels.js';
import { examplesModel, labelledAnswers, type Marking, realAnswers, SEEDED } from './grader-helpers.js';

const SEED = Number(process.env.KCT_PROPERTY_SEED ?? 25025);
const RUNS = Number(process.env.KCT_PROPERTY_RUNS ?? 60);

const show = (clauses: Clause[]) => clauses.map((c) => c.map((x) => `${x.holds ? '' : 'no '}${x.feature}`).join(' or ')).join('; ');

// ---------- reading feedback back ----------

interface Read {
  clauses: Clause[];
  shows: string[];
  lacks: string[];
  proof?: { kind: 'shows' | 'lacks'; finding: string };
  quote?: string;
}

/** A criterion's Bullet feedback read as claims: the level reached, the caveat, each Shows and Lacks line. */
function readBullet(feedback: string): Read {
  const lines = feedback.split('\n').map((l) => l.replace(/^- /, ''));
  const out: Read = { clauses: [], shows: [], lacks: [] };
  const level = /: reaches level [\d.]+ \(“(.+)”\)\.$/.exec(lines[0]);
  if (level) out.clauses.push(...readClaims(level[1]));
  for (const line of lines.slice(1)) {
    if (line.startsWith('Shows: ')) out.shows = line.slice(7).replace(/\.$/, '').split('; ');
    else if (line.startsWith('Lacks: ')) out.lacks = line.slice(7).replace(/\.$/, '').split('; ');
    else if (line.startsWith('From the answer: ')) {
      const m = /^From the answer: “(.+)” \((shows|lacks) (.+)\)\.$/.exec(line);
      expect(m, line).not.toBeNull();
      out.quote = m![1];
      out.proof = { kind: m![2] as 'shows' | 'lacks', finding: m![3] };
    } else if (!line.startsWith('Next step') && !line.startsWith('Earlier feedback')) out.clauses.push(...readClaims(line));
  }
  for (const s of out.shows) out.clauses.push(...readClaims(s, 'states'));
  for (const l of out.lacks) out.clauses.push(...readClaims(l, 'lacks'));
  return out;
}

/** Every check of one marking: no feature both asserted and denied; the quote proves a line; the score sits in the level named. */
function checkMarking(input: GradeInput, label: string, flawed: string[] = []): void {
  const out = grade({ ...input, style: 'Bullet' });
  const vs = verdicts(input);
  out.evaluation.forEach((e, i) => {
    const where = `${label}, “${e.item}”:\n${e.feedback}`;
    const read = readBullet(e.feedback);
    expect(disagreements(read.clauses), `${where}\nclaims: ${show(read.clauses)}`).toEqual([]);
    if (read.proof) expect(read.proof.kind === 'shows' ? read.shows : read.lacks, where).toContain(read.proof.finding);
    const v = vs[i];
    const band = bands(input.rubrics[i].levels, v.max).find(
      (b) => b.level === v.level || (b.level.score === v.level.score && b.level.descriptor === v.level.descriptor),
    )!;
    expect(v.score, where).toBeGreaterThanOrEqual(band.low);
    expect(v.score, where).toBeLessThanOrEqual(band.high);
    // A quote offered as proof of the writing itself holds none of the slips put in the answer, nor scanning noise.
    if (read.quote) expect(read.quote, where).not.toMatch(/(?:^|\s)\|(?:\s|$)/);
    const proves = v.strengths.find((s) => s.text === v.quote?.finding)?.id;
    if (read.quote && proves && ['vocabulary', 'accuracy', 'register', 'variety'].includes(proves)) {
      for (const slip of flawed) expect(read.quote, where).not.toContain(slip);
    }
  });
}

// ---------- generated answers and rubrics ----------

const SENTENCES = {
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
  ],
};
const FLAWED = SENTENCES.slips.flatMap((s) => s.split(' ').filter((w) => /alot|diffrent|realy|thats|kinda|tbh/i.test(w)));

const sentence = fc.constantFrom(...Object.values(SENTENCES).flat());
/** Paragraphs of sentences; a scanned answer's line breaks split words with a hyphen now and then. */
const answer = fc
  .record({
    paragraphs: fc.array(fc.array(sentence, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 6 }),
    broken: fc.boolean(),
  })
  .map(({ paragraphs, broken }) => {
    const text = paragraphs.map((p) => p.join(' ')).join('\n\n');
    return broken ? text.replace(/\b(every|afford|students)\b/g, (w) => `${w.slice(0, 3)}-\n${w.slice(3)}`) : text;
  });

const features = VOCABULARY.features as {
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
const rubric = fc
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

const KNOWN = [...SEEDED, examplesModel()];
const input = (m: Marking, answerText: string): GradeInput => ({ ...m, answerText, style: 'Bullet' });

describe('the feature vocabulary', () => {
  it('reads each of its phrases as the feature it names, on the side it is listed', () => {
    for (const f of features) {
      for (const p of f.asserts) expect(readClaims(p).flat(), `${f.id}: "${p}"`).toContainEqual({ feature: f.id, holds: true });
      for (const p of f.denies) expect(readClaims(p).flat(), `${f.id}: "${p}"`).toContainEqual({ feature: f.id, holds: false });
      for (const p of f.near?.denies ?? []) {
        expect(readClaims(p).flat(), `"${p}" alone`).not.toContainEqual({ feature: f.id, holds: false });
        expect(readClaims(`the ${f.near!.subject[0]} is ${p}`).flat(), `${f.id}: "${p}"`).toContainEqual({ feature: f.id, holds: false });
      }
    }
  });

  it('names only features it lists, and no feature implies itself through others', () => {
    for (const f of features as { id: string; implies?: string[] }[]) {
      for (const g of f.implies ?? []) expect(FEATURE_IDS).toContain(g);
      expect(implied(f.id).filter((g) => g === f.id)).toHaveLength(1);
    }
  });
});

describe('reading a level descriptor or a line', () => {
  it.each([
    [
      'Precise, arguable thesis in the opening; the position is sustained and sharpened in the conclusion.',
      'position_precise; position_early; position_held; conclusion',
    ],
    [
      'A position is given but is vague, late, or only implied in places.',
      'position; no position_precise or no position_early or no position_precise or no position_precise',
    ],
    ['No identifiable position on uniforms.', 'no position'],
    [
      'Relevant evidence with some explanation; the counter-argument is mentioned but only partly answered.',
      'evidence; counter; no counter_developed',
    ],
    ['Evidence is thin, general, or left unexplained; no real counter-argument.', 'no evidence_sufficient or no explained; no counter'],
    ['Clear structure with occasional weak links between paragraphs.', 'structure'],
    ['Vague prediction.', ''],
  ])('%s', (text, claims) => {
    expect(show(readClaims(text))).toBe(claims);
  });

  it('reads a Lacks line as denying what it names, and a phrase inside a longer one only as the longer one', () => {
    expect(show(readClaims('a developed reply to the opposing view', 'lacks'))).toBe('no counter_developed');
    expect(show(readClaims('the strongest opposing argument, and a reply to it', 'lacks'))).toBe('no counter; no counter_answered');
    expect(show(readClaims('enough explanation: points are asserted more than explained', 'lacks'))).toBe('no explained');
  });

  it('finds the contradictions of the issue in the feedback it was shown', () => {
    const vague = readClaims('A position is given but is vague, late, or only implied in places.');
    expect(disagreements([...vague, ...readClaims('a precise position stated in the opening and held to the conclusion')])).not.toEqual([]);
    const partly = readClaims('Relevant evidence with some explanation; the counter-argument is mentioned but only partly answered.');
    expect(disagreements([...partly, ...readClaims('an opposing view, stated fairly and answered at length')])).not.toEqual([]);
    expect(
      disagreements([...readClaims('No identifiable position on uniforms.'), ...readClaims('a position stated in the opening')]),
    ).not.toEqual([]);
    expect(disagreements([...vague, ...readClaims('a position stated in the opening')])).toEqual([]);
  });
});

describe('one judgement per criterion', () => {
  it(`holds for generated answers against every known rubric and a generated one (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(answer, rubric, (text, generated) => {
        for (const m of [generated, ...KNOWN]) checkMarking(input(m, text), `${m.name}`, FLAWED);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('holds for every real answer against every known rubric and ten generated ones', () => {
    const generated = fc.sample(rubric, { seed: SEED, numRuns: 10 });
    for (const a of [...labelledAnswers(), ...realAnswers()]) {
      for (const m of [...KNOWN, ...generated]) checkMarking(input(m, a.text), `${a.name} against ${m.name}`);
    }
  });
});
