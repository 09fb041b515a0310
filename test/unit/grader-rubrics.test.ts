import { describe, expect, it } from 'vitest';
import { rubricsFromText } from '../../packages/sandbox/src/engines/grader.js';

describe('rubricsFromText', () => {
  it('reads a headed list with maxima in several notations, skipping title and total', () => {
    const text = `Persuasive Essay Rubric (20 marks)
1. Thesis (5 marks): States a clear position.
2. Evidence - 6
   Uses examples and statistics.
3) Organisation: 5 points
Style /4
Total: 20`;
    expect(rubricsFromText(text)).toEqual([
      { item: 'Thesis', max_score: 5, description: 'States a clear position.' },
      { item: 'Evidence', max_score: 6, description: 'Uses examples and statistics.' },
      { item: 'Organisation', max_score: 5 },
      { item: 'Style', max_score: 4 },
    ]);
  });

  it('reads level descriptors with single scores and ranges', () => {
    const text = `Evidence (6 marks)
5-6: Strong, relevant evidence for every point.
3–4 marks: Some evidence, not always explained.
1-2: Little or no evidence.`;
    expect(rubricsFromText(text)).toEqual([
      {
        item: 'Evidence',
        max_score: 6,
        levels: [
          { score: 6, descriptor: 'Strong, relevant evidence for every point.' },
          { score: 4, descriptor: 'Some evidence, not always explained.' },
          { score: 2, descriptor: 'Little or no evidence.' },
        ],
      },
    ]);
  });

  it('takes the maximum from the levels when a heading has none', () => {
    const text = `Content:
5: Fully answers the question with insight.
3: Answers most of the question.

## Language
Level 3 (5-6 marks): precise vocabulary.
Level 1 (1-2 marks): frequent errors.

Argument
Excellent (4): convincing argument.
Weak (1): no clear argument.`;
    expect(rubricsFromText(text).map((r) => [r.item, r.max_score, r.levels?.length])).toEqual([
      ['Content', 5, 2],
      ['Language', 6, 2],
      ['Argument', 4, 2],
    ]);
  });

  it('reads markdown tables with a header row', () => {
    const text = `| Criterion | Description | Max |
|---|---|---|
| Organisation | Clear paragraphs | 5 |
| Evidence | Examples and data | 10 marks |
| Total | | 15 |`;
    expect(rubricsFromText(text)).toEqual([
      { item: 'Organisation', max_score: 5, description: 'Clear paragraphs' },
      { item: 'Evidence', max_score: 10, description: 'Examples and data' },
    ]);
  });

  it('reads tables without a header and tab-separated rows', () => {
    expect(rubricsFromText('| Organisation | 5 |\n| Use of evidence | 6 |')).toEqual([
      { item: 'Organisation', max_score: 5 },
      { item: 'Use of evidence', max_score: 6 },
    ]);
    expect(rubricsFromText('Criterion\tMax\nThesis\t5\nEvidence\t10')).toEqual([
      { item: 'Thesis', max_score: 5 },
      { item: 'Evidence', max_score: 10 },
    ]);
  });

  it('reads bold markdown bullets and "out of" maxima', () => {
    expect(rubricsFromText('- **Thesis** (4 pts) — clear claim\n- **Counterargument** (out of 3)')).toEqual([
      { item: 'Thesis', max_score: 4, description: 'clear claim' },
      { item: 'Counterargument', max_score: 3 },
    ]);
  });

  it('returns [] for prose without criteria', () => {
    expect(rubricsFromText('Please write an essay of 300 - 400 words about uniforms.\nStudents should think about costs.')).toEqual([]);
    expect(rubricsFromText('')).toEqual([]);
  });
});

describe('rubricsFromText on text wrapped by a PDF', () => {
  it('joins a wrapped level descriptor and a wrapped description to the line above', () => {
    const text = `1. Organisation (5 marks)
Letter format, an opening, body paragraphs with one main idea each, and a
conclusion; transitions guide the reader.
5: Logical paragraphs, purposeful transitions and a conclusion that returns
to the position.
3-4: Clear structure with occasional weak links.
2. Language (5 marks)
5: Formal register`;
    expect(rubricsFromText(text)).toEqual([
      {
        item: 'Organisation',
        max_score: 5,
        description: 'Letter format, an opening, body paragraphs with one main idea each, and a conclusion; transitions guide the reader.',
        levels: [
          { score: 5, descriptor: 'Logical paragraphs, purposeful transitions and a conclusion that returns to the position.' },
          { score: 4, descriptor: 'Clear structure with occasional weak links.' },
        ],
      },
      { item: 'Language', max_score: 5, levels: [{ score: 5, descriptor: 'Formal register' }] },
    ]);
  });
});
