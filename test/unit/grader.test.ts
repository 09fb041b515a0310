import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { creditCost, type GradeInput, type GradeRubric, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { stem } from '../../packages/sandbox/src/engines/grading/text.js';
import { FIXTURES } from './extract-helpers.js';

const strong = readFileSync(join(FIXTURES, '..', '..', 'examples', 'sample-essay.txt'), 'utf8');
const fixtureEssay = readFileSync(join(FIXTURES, 'essay.txt'), 'utf8');
const weak = readFileSync(join(FIXTURES, 'short.txt'), 'utf8');
const middling =
  'I think schools should have uniforms. Uniforms are good because everyone looks the same and nobody gets ' +
  'bullied for clothes. They also save money for parents. Some people do not like them but I think they are good. ' +
  'So schools should have uniforms.';
const offTopic =
  'My summer holiday was great. We went to the beach and swam in the sea every day, and in the evening we ' +
  'ate ice cream in the harbour. My brother caught a crab and my sister built a huge sandcastle. It rained only once, ' +
  'so we visited a museum about ships and learned how sailors lived long ago.';

const question = 'Should schools require students to wear uniforms? Argue your position with reasons and evidence.';
const rubrics: GradeRubric[] = [
  { item: 'Thesis and position', max_score: 5, description: 'States a clear position on whether schools should require uniforms.' },
  {
    item: 'Evidence and reasoning',
    max_score: 10,
    description: 'Supports each reason about uniforms, cost and bullying with examples, facts or quotations.',
  },
  {
    item: 'Organisation',
    max_score: 5,
    description: 'Logical paragraphs with an introduction, body and conclusion, linked by transitions.',
  },
  { item: 'Language and style', max_score: 5, description: 'Precise vocabulary, varied sentences and correct grammar.' },
];
const base: GradeInput = { answerText: strong, questionText: question, rubrics, cumMethod: 'sum', totalScore: 25, style: 'Bullet' };
const sentences = (s: string) => s.split(/(?<=[.!?]["”)]?)\s+(?=["“(]?[A-Z])/).filter(Boolean);
const isHalfStep = (n: number) => Number.isInteger(n * 2);

describe('grade', () => {
  it('is deterministic', () => {
    for (const style of ['Bullet', 'Short', 'Long'] as const) {
      const input = { ...base, style };
      expect(JSON.stringify(grade(input))).toBe(JSON.stringify(grade(structuredClone(input))));
    }
  });

  it('keeps every score within [0, max] in steps of 0.5, and the total within [0, totalScore]', () => {
    const odd: GradeRubric[] = [
      ...rubrics,
      { item: 'Tiny', max_score: 1 },
      { item: 'Huge', max_score: 100 },
      { item: 'Nothing', max_score: 0 },
    ];
    for (const answerText of [strong, fixtureEssay, middling, weak, offTopic, 'x', strong.repeat(30)]) {
      for (const cumMethod of ['sum', 'average'] as const) {
        const out = grade({ ...base, answerText, rubrics: odd, cumMethod, totalScore: 40 });
        expect(out.evaluation).toHaveLength(odd.length);
        for (const e of out.evaluation) {
          expect(e.score).toBeGreaterThanOrEqual(0);
          expect(e.score).toBeLessThanOrEqual(e.max_score);
          expect(isHalfStep(e.score)).toBe(true);
        }
        expect(out.score).toBeGreaterThanOrEqual(0);
        expect(out.score).toBeLessThanOrEqual(40);
        expect(isHalfStep(out.score)).toBe(true);
      }
    }
  });

  it('sums criterion scores when the maxima add up to totalScore', () => {
    const out = grade(base);
    expect(out.score).toBe(out.evaluation.reduce((n, e) => n + e.score, 0));
  });

  it('scales the sum to totalScore when the maxima add up to something else', () => {
    const out = grade({ ...base, totalScore: 100 });
    const sum = out.evaluation.reduce((n, e) => n + e.score, 0);
    expect(out.score).toBe(Math.round((sum / 25) * 100 * 2) / 2);
    expect(out.score).not.toBe(sum);
  });

  it('averages score/max times totalScore for cum_method average', () => {
    const out = grade({ ...base, cumMethod: 'average', totalScore: 20 });
    const mean = out.evaluation.reduce((n, e) => n + e.score / e.max_score, 0) / out.evaluation.length;
    expect(out.score).toBe(Math.round(mean * 20 * 2) / 2);
  });

  it('scores an empty or blank answer 0 everywhere and says why', () => {
    for (const answerText of ['', '   \n\t ']) {
      const out = grade({ ...base, answerText });
      expect(out.score).toBe(0);
      for (const e of out.evaluation) {
        expect(e.score).toBe(0);
        expect(e.feedback).toMatch(/No answer text was given/);
      }
    }
  });

  it('ranks a strong essay above a middling one, and that above a one-liner', () => {
    const total = (answerText: string) => grade({ ...base, answerText }).score;
    expect(total(strong)).toBeGreaterThan(total(middling));
    expect(total(middling)).toBeGreaterThan(total(weak));
    expect(total(strong)).toBeGreaterThan(25 * 0.7);
    expect(total(weak)).toBeLessThan(25 * 0.2);
  });

  it('marks an off-topic answer below an on-topic one of similar length', () => {
    expect(grade({ ...base, answerText: offTopic }).score).toBeLessThan(grade({ ...base, answerText: middling }).score);
  });

  it('never awards full marks: the last tenth is left to a person', () => {
    for (const e of grade(base).evaluation) expect(e.score).toBeLessThanOrEqual(e.max_score * 0.9);
  });

  it('names what the criterion lists as phrases, and advises in those terms, never with a bare keyword', () => {
    const listing: GradeRubric = {
      item: 'Costs and fairness',
      max_score: 6,
      description: 'Discusses the effects of uniforms (the cost to families, bullying, comfort in hot weather).',
    };
    const [j] = judgements({ ...base, answerText: middling, rubrics: [listing], totalScore: 6 });
    const coverage = [...j.shows, ...j.lacks].find((p) => p.id === 'coverage')!.measured as { found: string[]; missing: string[] };
    expect(coverage.found).toContain('bullying');
    expect(coverage.missing).toContain('comfort in hot weather');
    expect(coverage.missing).toContain('the cost to families');
    const fb = grade({ ...base, answerText: middling, rubrics: [listing], totalScore: 6 }).evaluation[0].feedback;
    expect(fb).toMatch(/Lacks: [^\n]*what the criterion names: “the cost to families” or “comfort in hot weather”/);
  });

  it('writes Bullet feedback as "- " lines', () => {
    for (const e of grade({ ...base, style: 'Bullet' }).evaluation) {
      const lines = e.feedback.split('\n');
      expect(lines.length).toBeGreaterThanOrEqual(3);
      for (const line of lines) expect(line.startsWith('- ')).toBe(true);
    }
  });

  it('writes Short feedback as two sentences', () => {
    for (const answerText of [strong, middling, weak]) {
      for (const e of grade({ ...base, answerText, style: 'Short' }).evaluation) {
        expect(e.feedback).not.toContain('\n');
        expect(sentences(e.feedback.replace(/“[^”]*”/g, '“…”')).length).toBeLessThanOrEqual(2);
        expect(e.feedback.length).toBeLessThan(700);
      }
    }
  });

  it('writes Long feedback as one honest paragraph of several sentences', () => {
    for (const answerText of [strong, weak]) {
      for (const e of grade({ ...base, answerText, style: 'Long' }).evaluation) {
        expect(e.feedback).not.toContain('\n');
        expect(sentences(e.feedback.replace(/“[^”]*”/g, '“…”')).length).toBeGreaterThanOrEqual(3);
        expect(e.feedback.match(/Sandbox grader/g)).toHaveLength(1);
        expect(e.feedback).toMatch(new RegExp(`^“${e.item}” scores ${e.score} of ${e.max_score}, (?:at|nearest|halfway between) `));
        expect(e.feedback).not.toMatch(/great job|well done|excellent work|I (?:read|enjoyed)/i);
      }
    }
  });

  it('names the level at or nearest the score, by the rubric’s points, and the next one up', () => {
    const leveled: GradeRubric = {
      item: 'Evidence',
      max_score: 6,
      levels: [
        { score: 6, descriptor: 'Strong, relevant evidence' },
        { score: 4, descriptor: 'Some evidence' },
        { score: 2, descriptor: 'Little evidence' },
      ],
    };
    for (const answerText of [strong, middling, weak]) {
      for (const style of ['Bullet', 'Short', 'Long'] as const) {
        const e = grade({ ...base, answerText, rubrics: [leveled], totalScore: 6, style }).evaluation[0];
        const points = [6, 4, 2];
        const nearest = Math.min(...points.map((p) => Math.abs(p - e.score)));
        const named = points.filter((p) => Math.abs(p - e.score) === nearest).at(-1)!;
        const descriptor = { 6: 'Strong, relevant evidence', 4: 'Some evidence', 2: 'Little evidence' }[named];
        expect(e.feedback).toMatch(new RegExp(`(?:at|nearest|halfway between) level ${named} \\(“${descriptor}”\\)`));
        const next = points.filter((p) => p > Math.max(e.score, named)).at(-1);
        if (next) expect(e.feedback).toContain(`towards level ${next}`);
      }
    }
  });

  it('names levels of its own for a criterion without level descriptors', () => {
    const e = grade({ ...base, answerText: middling, rubrics: [{ item: 'Argument', max_score: 10 }], totalScore: 10 }).evaluation[0];
    expect(e.feedback).toMatch(
      /(?:at|nearest|halfway between) the sandbox’s level that meets (?:little of|parts of|most of) the criterion/,
    );
  });

  it('takes an earlier comment into account and says so', () => {
    const without = grade(base).evaluation[2];
    const withPrior = grade({ ...base, currentFeedbacks: [{ item: 'ORGANISATION', comment: 'The conclusion is rushed.', score: 1 }] })
      .evaluation[2];
    expect(withPrior.feedback).toContain('The conclusion is rushed.');
    expect(withPrior.feedback).toMatch(/taken into account/);
    expect(withPrior.score).toBeLessThan(without.score);
    expect(grade(base).evaluation[0]).toEqual(
      grade({ ...base, currentFeedbacks: [{ item: 'Organisation', comment: 'x', score: 1 }] }).evaluation[0],
    );
  });

  it('marks an empty rubric as one Overall criterion worth totalScore', () => {
    const out = grade({ ...base, rubrics: [], totalScore: 10 });
    expect(out.evaluation.map((e) => [e.item, e.max_score])).toEqual([['Overall', 10]]);
    expect(out.score).toBe(out.evaluation[0].score);
  });

  // Speed is measured by the sandbox benchmark (bench/), never by a timed assertion here.
  it('grades 1 MB of text within bounds, deterministically', () => {
    const huge = strong.repeat(Math.ceil(1_000_000 / strong.length));
    const first = grade({ ...base, answerText: huge, style: 'Long' });
    expect(grade({ ...base, answerText: huge, style: 'Long' })).toEqual(first);
    for (const entry of first.evaluation) {
      expect(entry.score).toBeGreaterThanOrEqual(0);
      expect(entry.score).toBeLessThanOrEqual(entry.max_score);
    }
  });
});

describe('stem', () => {
  it('gives one stem to the forms of a word', () => {
    expect(stem('arguments')).toBe(stem('argue'));
    expect(stem('families')).toBe(stem('family'));
    expect(stem('organisation')).toBe(stem('organized'));
    expect(stem('uniforms')).toBe(stem('uniform'));
    expect(stem('bullying')).toBe(stem('bullied'));
    expect(stem('thesis')).toBe('thesis');
    expect(stem('uniform')).not.toBe(stem('union'));
  });
});

describe('creditCost', () => {
  it('charges pasted text as a file of its bytes: 1 credit per started 2 MiB, at least 1', () => {
    expect(creditCost({ textBytes: 1 })).toBe(1);
    expect(creditCost({ textBytes: 10_000 })).toBe(1);
    expect(creditCost({ textBytes: 2 * 1024 * 1024 })).toBe(1);
    expect(creditCost({ textBytes: 2 * 1024 * 1024 + 1 })).toBe(2);
    // the same answer costs the same, sent as text or as a file
    for (const bytes of [1, 2394, 5_000_000]) expect(creditCost({ textBytes: bytes })).toBe(creditCost({ fileBytes: [bytes] }));
  });

  it('charges files by size: 1 credit per started 2 MiB, at least 1 each', () => {
    expect(creditCost({ fileBytes: [10] })).toBe(1);
    expect(creditCost({ fileBytes: [2 * 1024 * 1024] })).toBe(1);
    expect(creditCost({ fileBytes: [2 * 1024 * 1024 + 1] })).toBe(2);
    expect(creditCost({ fileBytes: [20 * 1024 * 1024] })).toBe(10);
    expect(creditCost({ fileBytes: [0, 100] })).toBe(2);
    expect(creditCost({ textBytes: 4500, fileBytes: [3_000_000] })).toBe(3);
  });

  it('is at least 1 and an integer', () => {
    expect(creditCost({})).toBe(1);
    expect(creditCost({ textBytes: 0, fileBytes: [] })).toBe(1);
    expect(creditCost({ textBytes: Number.NaN })).toBe(1);
  });
});
