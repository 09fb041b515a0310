// `kct doctor --mark` sends a built-in sample with the question it answers: whichever ready model
// marks it, the sandbox's grader finds it on the topic and gives it a plausible, non-zero score.
import { describe, expect, it } from 'vitest';
import { grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { SEED_MODELS } from '../../packages/sandbox/src/store/seed-models.js';
import { SAMPLE_ANSWER, SAMPLE_QUESTION } from '../../src/commands/doctor/sample.js';

describe('the sample kct doctor --mark sends', () => {
  it.each(SEED_MODELS.filter((m) => m.post_status === 'ready'))('earns a plausible score from model $model_id, on the topic', (m) => {
    // The question sent replaces the model's own question and description (docs/sandbox.md, rule 14).
    const input = {
      answerText: SAMPLE_ANSWER,
      questionText: SAMPLE_QUESTION,
      rubrics: m.rubrics,
      cumMethod: m.cum_method,
      totalScore: m.total_score,
      style: 'Bullet' as const,
    };
    for (const j of judgements(input)) expect(j.caveat?.kind, j.item).toBeUndefined();
    expect(grade(input).score).toBeGreaterThan(0);
  });

  it("earns between a half and four fifths of the persuasive model's total: neither broken nor perfect", () => {
    const m = SEED_MODELS.find((x) => x.model_id === 12)!;
    const { score } = grade({
      answerText: SAMPLE_ANSWER,
      questionText: SAMPLE_QUESTION,
      rubrics: m.rubrics,
      cumMethod: m.cum_method,
      totalScore: m.total_score,
      style: 'Bullet',
    });
    expect(score).toBeGreaterThanOrEqual(m.total_score / 2);
    expect(score).toBeLessThanOrEqual(m.total_score * 0.8);
  });
});
