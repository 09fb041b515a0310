// What a new user sees when they mark real documents in the sandbox: labelled answers as PDF, DOCX,
// RTF and TXT files, sent with the built kct, ranked as a teacher would, with the paragraphs the
// documents really have.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, GENERATED, parseJson, useSandbox } from './harness.js';

interface Result { status: string; score: number; evaluation: { item: string; score: number; feedback: string }[] }

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
