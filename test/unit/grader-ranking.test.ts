// The grader ranks answers the way a teacher would: the labelled answers of test/fixtures/graded/
// (written at known levels for every ready seeded model) against their model's seeded rubric.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { grade } from '../../packages/sandbox/src/engines/grader.js';
import { SEED_MODELS } from '../../packages/sandbox/src/store/seed-models.js';
import { FIXTURES } from './extract-helpers.js';

const LEVELS = ['bottom', 'weak', 'middling', 'strong'] as const;
type LevelName = (typeof LEVELS)[number];
interface Labels {
  title: string;
  models: number[];
  answers: { file: string; level: LevelName; kind: string }[];
}

const GRADED = join(FIXTURES, 'graded');
const sets = readdirSync(GRADED, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => {
    const labels = JSON.parse(readFileSync(join(GRADED, d.name, 'labels.json'), 'utf8')) as Labels;
    return { name: d.name, ...labels, texts: labels.answers.map((a) => readFileSync(join(GRADED, d.name, a.file), 'utf8')) };
  });

/** Ranks from 1, ties sharing the mean of the ranks they span. */
function ranks(xs: number[]): number[] {
  const order = xs.map((x, i) => ({ x, i })).sort((a, b) => a.x - b.x);
  const out = new Array<number>(xs.length);
  for (let start = 0; start < order.length; ) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].x === order[start].x) end++;
    for (let k = start; k <= end; k++) out[order[k].i] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return out;
}

/** Spearman's rank correlation: Pearson's correlation of the ranks, which handles ties. */
function spearman(a: number[], b: number[]): number {
  const ra = ranks(a);
  const rb = ranks(b);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ma = mean(ra);
  const mb = mean(rb);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    num += (ra[i] - ma) * (rb[i] - mb);
    da += (ra[i] - ma) ** 2;
    db += (rb[i] - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}

function mark(modelId: number, answerText: string) {
  const model = SEED_MODELS.find((m) => m.model_id === modelId)!;
  return grade({
    answerText,
    questionText: model.question_text,
    assignmentDesc: model.assignment_desc,
    rubrics: model.rubrics,
    cumMethod: model.cum_method,
    totalScore: model.total_score,
    style: 'Bullet',
  });
}

describe('spearman', () => {
  it('is 1 for the same order, -1 for the reverse, and handles ties', () => {
    expect(spearman([1, 2, 3, 4], [10, 20, 30, 40])).toBeCloseTo(1);
    expect(spearman([1, 2, 3, 4], [4, 3, 2, 1])).toBeCloseTo(-1);
    expect(spearman([0, 0, 1, 1], [1, 2, 3, 4])).toBeCloseTo(0.894, 3);
  });
});

describe('the labelled answers', () => {
  it('cover every ready seeded model with at least 10 answers of every kind', () => {
    const ready = SEED_MODELS.filter((m) => m.post_status === 'ready')
      .map((m) => m.model_id)
      .sort();
    expect(sets.flatMap((s) => s.models).sort()).toEqual(ready);
    for (const set of sets) {
      expect(set.answers.length).toBeGreaterThanOrEqual(10);
      const kinds = new Set(set.answers.map((a) => a.kind));
      for (const kind of ['essay', 'off-topic', 'copied question', 'very short', 'very long']) expect(kinds).toContain(kind);
      for (const level of ['weak', 'middling', 'strong']) expect(set.answers.some((a) => a.level === level)).toBe(true);
    }
  });
});

const figures: { modelId: number; total: number; answers: Labels['answers']; scores: number[]; rho: number }[] = [];

// `KCT_GRADER_FIGURES=1 npx vitest run test/unit/grader-ranking.test.ts` prints the table of
// docs/design/sandbox-notes.md ("How well it ranks").
afterAll(() => {
  if (!process.env.KCT_GRADER_FIGURES) return;
  const header = `| answer (expected level) | ${figures.map((f) => `${f.modelId} (/${f.total})`).join(' | ')} |`;
  const rows = figures[0].answers.map(
    (a, i) => `| ${a.file.replace('.txt', '')} (${a.level}) | ${figures.map((f) => f.scores[i]).join(' | ')} |`,
  );
  const rho = `| **Spearman ρ** | ${figures.map((f) => `**${f.rho.toFixed(2)}**`).join(' | ')} |`;
  console.log([header, `|---|${figures.map(() => '---').join('|')}|`, ...rows, rho].join('\n'));
});

for (const set of sets) {
  for (const modelId of set.models) {
    describe(`model ${modelId}: ${set.title}`, () => {
      const model = SEED_MODELS.find((m) => m.model_id === modelId)!;
      const scores = set.texts.map((t) => mark(modelId, t).score);
      const levels = set.answers.map((a) => LEVELS.indexOf(a.level));
      figures.push({ modelId, total: model.total_score, answers: set.answers, scores, rho: spearman(levels, scores) });

      it('ranks the answers as a teacher would: Spearman correlation of at least 0.8 between level and score', () => {
        expect(spearman(levels, scores)).toBeGreaterThanOrEqual(0.8);
      });

      it('puts the off-topic and copied answers in the bottom band (under a quarter of the total)', () => {
        set.answers.forEach((a, i) => {
          if (a.kind === 'off-topic' || a.kind === 'copied question') expect(scores[i], a.file).toBeLessThan(model.total_score / 4);
        });
      });

      it('marks every strong answer above every weak one, and every weak one above the copied question', () => {
        const of = (level: LevelName) => scores.filter((_, i) => set.answers[i].level === level);
        expect(Math.min(...of('strong'))).toBeGreaterThan(Math.max(...of('weak')));
        const copied = scores[set.answers.findIndex((a) => a.kind === 'copied question')];
        expect(Math.min(...of('weak'))).toBeGreaterThan(copied);
      });
    });
  }
}
