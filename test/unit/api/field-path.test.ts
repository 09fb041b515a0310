// The one field-path spelling of the sandbox's 400 details and the preview files' problems.
import { describe, expect, it } from 'vitest';
import { fieldPath } from '../../../src/api/field-path.js';

describe('fieldPath', () => {
  it('joins names with dots and puts indexes in brackets', () => {
    expect(fieldPath(['questions', 2, 'rubrics', 0, 'score'])).toBe('questions[2].rubrics[0].score');
    expect(fieldPath([0, 'item'])).toBe('[0].item');
    expect(fieldPath(['answers', 1, 3])).toBe('answers[1][3]');
    expect(fieldPath([])).toBe('');
  });
});
