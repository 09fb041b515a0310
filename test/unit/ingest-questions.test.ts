import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergePapers } from '../../packages/sandbox/src/ingest/question-merge.js';
import { applySpecification, namedQuestion } from '../../packages/sandbox/src/ingest/question-selection.js';
import { questionsFromText, renderQuestions, splitPaper, takeMarks } from '../../packages/sandbox/src/ingest/questions.js';

const EXAMPLE = readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'question-paper.txt'), 'utf8');

describe('questionsFromText', () => {
  it('reads the bundled example paper: numbering, sub-parts, marks, title and total', () => {
    const paper = questionsFromText(EXAMPLE);
    expect(paper.title).toBe('Year 10 English: Persuasive Writing Assessment');
    expect(paper.stated_total).toBe(30);
    expect(paper.warnings).toEqual([]);
    expect(paper.questions.map((q) => [q.number, q.marks, q.sub_questions?.map((s) => [s.number, s.marks])])).toEqual([
      [
        '1',
        5,
        [
          ['a', 2],
          ['b', 3],
        ],
      ],
      ['2', 25, undefined],
    ]);
    const [one, two] = paper.questions;
    expect(one.text).toBe('Read the statement below.\n"Homework should be banned for students under sixteen."');
    expect(one.sub_questions![0].text).toBe('Identify two arguments that support the statement.');
    expect(two.text).toMatch(/^Write a persuasive letter to your head teacher/);
    expect(two.text).toContain('\n- answer the strongest argument on the other side;\n');
    expect(two.text).toMatch(/\nWrite between 400 and 600 words\.$/);
    // section headings and page furniture are not question text
    expect(JSON.stringify(paper.questions)).not.toMatch(/Section B|END OF QUESTIONS/);
    expect(paper.preamble).toContain('Answer ALL questions.');
  });

  it('understands Q2 / Question 3 headers, bare [n] marks and "Total for question" lines', () => {
    const paper = questionsFromText(`Q1 Define photosynthesis. (2 marks)
Q2. Explain how light intensity affects the rate. [4]
Question 3: Describe an experiment.
You may draw a diagram.
1. label the apparatus
2. state the variables
Total for question 3: 6 marks`);
    expect(paper.questions).toEqual([
      { number: '1', text: 'Define photosynthesis.', marks: 2 },
      { number: '2', text: 'Explain how light intensity affects the rate.', marks: 4 },
      { number: '3', text: 'Describe an experiment. You may draw a diagram. 1. label the apparatus 2. state the variables', marks: 6 },
    ]);
  });

  it('keeps a numbered list inside a question as text, and roman sub-parts inside their part', () => {
    const paper = questionsFromText(`1. Compare the two poems. [10 marks]
Consider:
1. imagery
2. tone
2. (a) Name the poet. [1 mark]
(b) Explain the title:
(i) its literal meaning [2 marks]
(ii) its symbolism
(c) Summarise. 3 marks`);
    expect(paper.questions.map((q) => q.number)).toEqual(['1', '2']);
    expect(paper.questions[0].text).toBe('Compare the two poems. Consider: 1. imagery 2. tone');
    const parts = paper.questions[1].sub_questions!;
    expect(parts.map((p) => p.number)).toEqual(['a', 'b', 'c']);
    expect(parts[1].text).toBe('Explain the title:\n(i) its literal meaning\n(ii) its symbolism');
    expect(parts[1].marks).toBe(2);
    expect(parts[2]).toEqual({ number: 'c', text: 'Summarise.', marks: 3 });
    expect(paper.questions[1].marks).toBe(6);
  });

  it('joins lines wrapped by a PDF and skips page furniture', () => {
    const paper = questionsFromText(`1. Explain why the author opens the story with a
storm, using two quotations. [6 marks]
Page 1 of 2
Turn over
2. Write a diary entry from the point of view of the
lighthouse keeper. [20 marks]`);
    expect(paper.questions).toEqual([
      { number: '1', text: 'Explain why the author opens the story with a storm, using two quotations.', marks: 6 },
      { number: '2', text: 'Write a diary entry from the point of view of the lighthouse keeper.', marks: 20 },
    ]);
  });

  it('warns about missing numbers, missing marks, and totals that do not add up', () => {
    const paper = questionsFromText(`Total: 20 marks
Question 1 Describe the water cycle. [5 marks]
Question 3 Evaluate the dam proposal.`);
    expect(paper.questions.map((q) => q.number)).toEqual(['1', '3']);
    expect(paper.warnings.join('\n')).toMatch(/question 2 may be missing/);
    expect(paper.warnings.join('\n')).toMatch(/No marks were found for question 3/);
  });

  it('warns when the parts do not add up to the question', () => {
    const paper = questionsFromText('1. Explain. [10 marks]\n(a) One. [2 marks]\n(b) Two. [3 marks]');
    expect(paper.questions[0].marks).toBe(10);
    expect(paper.warnings).toEqual(['Question 1 is worth 10 marks, but its parts add up to 5.']);
  });

  it('takes text without numbering as one question, and says so', () => {
    const paper = questionsFromText('Discuss the causes of the First World War.');
    expect(paper.questions).toEqual([{ number: '1', text: 'Discuss the causes of the First World War.' }]);
    expect(paper.warnings[0]).toMatch(/No question numbering/);
    expect(questionsFromText('   \n ').questions).toEqual([]);
  });

  it('is deterministic', () => {
    expect(questionsFromText(EXAMPLE)).toEqual(questionsFromText(EXAMPLE));
  });
});

describe('takeMarks', () => {
  it.each([
    ['Explain. [10 marks]', 'Explain.', 10],
    ['Explain. (5 marks)', 'Explain.', 5],
    ['Explain. (1 mark)', 'Explain.', 1],
    ['Explain. [4]', 'Explain.', 4],
    ['Explain. (2.5 pts)', 'Explain.', 2.5],
    ['Explain. 6 marks', 'Explain.', 6],
    ['Essay [Total: 25 marks]', 'Essay', 25],
  ])('%s', (line, text, marks) => {
    expect(takeMarks(line)).toEqual({ text, marks });
  });
  it('leaves marks that are part of a sentence', () => {
    expect(takeMarks('This part is worth 10 marks')).toEqual({ text: 'This part is worth 10 marks' });
    expect(takeMarks('Write 400 words')).toEqual({ text: 'Write 400 words' });
  });
});

describe('specification', () => {
  it.each([
    ['question 2', { question: '2' }],
    ['Question 2 only', { question: '2' }],
    ['only question two', { question: '2' }],
    ['Q1(b)', { question: '1', part: 'b' }],
    ['q1b', { question: '1', part: 'b' }],
    ['use question 1 b) only', { question: '1', part: 'b' }],
    ['2', { question: '2' }],
    ['question 2 and nothing else', { question: '2' }],
  ])('%s names %j', (spec, expected) => {
    expect(namedQuestion(spec)).toEqual(expected);
  });

  it('restricts the paper to the named question or part', () => {
    const paper = questionsFromText(EXAMPLE);
    expect(applySpecification(paper, 'question 2').questions.map((q) => q.number)).toEqual(['2']);
    const part = applySpecification(paper, 'Q1(b)').questions;
    expect(part).toHaveLength(1);
    expect(part[0].sub_questions!.map((s) => s.number)).toEqual(['b']);
    expect(part[0].marks).toBe(3);
  });

  it('returns nothing, with a warning, for a question that is not there', () => {
    const result = applySpecification(questionsFromText(EXAMPLE), 'question 7');
    expect(result.questions).toEqual([]);
    expect(result.warnings.at(-1)).toMatch(/question 7, which is not in the paper \(found: 1, 2\)/);
  });

  it('matches by words when no number is named', () => {
    const result = applySpecification(questionsFromText(EXAMPLE), 'the persuasive letter');
    expect(result.questions.map((q) => q.number)).toEqual(['2']);
  });
});

describe('renderQuestions', () => {
  it('writes one line per question and part, with marks', () => {
    expect(
      renderQuestions([
        { number: '1', text: 'Read.', marks: 5, sub_questions: [{ number: 'a', text: 'Name two.', marks: 2 }] },
        { number: '2', text: 'Write.', marks: 1 },
      ]),
    ).toBe('1. Read.\n(a) Name two. [2 marks]\n2. Write. [1 mark]');
  });
});

describe('mergePapers (several files, in the order sent)', () => {
  const split = (name: string, text: string) => ({ name, paper: splitPaper(text) });

  it('continues the paper across pages, finishing a question that runs over a page', () => {
    const merged = mergePapers([
      split('page1.png', 'Test paper\n1. Define erosion. [2 marks]\n2. Explain how rivers'),
      split('page2.png', 'shape valleys. [4 marks]\n3. Draw a meander. [3 marks]'),
    ]);
    expect(merged.questions).toEqual([
      { number: '1', text: 'Define erosion.', marks: 2 },
      { number: '2', text: 'Explain how rivers shape valleys.', marks: 4 },
      { number: '3', text: 'Draw a meander.', marks: 3 },
    ]);
    expect(merged.title).toBe('Test paper');
  });

  it('leaves out a second copy of the same paper, and says so', () => {
    const merged = mergePapers([split('paper.pdf', EXAMPLE), split('paper.docx', EXAMPLE)]);
    expect(merged.questions.map((q) => q.number)).toEqual(['1', '2']);
    expect(merged.warnings).toEqual(['"paper.docx" repeats questions 1, 2 already read from another file; its copy was left out.']);
  });

  it('renumbers a second paper whose numbering starts again', () => {
    const merged = mergePapers([split('a.txt', '1. First. [1 mark]'), split('b.txt', '1. Other. [2 marks]\n2. More. [3 marks]')]);
    expect(merged.questions.map((q) => [q.number, q.text])).toEqual([
      ['1', 'First.'],
      ['2', 'Other.'],
      ['3', 'More.'],
    ]);
    expect(merged.warnings[0]).toMatch(/"b.txt" numbers its questions from 1 again; they were renumbered 2-3/);
  });

  it('adds a file without numbering (an extract, a continuation) to the last question', () => {
    const merged = mergePapers([
      split('paper.txt', '1. Read the extract and comment on its tone. [10 marks]'),
      split('extract.txt', 'The sea was angry that night.'),
    ]);
    expect(merged.questions).toEqual([
      { number: '1', text: 'Read the extract and comment on its tone.\nThe sea was angry that night.', marks: 10 },
    ]);
    expect(merged.warnings).toEqual([]);
  });
});
