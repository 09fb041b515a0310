// The cases a new user met (issue 25), as fixtures: the homework letter against the model the
// README builds from examples/, the weak essay whose first sentence states its position, a
// misspelt sentence, and a scanned answer's OCR noise.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { readClaims } from '../../packages/sandbox/src/engines/grading/claims.js';
import { caveatText } from '../../packages/sandbox/src/engines/grading/feedback.js';
import { EXAMPLE_ANSWERS, EXAMPLES, examplesModel, type Marking, REAL, SEEDED, seededModel } from './grader-helpers.js';

const letter = readFileSync(join(EXAMPLES, 'homework-letter.txt'), 'utf8');
const weak = readFileSync(join(REAL, 'weak-uniforms.txt'), 'utf8');
const scanned = readFileSync(join(REAL, 'ocr-uniforms.txt'), 'utf8');
const mark = (m: Marking, answerText: string, style: GradeInput['style'] = 'Bullet'): GradeInput => ({ ...m, answerText, style });
const offTopic = (m: Marking, text: string) =>
  judgements(mark(m, text)).some((j) => j.caveat !== undefined && /off the (?:topic|task)/.test(caveatText(j.caveat)));
/** Whether a level's descriptor says there is no position at all. */
const deniesPosition = (descriptor: string) =>
  readClaims(descriptor).some((c) => c.length === 1 && c[0].feature === 'position' && !c[0].holds);

describe('the homework letter, against the model the README builds from examples/', () => {
  const model = examplesModel();

  it('is on the topic, and marked as the on-topic letter it is', () => {
    expect(offTopic(model, letter)).toBe(false);
    const out = grade(mark(model, letter));
    expect(out.score).toBeGreaterThanOrEqual(18);
    for (const e of out.evaluation) expect(e.feedback).not.toMatch(/key terms|off the topic/);
  });

  it('recognises its reply to the opposing view', () => {
    const js = judgements(mark(model, letter));
    for (const j of js)
      expect(
        j.lacks.map((p) => p.id),
        j.item,
      ).not.toContain('counter');
    expect(js.flatMap((j) => j.shows.map((p) => p.id))).toContain('counter');
  });
});

describe('every answer in examples/', () => {
  it.each(EXAMPLE_ANSWERS)('$file is on the topic of the model it is written for', ({ file, model }) => {
    expect(offTopic(model(), readFileSync(join(EXAMPLES, file), 'utf8'))).toBe(false);
  });

  it('is off the topic of a model it is not written for: the check can tell', () => {
    expect(offTopic(examplesModel(), readFileSync(join(EXAMPLES, 'sample-essay.txt'), 'utf8'))).toBe(true);
    expect(offTopic(seededModel(12), letter)).toBe(true);
  });
});

describe('an answer that states its position in its first sentence', () => {
  it.each([
    ['the weak essay ("school uniforms should not be compulsory because…")', weak],
    ['the scanned essay ("Yes, | think they should…")', scanned],
  ])('%s is never "no identifiable position", against any known rubric', (_name, text) => {
    for (const m of [...SEEDED, examplesModel()]) {
      for (const j of judgements(mark(m, text))) {
        // A level's descriptor is quoted only when nothing measured goes against it: never "no position" here.
        const level = j.standing.level;
        if (j.descriptorHolds) expect(deniesPosition(level.descriptor), `${m.name} “${j.item}”: ${level.descriptor}`).toBe(false);
        expect(
          grade(mark(m, text))
            .evaluation.map((e) => e.feedback)
            .join('\n'),
        ).not.toMatch(/No identifiable position/i);
      }
    }
    const thesis = judgements(mark(seededModel(12), text)).find((j) => j.item === 'Thesis & position')!;
    expect(thesis.shows.map((p) => p.id)).toContain('position');
  });
});

describe('quotations that prove what they are cited for', () => {
  it('never offers a misspelt sentence as proof of the writing', () => {
    for (const m of [...SEEDED, examplesModel()]) {
      for (const j of judgements(mark(m, weak))) {
        if (!j.quote || j.quote.problem) continue;
        if (['vocabulary', 'accuracy', 'register', 'variety'].includes(j.quote.point))
          expect(j.quote.text, `${m.name} “${j.item}”`).not.toMatch(/alot|diffrent|comfterble|bullyed|doesnt/i);
      }
    }
    const language = judgements(mark(seededModel(12), weak)).find((j) => j.item === 'Language & conventions')!;
    expect(language.shows.map((p) => p.id)).not.toContain('vocabulary');
  });

  it('quotes a scanned answer as its writer wrote it: "I", not "|", and words whole', () => {
    const quotes = judgements(mark(seededModel(12), scanned)).flatMap((j) => (j.quote ? [j.quote.text] : []));
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) expect(q).not.toMatch(/\||af- ?ford|every- ?one/);
    expect(quotes).toContain('Yes, I think they should, because uniforms make every student equal and save families money.');
  });
});
