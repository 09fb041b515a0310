// Spec 4.8 rules 1, 2 and the precedence rule 4 leaves open (docs/sandbox.md), end to end and
// on the pure planning function.
import { FormData } from 'undici';
import { describe, expect, test } from 'vitest';
import { planGrading } from '../../packages/sandbox/src/engines/grade-plan.js';
import { SEED_MODELS } from '../../packages/sandbox/src/store/seed-models.js';
import type { ModelRow } from '../../packages/sandbox/src/store/store.js';
import { ESSAY, sandboxForFile } from '../unit/sandbox-helpers.js';

const sb = sandboxForFile();

async function mark(body: Record<string, unknown> | FormData) {
  const res =
    body instanceof FormData
      ? await sb.call('POST', '/evaluations/one-pass', { form: body })
      : await sb.call('POST', '/evaluations/one-pass', { json: { model_id: 12, paper_content: ESSAY, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await sb.waitFor(res.body.data.task_id, sb.keys.user);
  return (await sb.call('GET', `/evaluations/${res.body.data.task_id}`)).body.data;
}
const items = (result: any) => result.rubrics.map((r: any) => r.item);

describe('rubric precedence (end to end)', () => {
  test("no rubric source: the model's saved rubric and total", async () => {
    const result = await mark({});
    expect(items(result)).toEqual(['Thesis & position', 'Evidence & reasoning', 'Organisation', 'Language & conventions']);
    expect(result.max_score).toBe(20);
  });

  test('rubric_text is parsed; the total follows its maxima', async () => {
    const result = await mark({ rubric_text: 'Argument (10 marks): a clear line\nStyle (5 marks): fluent and accurate' });
    expect(items(result)).toEqual(['Argument', 'Style']);
    expect(result.max_score).toBe(15);
    expect(result.evaluation.map((e: any) => e.max_score)).toEqual([10, 5]);
  });

  test('rubric files and rubric_text are parsed together, files first', async () => {
    const fd = new FormData();
    fd.append('model_id', '12');
    fd.append('paper_content', ESSAY);
    fd.append('rubric_text', 'Style (5 marks): fluent');
    fd.append('rubric_file', new Blob(['Argument (10 marks): a clear line'], { type: 'text/plain' }), 'rubric.txt');
    const result = await mark(fd);
    expect(items(result)).toEqual(['Argument', 'Style']);
  });

  test('structured rubrics win over rubric_text', async () => {
    const result = await mark({ rubrics: [{ item: 'Voice', max_score: 4 }], rubric_text: 'Argument (10 marks)' });
    expect(items(result)).toEqual(['Voice']);
  });

  test("rubric text with no criteria falls back to the model's rubric", async () => {
    const result = await mark({ rubric_text: 'Mark it kindly, please.' });
    expect(items(result)).toHaveLength(4);
  });

  test("total_score is a hint the result is scaled to; cum_method overrides the model's", async () => {
    expect((await mark({ total_score: 40 })).max_score).toBe(40);
    const average = await mark({ cum_method: 'average' });
    expect(average.max_score).toBe(5);
    expect(average.score).toBeLessThanOrEqual(5);
  });
});

describe('question precedence (planGrading)', () => {
  const seed = SEED_MODELS.find((m) => m.model_id === 12)!;
  const model: ModelRow = {
    model_id: 12,
    owner_user_id: 1,
    org_id: null,
    assignment_name: seed.assignment_name,
    assignment_desc: seed.assignment_desc,
    question_text: seed.question_text,
    post_status: 'ready',
    creation_method: 'custom',
    total_score: 20,
    cum_method: 'sum',
    rubrics_json: JSON.stringify(seed.rubrics),
  };
  const plan = (fields: Record<string, unknown>, questionFileText?: string) =>
    planGrading({ model_id: 12, paper_content: 'x', ...fields }, model, {
      answerText: 'x',
      ...(questionFileText ? { questionFileText } : {}),
    }).input;

  test("nothing sent: the model's question and description", () => {
    expect(plan({})).toMatchObject({ questionText: seed.question_text, assignmentDesc: seed.assignment_desc });
  });

  test("question_text and question files are joined; the model's question is not used", () => {
    const input = plan({ question_text: 'Q1' }, 'Q2 from a file');
    expect(input.questionText).toBe('Q1\n\nQ2 from a file');
    expect(input.assignmentDesc).toBeUndefined();
  });

  test('assignment_desc alone replaces the saved description and question', () => {
    const input = plan({ assignment_desc: 'Year 8 set' });
    expect(input).toMatchObject({ assignmentDesc: 'Year 8 set' });
    expect(input.questionText).toBeUndefined();
  });

  test('style defaults to Bullet; structured rubrics without max_score share the total', () => {
    const input = plan({ rubrics: [{ item: 'A' }, { item: 'B' }] });
    expect(input.style).toBe('Bullet');
    expect(input.rubrics.map((r) => r.max_score)).toEqual([10, 10]);
  });
});
