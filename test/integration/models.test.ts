// Model building end to end: kct's main() against `kct sandbox`, on the bundled examples.
// Step by step (files, uploaded-URL assets, mixed), a person's edit of the preview carried into
// the model, validation errors, --wait to ready, a one-pass with the new model, the guided flow
// refused off a terminal, 409 for a model still training, and asset URLs the SSRF guard refuses.
// In-process; the guided flow under a pseudo-terminal is test/e2e/models-guided.test.ts.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { asUser, parseJson, ROOT, type RunResult, removeDir, type Sandbox, startSandbox, tempDir } from './harness.js';

const EXAMPLES = join(ROOT, 'examples');
const PAPER_PDF = join(EXAMPLES, 'question-paper.pdf');
const PAPER_DOCX = join(EXAMPLES, 'question-paper.docx');
const RUBRIC_PDF = join(EXAMPLES, 'rubric.pdf');
const RUBRIC_DOCX = join(EXAMPLES, 'rubric.docx');
const ESSAY = join(EXAMPLES, 'sample-essay.txt');
const EXAMPLE_CRITERIA = [
  'Understanding of the issue',
  'Position and argument',
  'Evidence and counter-argument',
  'Organisation',
  'Language and conventions',
];
const TRAINING_MS = 500;

interface ModelRecord {
  model_id: number;
  assignment_name: string;
  post_status: string;
  total_score: number;
  cum_method: string;
  criteria_count: number;
}
interface Result {
  status: string;
  score: number;
  evaluation: { item: string; score: number; max_score: number; feedback: string }[];
}

let sandbox: Sandbox;
let slow: Sandbox;
let kct: ReturnType<typeof asUser>;
let kctSlow: ReturnType<typeof asUser>;
let work: string;

beforeAll(async () => {
  [sandbox, slow] = await Promise.all([
    startSandbox({ args: ['--training-delay', String(TRAINING_MS)] }),
    // a model here stays "training" for ten minutes: long enough for every 409 check
    startSandbox({ args: ['--training-delay', '600000'] }),
  ]);
  kct = asUser(sandbox);
  kctSlow = asUser(slow);
  work = tempDir('kct-models-');
});
afterAll(async () => {
  await Promise.all([sandbox?.stop(), slow?.stop()]);
  if (work) removeDir(work);
});

const path = (name: string) => join(work, name);
const expectOk = (run: RunResult) => expect(run.code, `stdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(0);

async function ingestExamples(prefix: string): Promise<{ questions: string; rubrics: string }> {
  const questions = path(`${prefix}-questions.yaml`);
  const rubrics = path(`${prefix}-rubrics.yaml`);
  expectOk(await kct(['ingest', 'questions', PAPER_PDF, '-o', questions]));
  expectOk(await kct(['ingest', 'rubrics', RUBRIC_DOCX, '--total-score', '30', '--cum-method', 'sum', '-o', rubrics]));
  return { questions, rubrics };
}

describe('step by step on the bundled examples', () => {
  it('ingests the question paper (PDF): a preview file, a summary table, the next command', async () => {
    const out = path('questions.yaml');
    const run = await kct(['ingest', 'questions', PAPER_PDF, '-o', out]);
    expectOk(run);
    expect(run.stdout).toMatch(/No\. +│ Question +│ Marks/);
    expect(run.stdout).toMatch(/1\(b\) +│ +Identify one argument against/);
    expect(run.stdout).toContain('2 questions, 30 marks');
    expect(run.stderr).toContain(`Wrote ${out}`);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^# kct questions preview, parsed from: question-paper\.pdf \(pdf\/text\)/);
    const file = parseYaml(text);
    expect(file.kind).toBe('questions');
    expect(file.assignment_name).toBe('Year 10 English: Persuasive Writing Assessment');
    expect(file.questions.map((q: { number: string; marks: number }) => [q.number, q.marks])).toEqual([
      ['1', 5],
      ['2', 25],
    ]);
    expect(file.questions[0].sub_questions.map((s: { number: string }) => s.number)).toEqual(['a', 'b']);
  });

  it('says when the paper gives the students no instructions, which kct models create needs', async () => {
    const paper = path('no-instructions.txt');
    writeFileSync(
      paper,
      'Year 8 History homework\nTotal: 10 marks.\n\n1. Write a short essay explaining two causes of the First World War. [10 marks]\n',
    );
    const out = path('no-instructions.yaml');
    const run = await kct(['ingest', 'questions', paper, '--out', out]);
    expectOk(run);
    expect(parseYaml(readFileSync(out, 'utf8')).assignment_desc ?? '').toBe('');
    expect(run.stderr).toContain(`warning: no instructions to the students were found in the paper (assignment_desc is empty in ${out})`);
    // a paper with them: no warning
    const full = await kct(['ingest', 'questions', PAPER_PDF, '--out', path('with-instructions.yaml')]);
    expectOk(full);
    expect(full.stderr).not.toContain('no instructions');
  });

  it('ingests the rubric (DOCX) with --json: the preview on stdout, the file written too', async () => {
    const out = path('rubrics.yaml');
    const run = await kct(['ingest', 'rubrics', RUBRIC_DOCX, '--total-score', '30', '--cum-method', 'sum', '-o', out, '--json']);
    expectOk(run);
    const preview = parseJson<{
      rubrics: { item: string; max_score: number; levels: unknown[] }[];
      total_score: number;
      criteria_total: number;
    }>(run.stdout);
    expect(preview.rubrics.map((r) => r.item)).toEqual(EXAMPLE_CRITERIA);
    expect(preview).toMatchObject({ total_score: 30, criteria_total: 30 });
    const file = parseYaml(readFileSync(out, 'utf8'));
    expect(file).toMatchObject({ kind: 'rubrics', total_score: 30, cum_method: 'sum' });
    expect(file.rubrics[1].levels[0]).toEqual({
      score: 8,
      descriptor: 'A precise position in the opening, developed and sharpened to the end.',
    });
  });

  it('writes JSON previews for .json, and never overwrites a preview unless --force', async () => {
    const out = path('rubrics.json');
    expectOk(await kct(['ingest', 'rubrics', RUBRIC_PDF, '--total-score', '30', '--cum-method', 'sum', '-o', out]));
    expect(JSON.parse(readFileSync(out, 'utf8')).rubrics).toHaveLength(5);
    const again = await kct(['ingest', 'rubrics', RUBRIC_PDF, '--total-score', '30', '--cum-method', 'sum', '-o', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists.*\nhint: .*--force/);
    expectOk(await kct(['ingest', 'rubrics', RUBRIC_PDF, '--total-score', '30', '--cum-method', 'sum', '-o', out, '--force']));
  });

  it("carries a person's edits of both previews into the model; --wait until ready; one-pass scores each new criterion", async () => {
    const { questions, rubrics } = await ingestExamples('edited');
    // The teacher renames a criterion, moves two marks between criteria, adds a level, and renames the model.
    const edited = readFileSync(rubrics, 'utf8')
      .replace('- item: Organisation\n    max_score: 5', '- item: Structure and paragraphing\n    max_score: 6')
      .replace('- item: Language and conventions\n    max_score: 5', '- item: Language and conventions\n    max_score: 4')
      .replace('- score: 5\n        descriptor: Confident persuasive', '- score: 4\n        descriptor: Confident persuasive')
      .replace(
        '        descriptor: Informal in places; frequent errors that sometimes obscure meaning.',
        '        descriptor: Informal in places; frequent errors that sometimes obscure meaning.\n      - score: 0\n        descriptor: Not attempted.',
      );
    expect(edited).not.toBe(readFileSync(rubrics, 'utf8'));
    writeFileSync(rubrics, edited);
    writeFileSync(
      questions,
      readFileSync(questions, 'utf8').replace(
        'assignment_name: "Year 10 English: Persuasive Writing Assessment"',
        'assignment_name: Homework ban letter (edited)',
      ),
    );

    const started = Date.now();
    const create = await kct([
      'models',
      'create',
      '--questions',
      questions,
      '--rubrics',
      rubrics,
      '--desc',
      'Year 10 persuasive letter on banning homework',
      '--wait',
      '--yes',
      '--json',
    ]);
    expectOk(create);
    const model = parseJson<ModelRecord>(create.stdout);
    expect(model).toMatchObject({
      assignment_name: 'Homework ban letter (edited)',
      post_status: 'ready',
      total_score: 30,
      cum_method: 'sum',
      criteria_count: 5,
      creation_method: 'custom',
    });
    // it really was training first, and --wait waited for it
    expect(create.stderr).toMatch(new RegExp(`Created model ${model.model_id} \\(training\\)`));
    expect(create.stderr).toMatch(new RegExp(`model ${model.model_id} training[\\s\\S]*model ${model.model_id} ready`));
    expect(Date.now() - started).toBeGreaterThanOrEqual(TRAINING_MS);

    const show = await kct(['models', 'show', String(model.model_id), '--json']);
    expectOk(show);
    expect(parseJson<ModelRecord>(show.stdout)).toMatchObject({
      model_id: model.model_id,
      post_status: 'ready',
      assignment_desc: 'Year 10 persuasive letter on banning homework',
    });
    const table = await kct(['models', 'show', String(model.model_id)]);
    expect(table.stdout).toMatch(/Name +│ Homework ban letter \(edited\)/);
    const ready = await kct(['models', '--ready', '--json']);
    expect(parseJson<ModelRecord[]>(ready.stdout).some((m) => m.model_id === model.model_id)).toBe(true);

    const mark = await kct(['one-pass', ESSAY, '--model', String(model.model_id), '--json']);
    expectOk(mark);
    const result = parseJson<Result>(mark.stdout);
    expect(result.status).toBe('SUCCESS');
    expect(result.evaluation.map((e) => [e.item, e.max_score])).toEqual([
      ['Understanding of the issue', 5],
      ['Position and argument', 8],
      ['Evidence and counter-argument', 7],
      ['Structure and paragraphing', 6],
      ['Language and conventions', 4],
    ]);
    for (const entry of result.evaluation) {
      expect(entry.score).toBeGreaterThanOrEqual(0);
      expect(entry.score).toBeLessThanOrEqual(entry.max_score);
      expect(entry.feedback).toContain(entry.item);
    }
  });

  it('uses uploaded files as assets (kct upload, then --asset URL)', async () => {
    const upload = await kct(['upload', PAPER_DOCX, RUBRIC_PDF, '--json']);
    expectOk(upload);
    const [paperUrl, rubricUrl] = parseJson<{ url: string }[]>(upload.stdout).map((f) => f.url);
    const q = await kct(['ingest', 'questions', '--asset', paperUrl, '-o', path('asset-questions.yaml'), '--json']);
    expectOk(q);
    const qPreview = parseJson<{ questions: { number: string }[]; source_files: { origin: string; url: string }[] }>(q.stdout);
    expect(qPreview.questions.map((x) => x.number)).toEqual(['1', '2']);
    expect(qPreview.source_files).toEqual([expect.objectContaining({ origin: 'upload', url: paperUrl })]);
    const r = await kct([
      'ingest',
      'rubrics',
      '--asset',
      rubricUrl,
      '--total-score',
      '30',
      '--cum-method',
      'sum',
      '-o',
      path('asset-rubrics.yaml'),
    ]);
    expectOk(r);
    expect(parseYaml(readFileSync(path('asset-rubrics.yaml'), 'utf8')).rubrics.map((c: { item: string }) => c.item)).toEqual(
      EXAMPLE_CRITERIA,
    );
    const create = await kct([
      'models',
      'create',
      '--questions',
      path('asset-questions.yaml'),
      '--rubrics',
      path('asset-rubrics.yaml'),
      '--wait',
      '--yes',
      '--json',
    ]);
    expectOk(create);
    expect(parseJson<ModelRecord>(create.stdout).post_status).toBe('ready');
  });

  it('mixes local files and asset URLs in one request (a paper whose second page was uploaded)', async () => {
    const text = readFileSync(join(EXAMPLES, 'question-paper.txt'), 'utf8');
    const cut = text.indexOf('Section B');
    writeFileSync(path('page1.txt'), text.slice(0, cut));
    writeFileSync(path('page2.txt'), text.slice(cut));
    const upload = await kct(['upload', path('page2.txt'), '--json']);
    expectOk(upload);
    const [page2Url] = parseJson<{ url: string }[]>(upload.stdout).map((f) => f.url);
    const run = await kct(['ingest', 'questions', path('page1.txt'), '--asset', page2Url, '-o', path('mixed.yaml'), '--json']);
    expectOk(run);
    const preview = parseJson<{ questions: { number: string; marks: number }[]; source_files: { name: string; origin: string }[] }>(
      run.stdout,
    );
    expect(preview.source_files.map((s) => [s.name, s.origin])).toEqual([
      ['page1.txt', 'file'],
      ['page2.txt', 'upload'],
    ]);
    expect(preview.questions.map((q) => [q.number, q.marks])).toEqual([
      ['1', 5],
      ['2', 25],
    ]);
  });

  it('restricts the preview to one question with --spec', async () => {
    const run = await kct(['ingest', 'questions', PAPER_DOCX, '--spec', 'question 2', '--name', 'Letter only', '-o', path('spec.yaml')]);
    expectOk(run);
    const file = parseYaml(readFileSync(path('spec.yaml'), 'utf8'));
    expect(file.assignment_name).toBe('Letter only');
    expect(file.questions.map((q: { number: string }) => q.number)).toEqual(['2']);
  });
});

describe('validation before anything is sent', () => {
  it('schema errors name the file, line and field, exit 2, and create nothing', async () => {
    const { questions, rubrics } = await ingestExamples('invalid');
    const before = parseJson<ModelRecord[]>((await kct(['models', '--json'])).stdout).length;
    const text = readFileSync(rubrics, 'utf8');
    const broken = text.replace('max_score: 8', 'max_score: eight').replace('cum_method: sum', 'cum_method: sum\nweighting: even');
    writeFileSync(rubrics, broken);
    const lineOf = (needle: string) => broken.split('\n').findIndex((l) => l.includes(needle)) + 1;
    const run = await kct(['models', 'create', '--questions', questions, '--rubrics', rubrics, '--yes']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${rubrics}:${lineOf('weighting: even')}:1: weighting: unknown field "weighting"`);
    expect(run.stderr).toContain(`${rubrics}:${lineOf('max_score: eight')}:16: rubrics[1].max_score: expected number, received string`);
    expect(run.stderr).toMatch(/hint: Fix the lines shown/);
    expect(parseJson<ModelRecord[]>((await kct(['models', '--json'])).stdout)).toHaveLength(before);
  });

  it('for sum, maxima that do not add up to the total say which way and by how much', async () => {
    const { questions, rubrics } = await ingestExamples('sum');
    const run = await kct(['models', 'create', '--questions', questions, '--rubrics', rubrics, '--yes', '--total-score', '32']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--total-score 32: the criterion maxima add up to 30, 2 less than total_score 32 (cum_method sum)');
    writeFileSync(rubrics, readFileSync(rubrics, 'utf8').replace('max_score: 7', 'max_score: 9'));
    const over = await kct(['models', 'create', '--questions', questions, '--rubrics', rubrics, '--yes']);
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(
      new RegExp(
        `${rubrics.replace(/[.]/g, '\\.')}:\\d+:14: total_score: the criterion maxima add up to 32, 2 more than total_score 30 \\(cum_method sum\\): lower the max_score values by 2`,
      ),
    );
    // average has no such rule
    const average = await kct([
      'models',
      'create',
      '--questions',
      questions,
      '--rubrics',
      rubrics,
      '--cum-method',
      'average',
      '--total-score',
      '10',
      '--yes',
      '--json',
    ]);
    expectOk(average);
  });

  it('off a terminal it never asks: without --yes it stops with exit 2 and a hint, after showing the model', async () => {
    const { questions, rubrics } = await ingestExamples('confirm');
    const run = await kct(['models', 'create', '--questions', questions, '--rubrics', rubrics]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Model to create: Year 10 English: Persuasive Writing Assessment');
    expect(run.stderr).toMatch(/error: not confirmed.*\nhint: .*--yes/);
  });

  it('local files are checked first: type, count, existence', async () => {
    writeFileSync(path('paper.zip'), 'PK');
    const zip = await kct(['ingest', 'questions', path('paper.zip'), '-o', path('zip.yaml')]);
    expect(zip.code).toBe(2);
    expect(zip.stderr).toContain('unsupported file type');
    const eleven = Array.from({ length: 11 }, () => PAPER_PDF);
    const many = await kct(['ingest', 'questions', ...eleven, '-o', path('many.yaml')]);
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('11 files in one request; the limit is 10');
    const missing = await kct([
      'ingest',
      'rubrics',
      path('nope.pdf'),
      '--total-score',
      '10',
      '--cum-method',
      'sum',
      '-o',
      path('nope.yaml'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('file not found');
    const noMethod = await kct(['ingest', 'rubrics', RUBRIC_PDF, '--total-score', '10', '-o', path('nm.yaml')]);
    expect(noMethod.code).toBe(2);
    expect(noMethod.stderr).toMatch(/--cum-method/);
    expect(existsSync(path('zip.yaml')) || existsSync(path('many.yaml')) || existsSync(path('nm.yaml'))).toBe(false);
  });

  it('refuses asset URLs that point inside the network (SSRF guard): HTTP 400, exit 2', async () => {
    for (const url of ['https://127.0.0.1/x', 'https://169.254.169.254/', 'https://localhost/paper.pdf', 'https://[::1]/paper.pdf']) {
      const run = await kct(['ingest', 'questions', '--asset', url, '-o', path('ssrf.yaml')]);
      expect(run.code, url).toBe(2);
      expect(run.stderr, url).toMatch(/error: assets\[0\]: .* is not allowed: .*not a public address.*\(HTTP 400/);
    }
    expect(existsSync(path('ssrf.yaml'))).toBe(false);
  });
});

describe('training', () => {
  it('a model still training is 409 (exit 7) for one-pass and assign; --wait gives up at --timeout (exit 8)', async () => {
    const kctS = kctSlow;
    const q = path('slow-questions.yaml');
    const r = path('slow-rubrics.yaml');
    expectOk(await kctS(['ingest', 'questions', PAPER_PDF, '-o', q]));
    expectOk(await kctS(['ingest', 'rubrics', RUBRIC_PDF, '--total-score', '30', '--cum-method', 'sum', '-o', r]));
    const create = await kctS(['models', 'create', '--questions', q, '--rubrics', r, '--yes', '--json']);
    expectOk(create);
    const model = parseJson<ModelRecord>(create.stdout);
    expect(model.post_status).toBe('training');
    const mark = await kctS(['one-pass', ESSAY, '--model', String(model.model_id)]);
    expect(mark.code).toBe(7);
    expect(mark.stderr).toMatch(/not ready.*\(HTTP 409/);
    const assign = await kctS([
      'assign',
      '--model',
      String(model.model_id),
      '--name',
      'A',
      '--desc',
      'B',
      '--deadline',
      '2030-01-01',
      '--expected',
      '3',
    ]);
    expect(assign.code).toBe(7);
    const wait = await kctS(['models', 'create', '--questions', q, '--rubrics', r, '--yes', '--wait', '--timeout', '300ms']);
    expect(wait.code).toBe(8);
    expect(wait.stderr).toMatch(/error: model \d+ is still training after 300 ms/);
    expect(wait.stderr).toMatch(/hint: .*kct models show \d+/);
    // the model was created: its line is on stdout all the same, for id=$(kct models create … | cut -d' ' -f1)
    const id = /model (\d+) is still training/.exec(wait.stderr)![1];
    expect(wait.stdout).toMatch(new RegExp(`^${id}  training`));
    const json = await kctS(['models', 'create', '--questions', q, '--rubrics', r, '--yes', '--wait', '--timeout', '300ms', '--json']);
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stdout)).toMatchObject({ post_status: 'training' });
  });
});

describe('kct models new (guided)', () => {
  it('refuses off a terminal with exit 2 and prints the step-by-step commands', async () => {
    const run = await kct(['models', 'new', PAPER_PDF, '--rubric', RUBRIC_DOCX, '--total-score', '30']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is interactive');
    expect(run.stderr).toContain('CI is set (CI=1), and kct never prompts in CI'); // the harness sets CI=1: not "no terminal"
    expect(run.stderr).toContain(`1. kct ingest questions ${PAPER_PDF} --out questions.yaml`);
    expect(run.stderr).toContain(`2. kct ingest rubrics ${RUBRIC_DOCX} --total-score 30 --cum-method sum --out rubrics.yaml`);
    // the name and description are the questions file's: no placeholder to be copied as the model's name
    expect(run.stderr).toContain('4. kct models create --questions questions.yaml --rubrics rubrics.yaml --wait --yes');
    expect(run.stderr).not.toContain('<name>');
    const named = await kct(['models', 'new', PAPER_PDF, '--rubric', RUBRIC_DOCX, '--total-score', '30', '--name', 'Homework letter']);
    expect(named.stderr).toContain("--rubrics rubrics.yaml --name 'Homework letter' --wait --yes");
  });
});
