// The preview files `kct ingest` writes and `kct models create` reads: round trip, and every
// problem pointing at its file, line, column and field.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/api/errors.js';
import { CreateModelRequest } from '../../src/api/schemas.js';
import { buildModelRequest, readQuestionsFile, readRubricsFile } from '../../src/cli/models/preview-file.js';
import { previewHeader, questionsFileContent, renderPreviewFile, rubricsFileContent } from '../../src/cli/models/preview-writer.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kct-preview-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const QUESTIONS = `kind: questions
assignment_name: Homework letter
assignment_desc: Year 10 persuasive letter
questions:
  - number: 1
    text: Identify two arguments.
    marks: 5
    sub_questions:
      - number: a
        text: First part.
        marks: 2
      - number: b
        text: Second part.
        marks: 3
  - number: "2"
    text: |-
      Write a letter.
      Use evidence.
    marks: 25
`;

const RUBRICS = `kind: rubrics
total_score: 30
cum_method: sum
rubrics:
  - item: Understanding
    max_score: 5
  - item: Argument
    max_score: 15
    description: A clear position.
    levels:
      - score: 15
        descriptor: Precise and sustained.
      - score: 5
        descriptor: Vague.
  - item: Language
    max_score: 10
`;

async function write(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

async function problemsOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('reading preview files', () => {
  it('reads valid YAML into the POST /models body; numbers typed as numbers become text', async () => {
    const plan = await buildModelRequest({ questions: await write('q.yaml', QUESTIONS), rubrics: await write('r.yaml', RUBRICS) });
    expect(plan.warnings).toEqual([]);
    expect(plan.request.questions[0].number).toBe('1');
    expect(plan.request.questions[1].text).toBe('Write a letter.\nUse evidence.');
    expect(plan.request).toMatchObject({ assignment_name: 'Homework letter', total_score: 30, cum_method: 'sum' });
    expect(CreateModelRequest.safeParse(plan.request).success).toBe(true);
  });

  it('flags win over the files', async () => {
    const plan = await buildModelRequest({
      questions: await write('q2.yaml', QUESTIONS),
      rubrics: await write('r2.yaml', RUBRICS),
      name: 'Other',
      desc: 'Other desc',
      subject: 'English',
      totalScore: 10,
      cumMethod: 'average',
    });
    expect(plan.request).toMatchObject({
      assignment_name: 'Other',
      assignment_desc: 'Other desc',
      project_subject: 'English',
      total_score: 10,
      cum_method: 'average',
    });
    expect(plan.warnings).toEqual([]);
  });

  it('points at the line, column and field of each schema problem, in line order', async () => {
    const bad = RUBRICS.replace('max_score: 15', 'max_score: fifteen')
      .replace('  - item: Language\n', '  - item: Language\n    weight: 2\n')
      .replace('cum_method: sum', 'cum_method: median');
    const message = await problemsOf(
      readRubricsFile(await write('bad.yaml', bad)).then((r) => {
        if (r.problems.length)
          throw new UsageError(r.problems.map((p) => `${p.file}:${p.line}:${p.col}: ${p.field}: ${p.message}`).join('\n'));
      }),
    );
    expect(message).toContain('bad.yaml:3:13: cum_method: expected one of "sum"|"average"');
    expect(message).toContain('bad.yaml:8:16: rubrics[1].max_score: expected number, received string');
    expect(message).toContain('bad.yaml:16:5: rubrics[2].weight: unknown field "weight"');
  });

  it('names missing fields at the object they belong in', async () => {
    const { problems } = await readQuestionsFile(await write('missing.yaml', QUESTIONS.replace('    text: Identify two arguments.\n', '')));
    // text may be missing only when... it is required; the problem points at question 1
    expect(problems).toEqual([expect.objectContaining({ line: 5, field: 'questions[0].text', message: 'is missing' })]);
  });

  it('says every problem of a rubrics file at once: a duplicate name and a level above its maximum beside fields of the wrong type', async () => {
    const broken = `kind: rubrics
total_score: 20
cum_method: sum
rubrics:
  - item: Argument
    max: 5
  - item: argument
    max_score: 5
    levels:
      - score: 7
        descriptor: Excellent
  - item: Organisation
    max_score: five
  - item: Accuracy
    max_score: 4
`;
    const message = await problemsOf(
      buildModelRequest({ questions: await write('q-all.yaml', QUESTIONS), rubrics: await write('r-all.yaml', broken) }),
    );
    expect(message).toContain('unknown field "max"');
    expect(message).toContain('max_score');
    expect(message).toContain('"argument" is also the name of criterion 1: criterion names must be unique');
    expect(message).toContain("7 is above the criterion's max_score 5");
  });

  it('says a total the maxima miss beside the type errors of a rubrics file, when every maximum is a number', async () => {
    const broken = RUBRICS.replace('total_score: 30', 'total_score: 32').replace(
      '  - item: Language\n',
      '  - item: Language\n    descriptor: Accurate.\n',
    );
    const message = await problemsOf(
      buildModelRequest({ questions: await write('q-type.yaml', QUESTIONS), rubrics: await write('r-type.yaml', broken) }),
    );
    expect(message).toMatch(/^2 problems in /);
    expect(message).toMatch(
      /r-type\.yaml:2:14: total_score: the criterion maxima add up to 30, 2 less than total_score 32 \(cum_method sum\)/,
    );
    expect(message).toContain('unknown field "descriptor" (did you mean "description"?)');
    // from the flag, the flag is named
    const flagged = await problemsOf(
      buildModelRequest({ questions: await write('q-flag.yaml', QUESTIONS), rubrics: await write('r-flag.yaml', broken), totalScore: 25 }),
    );
    expect(flagged).toMatch(
      /--total-score 25: the criterion maxima add up to 30, 5 more than total_score 25 \(cum_method sum\).* \(criteria in .*r-flag\.yaml\)/,
    );
  });

  it('says once, plainly, that the total cannot be checked while a maximum is not a number', async () => {
    const broken = RUBRICS.replace('max_score: 5', 'max_score: five').replace('max_score: 10', 'max_score: ten');
    const message = await problemsOf(
      buildModelRequest({ questions: await write('q-nan.yaml', QUESTIONS), rubrics: await write('r-nan.yaml', broken) }),
    );
    expect(message.match(/the total cannot be checked until every max_score is a number/g)).toHaveLength(1);
    expect(message).toMatch(/r-nan\.yaml:2:14: total_score: the total cannot be checked until every max_score is a number/);
    expect(message).toMatch(/rubrics\[0\]\.max_score: expected number/);
    expect(message).toMatch(/rubrics\[2\]\.max_score: expected number/);
    // an average needs no sum: nothing to say of the total
    const average = await problemsOf(
      buildModelRequest({
        questions: await write('q-avg.yaml', QUESTIONS),
        rubrics: await write('r-avg.yaml', broken.replace('cum_method: sum', 'cum_method: average')),
      }),
    );
    expect(average).not.toContain('total cannot be checked');
  });

  it('says a total the maxima miss beside a broken questions file', async () => {
    const message = await problemsOf(
      buildModelRequest({
        questions: await write('q-broken.yaml', QUESTIONS.replace('marks: 25', 'marks: lots')),
        rubrics: await write('r-32.yaml', RUBRICS.replace('total_score: 30', 'total_score: 32')),
      }),
    );
    expect(message).toMatch(/q-broken\.yaml:\d+:\d+: questions\[1\]\.marks: expected number/);
    expect(message).toMatch(/r-32\.yaml:2:14: total_score: the criterion maxima add up to 30, 2 less than total_score 32/);
  });

  it('explains a total that the maxima do not reach, which way and by how much, at the total_score line', async () => {
    const message = await problemsOf(
      buildModelRequest({
        questions: await write('q3.yaml', QUESTIONS),
        rubrics: await write('r3.yaml', RUBRICS.replace('total_score: 30', 'total_score: 32')),
      }),
    );
    expect(message).toMatch(
      /r3\.yaml:2:14: total_score: the criterion maxima add up to 30, 2 less than total_score 32 \(cum_method sum\): raise the max_score values by 2 in all, or set total_score to 30/,
    );
    const over = await problemsOf(
      buildModelRequest({ questions: await write('q4.yaml', QUESTIONS), rubrics: await write('r4.yaml', RUBRICS), totalScore: 25 }),
    );
    expect(over).toMatch(/--total-score 25: the criterion maxima add up to 30, 5 more than total_score 25/);
  });

  it('reports cross-field problems: duplicate criteria and numbers, levels above the maximum, missing name', async () => {
    const rubrics = RUBRICS.replace('item: Language', 'item: argument').replace('- score: 15\n', '- score: 16\n');
    const questions = QUESTIONS.replace('number: "2"', 'number: "1"').replace('assignment_name: Homework letter\n', '');
    const message = await problemsOf(
      buildModelRequest({ questions: await write('q5.yaml', questions), rubrics: await write('r5.yaml', rubrics) }),
    );
    expect(message).toMatch(/^4 problems in .*q5\.yaml and .*r5\.yaml:/);
    expect(message).toMatch(/q5\.yaml:1:1: assignment_name: is missing: add it to the file, or pass --name/);
    expect(message).toMatch(/q5\.yaml:\d+:\d+: questions\[1\]\.number: "1" is also the number of question 1/);
    expect(message).toMatch(/r5\.yaml:11:16: rubrics\[1\]\.levels\[0\]\.score: 16 is above the criterion's max_score 15/);
    expect(message).toMatch(/r5\.yaml:\d+:\d+: rubrics\[2\]\.item: "argument" is also the name of criterion 2/);
  });

  it('reports YAML and JSON syntax errors with their line', async () => {
    const yaml = await problemsOf(readRubricsFile(await write('syntax.yaml', 'kind: rubrics\nrubrics:\n  - item: A\n   max_score: 3\n')));
    expect(yaml).toMatch(/syntax\.yaml is not valid YAML:\n {2}.*syntax\.yaml:4:\d+: /);
    const json = await problemsOf(readRubricsFile(await write('syntax.json', '{\n  "kind": "rubrics",\n  "rubrics": [\n}\n')));
    expect(json).toMatch(/syntax\.json:4:1: not valid JSON/);
  });

  it('refuses a questions file given as rubrics, and other extensions', async () => {
    const { problems } = await readRubricsFile(await write('swapped.yaml', QUESTIONS));
    expect(problems.map((p) => p.message).join('\n')).toMatch(/must be "rubrics" \(is this a questions file\?\)/);
    await expect(readRubricsFile(await write('r.txt', RUBRICS))).rejects.toThrow(/must end in \.yaml, \.yml or \.json/);
  });
});

describe('writing preview files', () => {
  const preview = {
    assignment_name: 'Paper',
    assignment_desc: null,
    questions: [{ number: '1', text: 'Line one\nLine two', marks: 4, sub_questions: [{ number: 'a', text: 'Part', marks: 4 }] }],
    source_files: [{ name: 'paper.pdf', method: 'pdf/text' }],
    warnings: ['No marks were found for question 2.'],
  };

  it('writes YAML with a header naming the sources and the warnings, and reads it back', async () => {
    const path = join(dir, 'out.yaml');
    const text = renderPreviewFile(path, questionsFileContent(preview), previewHeader('questions', path, preview));
    expect(text).toMatch(/^# kct questions preview, parsed from: paper\.pdf \(pdf\/text\)/);
    expect(text).toContain('#   - No marks were found for question 2.');
    expect(text).toContain('number: "1"');
    expect(text).toContain('text: |-\n      Line one\n      Line two');
    await writeFile(path, text);
    const back = await readQuestionsFile(path);
    expect(back.problems).toEqual([]);
    expect(back.data?.questions).toEqual(preview.questions);
  });

  it("writes JSON for .json, and a rubrics file takes the flags' total and method", async () => {
    const path = join(dir, 'out.json');
    const content = rubricsFileContent(
      { rubrics: [{ item: 'A', max_score: 2, levels: [] }], total_score: 2, cum_method: 'sum' },
      { totalScore: 4, cumMethod: 'average' },
    );
    const text = renderPreviewFile(path, content);
    expect(JSON.parse(text)).toEqual({ kind: 'rubrics', total_score: 4, cum_method: 'average', rubrics: [{ item: 'A', max_score: 2 }] });
    await writeFile(path, text);
    expect((await readRubricsFile(path)).problems).toEqual([]);
    expect(await readFile(path, 'utf8')).toBe(text);
  });
});
