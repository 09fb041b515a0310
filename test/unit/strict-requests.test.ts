// Request bodies are checked strictly: a misspelt field is refused before anything is sent.
import { describe, expect, it } from 'vitest';
import { OnePassFields } from '../../src/api/schemas.js';

describe('strict requests', () => {
  it('a one-pass rubric with a misspelt field is refused before sending', () => {
    expect(OnePassFields.safeParse({ model_id: 1, paper_content: 'x', rubrics: [{ item: 'A', maxscore: 5 }] }).success).toBe(false);
    expect(
      OnePassFields.safeParse({
        model_id: 1,
        paper_content: 'x',
        rubrics: [{ item: 'A', max_score: 5, levels: [{ score: 5, descriptor: 'all' }] }],
      }).success,
    ).toBe(true);
  });
});
