// One judgement per criterion (issues 25 and 35): the level's descriptor, the caveat and the
// Shows/Lacks lines never both assert and deny a feature, and the next step names nothing the
// answer shows. The feedback is read back with the feature vocabulary
// (packages/sandbox/src/engines/grading/feature-vocabulary.json), over generated answers and
// rubrics (fast-check, seeded, shrinking) and over every real answer against every rubric the
// sandbox knows. KCT_PROPERTY_RUNS raises the number of generated cases (KCT_PROPERTY_SEED changes
// the seed); a failure prints its seed and the shrunk case.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { type Clause, disagreements, FEATURE_IDS, implied, readClaims } from '../../packages/sandbox/src/engines/grading/claims.js';
import { shows } from '../../packages/sandbox/src/engines/grading/phrases.js';
import { answer, FLAWED, features, KNOWN, RUNS, rubric, SEED } from './grader-arbitraries.js';
import { labelledAnswers, type Marking, realAnswers } from './grader-helpers.js';
import { claimsOf, readBullet } from './grader-reading.js';

const show = (clauses: Clause[]) => clauses.map((c) => c.map((x) => `${x.holds ? '' : 'no '}${x.feature}`).join(' or ')).join('; ');

/** Every check of one marking: no feature both asserted and denied, nor shown and advised; the quote proves a line; a quote offered for the writing holds no slip. */
function checkMarking(input: GradeInput, label: string, flawed: string[] = []): void {
  const out = grade({ ...input, style: 'Bullet' });
  const js = judgements(input);
  out.evaluation.forEach((e, i) => {
    const where = `${label}, “${e.item}”:\n${e.feedback}`;
    const read = readBullet(e.feedback);
    const clauses = claimsOf(read);
    expect(disagreements(clauses), `${where}\nclaims: ${show(clauses)}`).toEqual([]);
    // The next step read as what the answer lacks: it never names a point the answer shows.
    const shown = read.shows.flatMap((s) => readClaims(s, 'states'));
    const advised = readClaims(read.step, 'lacks');
    expect(disagreements([...shown, ...advised]), `${where}\nshown: ${show(shown)}; advised: ${show(advised)}`).toEqual([]);
    if (read.proof?.kind === 'lacks') expect(read.lacks, where).toContain(read.proof.finding);
    // offered for a point shown: its Shows line, or the part of it the quotation shows, which claims nothing the line does not
    const j = js[i];
    if (read.proof?.kind === 'shows') {
      const line = shows(j.shows.find((p) => p.id === j.quote?.point)!.measured);
      expect(read.shows, where).toContain(line);
      const whole = new Set(readClaims(line, 'states').map((c) => show([c])));
      for (const c of readClaims(read.proof.finding, 'states')) expect(whole, `${where}\n${show([c])}`).toContain(show([c]));
    }
    // A quote offered as proof of the writing itself holds none of the slips put in the answer, nor scanning noise.
    if (read.quote) expect(read.quote, where).not.toMatch(/(?:^|\s)\|(?:\s|$)/);
    if (read.quote && j.quote && !j.quote.problem && ['vocabulary', 'accuracy', 'register', 'variety'].includes(j.quote.point)) {
      for (const slip of flawed) expect(read.quote, where).not.toContain(slip);
    }
  });
}

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
      'evidence; explained_any; counter; no counter_developed',
    ],
    ['Evidence is thin, general, or left unexplained; no real counter-argument.', 'no evidence_sufficient or no explained; no counter'],
    ['Clear structure with occasional weak links between paragraphs.', 'structure'],
    ['Vague prediction.', ''],
    // a judgement level that says it is unsupported: quoted beside a supported judgement, it was untrue
    ['Assertion only.', 'no judgement_supported'],
    ['Assertions only, with no evidence.', 'no judgement_supported; no evidence'],
  ])('%s', (text, claims) => {
    expect(show(readClaims(text))).toBe(claims);
  });

  it('reads a Lacks line as denying what it names, and a phrase inside a longer one only as the longer one', () => {
    expect(show(readClaims('a developed reply to the opposing view', 'lacks'))).toBe('no counter_developed');
    expect(show(readClaims('the strongest opposing argument, and a reply to it', 'lacks'))).toBe('no counter; no counter_answered');
    expect(show(readClaims('enough explanation: points are asserted more than explained', 'lacks'))).toBe('no explained');
    // "a turning point" inside "a turning point that is shown" is not also a turning point lacked
    expect(show(readClaims('a turning point that is shown, not only told (1 moment of change after the first third)', 'lacks'))).toBe(
      'no turning_shown',
    );
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
