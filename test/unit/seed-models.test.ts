// The seeded models read from seed-assignments.json: the types the JSON cannot state hold at run time.
import { describe, expect, it } from 'vitest';
import { SEED_MODELS } from '../../packages/sandbox/src/store/seed-models.js';

describe.each(SEED_MODELS.map((m) => [m.model_id, m] as const))('seed model %i', (_, model) => {
  it('has a known status and method, and a total its criteria make', () => {
    expect(['ready', 'training']).toContain(model.post_status);
    expect(['sum', 'average']).toContain(model.cum_method);
    const maxima = model.rubrics.map((r) => r.max_score);
    const made = model.cum_method === 'sum' ? maxima.reduce((a, b) => a + b, 0) : maxima.reduce((a, b) => a + b, 0) / maxima.length;
    expect(made).toBe(model.total_score);
  });

  it('gives every criterion four levels at its maximum, 70 %, 40 % and 0', () => {
    for (const { max_score, levels = [] } of model.rubrics) {
      expect(levels.map((l) => l.score)).toEqual([max_score, Math.round(max_score * 0.7), Math.round(max_score * 0.4), 0]);
      for (const level of levels) expect(level.descriptor.length).toBeGreaterThan(0);
    }
  });
});
