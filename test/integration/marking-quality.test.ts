// What a new user sees when they mark real documents in the sandbox: labelled answers as PDF, DOCX,
// RTF and TXT files, sent with the built kct, ranked as a teacher would, with the paragraphs the
// documents really have; the README's own model built from examples/ marking the letter written
// for it (issue 25); feedback whose level and lines agree; a result that says who marked it; and
// slips counted as they are, in a Word essay with 17 misspelt words (issue 35).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, GENERATED, parseJson, ROOT, type RunResult, tempDir, useSandbox } from './harness.js';

interface Result {
  status: string;
  score: number;
  graded_by?: string;
  evaluation: { item: string; score: number; feedback: string }[];
}

const shared = useSandbox();
const persuasive = (name: string) => join(FIXTURES, 'graded', 'persuasive', name);

async function mark(file: string, style = 'Long'): Promise<Result> {
  const run = await shared.kct(['one-pass', file, '--model', '12', '--style', style, '--json'], { timeoutMs: 90_000 });
  expect(run.code, run.stderr).toBe(0);
  return parseJson<Result>(run.stdout);
}

describe('marking documents as a teacher would', () => {
  it('ranks a strong PDF above a middling DOCX above a weak TXT', async () => {
    const strong = await mark(join(GENERATED, 'graded-strong.pdf'));
    const middling = await mark(join(GENERATED, 'graded-middling.docx'));
    const weak = await mark(persuasive('weak-1.txt'));
    expect(strong.score).toBeGreaterThan(middling.score + 3);
    expect(middling.score).toBeGreaterThan(weak.score + 3);
  }, 120_000);

  it('counts the paragraphs the documents have, not their lines', async () => {
    // Six paragraphs each, laid out in a two-page PDF and in an RTF with one \par per paragraph.
    for (const file of [join(GENERATED, 'graded-strong.pdf'), join(GENERATED, 'graded-paragraphs.rtf')]) {
      const organisation = (await mark(file, 'Bullet')).evaluation.find((e) => e.item === 'Organisation')!;
      expect(organisation.feedback, file).toContain('6 paragraphs');
    }
  }, 120_000);

  it('holds an answer that copies the question at 0, saying why', async () => {
    const copied = await mark(persuasive('copied-question.txt'), 'Short');
    expect(copied.score).toBe(0);
    expect(copied.evaluation[0].feedback).toMatch(/copies the question/);
  });
});

describe('the cases of issue 25, through the built kct', () => {
  const EXAMPLES = join(ROOT, 'examples');

  it("the README's model, built from the example PDF and DOCX, marks the letter written for it as on the topic", async () => {
    const dir = tempDir();
    const ok = (run: RunResult) => expect(run.code, run.stderr).toBe(0);
    ok(await shared.kct(['ingest', 'questions', join(EXAMPLES, 'question-paper.pdf'), '-o', join(dir, 'questions.yaml')]));
    ok(
      await shared.kct([
        'ingest',
        'rubrics',
        join(EXAMPLES, 'rubric.docx'),
        '--total-score',
        '30',
        '--cum-method',
        'sum',
        '-o',
        join(dir, 'rubrics.yaml'),
      ]),
    );
    const created = await shared.kct(
      ['models', 'create', '--questions', join(dir, 'questions.yaml'), '--rubrics', join(dir, 'rubrics.yaml'), '--wait', '--yes', '--json'],
      { timeoutMs: 60_000 },
    );
    ok(created);
    const model = parseJson<{ model_id: number }>(created.stdout).model_id;
    const run = await shared.kct(['one-pass', join(EXAMPLES, 'homework-letter.txt'), '--model', String(model), '--json'], {
      timeoutMs: 90_000,
    });
    ok(run);
    const letter = parseJson<Result>(run.stdout);
    expect(letter.score).toBeGreaterThanOrEqual(18);
    for (const e of letter.evaluation) {
      expect(e.feedback).not.toMatch(/key terms|off the topic/);
      expect(e.feedback).not.toContain('Lacks: a reply to the opposing view');
    }
  }, 180_000);

  it('a weak essay that states its position in its first sentence is never "no identifiable position"; the table says who marked it', async () => {
    const weak = await mark(join(FIXTURES, 'real', 'weak-uniforms.txt'), 'Bullet');
    expect(weak.graded_by).toBe("the sandbox's offline grader");
    expect(weak.evaluation.find((e) => e.item === 'Thesis & position')!.feedback).not.toMatch(/No identifiable position/);
    const table = await shared.kct(['one-pass', join(FIXTURES, 'real', 'weak-uniforms.txt'), '--model', '12'], { timeoutMs: 90_000 });
    expect(table.stdout).toContain("Marked by the sandbox's offline grader");
  }, 120_000);
});

describe('the cases of issue 35, through the built kct', () => {
  it('counts the 17 misspelt words of a Word essay, and marks its Language below an essay without slips', async () => {
    const sloppy = await mark(join(GENERATED, 'misspelt-uniforms.docx'), 'Bullet');
    const language = sloppy.evaluation.find((e) => e.item === 'Language & conventions')!;
    expect(language.feedback).toContain('20 slips in 206 words: 17 misspelt words such as “compulsary”');
    const clean = await mark(join(GENERATED, 'essay-middling.docx'), 'Bullet');
    expect(clean.evaluation.find((e) => e.item === 'Language & conventions')!.score).toBeGreaterThan(language.score);
  }, 120_000);

  it('names the level at or nearest each score, and never praises "fairly" or "at length" a reply of one sentence', async () => {
    const result = await mark(join(FIXTURES, 'essay.txt'), 'Bullet');
    for (const e of result.evaluation) {
      expect(e.feedback).toMatch(/\(sandbox grader\): (?:at|nearest|halfway between) level \d/);
      expect(e.feedback.replace(/“[^”]*”/g, '“…”')).not.toMatch(/fairly|at length|several/);
    }
  }, 120_000);
});
