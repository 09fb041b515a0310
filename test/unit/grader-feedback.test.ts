// Feedback a teacher could hand back: consistent (nothing both shown and lacking), naming the level
// at the score and the next one up, quoting the answer, advising in the rubric's terms, and saying
// the same thing in every style. Checked on every labelled answer against its model's rubric.
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { caveatText } from '../../packages/sandbox/src/engines/grading/feedback.js';
import { advice, lacks, shows } from '../../packages/sandbox/src/engines/grading/phrases.js';
import { contradicts } from '../../packages/sandbox/src/engines/grading/signals.js';
import { normaliseAnswer } from '../../packages/sandbox/src/engines/grading/text.js';
import { labelledAnswers } from './grader-helpers.js';

const STYLES = ['Bullet', 'Short', 'Long'] as const;
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

const cases = labelledAnswers().map((a) => ({
  name: a.name,
  kind: a.kind,
  input: { ...a.model, answerText: a.text, style: 'Bullet' } as GradeInput,
}));

describe('feedback on the labelled answers', () => {
  it('never says a thing is both shown and lacking', () => {
    for (const c of cases) {
      for (const j of judgements(c.input)) {
        // a point met whose part the answer goes against is named in both: what it shows, and what it goes against
        const shown = new Set(j.shows.filter((p) => !contradicts(p.measured)).map((p) => p.id));
        for (const p of j.lacks) expect(shown.has(p.id), `${c.name} ${j.item}: ${p.id}`).toBe(false);
        const bullet = grade({ ...c.input, style: 'Bullet' }).evaluation.find((e) => e.item === j.item)!.feedback;
        const showsLine = bullet.split('\n').find((l) => l.startsWith('- Shows')) ?? '';
        const lacksLine = bullet.split('\n').find((l) => l.startsWith('- Lacks:')) ?? '';
        for (const p of j.shows) expect(lacksLine, `${c.name} ${j.item}`).not.toContain(shows(p.measured));
        for (const p of j.lacks) expect(showsLine, `${c.name} ${j.item}`).not.toContain(lacks(p.measured));
      }
    }
  });

  it('gives the same judgement in every style: score, level, next level, quotation and next step', () => {
    for (const c of cases) {
      const js = judgements(c.input);
      const outs = STYLES.map((style) => grade({ ...c.input, style }));
      for (const out of outs) expect(out.score).toBe(outs[0].score);
      js.forEach((j, i) => {
        for (const [k, out] of outs.entries()) {
          const e = out.evaluation[i];
          expect(e.score).toBe(j.score);
          const fb = flat(e.feedback);
          if (j.empty) continue;
          const level = j.standing.level;
          expect(fb, `${c.name} ${j.item}`).toMatch(new RegExp(`(?:at|nearest|halfway between) level ${level.score}\\b`));
          const descriptor = flat(level.descriptor)
            .replace(/[.;]+$/, '')
            .slice(0, 60);
          // A descriptor is quoted only when nothing measured goes against it.
          if (j.descriptorHolds && STYLES[k] !== 'Short') expect(fb, `${c.name} ${j.item}`).toContain(descriptor);
          if (!j.descriptorHolds) expect(fb, `${c.name} ${j.item}`).not.toContain(`(“${descriptor}`);
          if (j.standing.next) expect(fb).toContain(`towards level ${j.standing.next.score}`);
          if (j.quote) expect(fb).toContain(`“${j.quote.text}”`);
          if (j.step && !j.caveat) expect(fb).toContain(advice(j.step.measured));
        }
      });
    }
  });

  it('quotes a short piece of the answer itself, as its writer wrote it', () => {
    for (const c of cases) {
      const answer = flat(normaliseAnswer(c.input.answerText));
      for (const j of judgements(c.input)) {
        if (!j.quote) continue;
        const words = j.quote.text.replace(/^…|…$/g, '').split(' ');
        expect(words.length, c.name).toBeLessThanOrEqual(18);
        expect(answer, `${c.name} ${j.item}`).toContain(words.join(' '));
      }
    }
  });

  it('advises in terms of the rubric, never with a bare keyword', () => {
    for (const c of cases) {
      for (const j of judgements(c.input)) {
        if (!j.step) continue;
        const text = advice(j.step.measured);
        expect(text.split(' ').length, `${c.name} ${j.item}: ${text}`).toBeGreaterThanOrEqual(6);
        expect(text).not.toMatch(/^(?:say|write) more about “[^”]+”$/);
      }
    }
  });

  it('says it is the sandbox grader in every style', () => {
    for (const c of cases.slice(0, 6)) {
      for (const style of STYLES) {
        for (const e of grade({ ...c.input, style }).evaluation) expect(e.feedback.toLowerCase(), `${c.name} ${style}`).toMatch(/sandbox/);
      }
    }
  });

  it('says why an off-topic or copied answer is held down, on every criterion', () => {
    for (const c of cases.filter((x) => x.kind === 'off-topic' || x.kind === 'copied question')) {
      for (const j of judgements(c.input)) {
        const said = j.caveat ? caveatText(j.caveat) : j.empty?.copied ? 'copies the question' : '';
        expect(said, c.name).toMatch(c.kind === 'off-topic' ? /off the (?:topic|task)/ : /copies the question/);
      }
    }
  });

  it("reads a letter's greeting and sign-off as its frame, not as its opening and conclusion", () => {
    const letter = cases.find((c) => c.name === 'persuasive/strong-1.txt')!;
    const thesis = judgements(letter.input).find((j) => j.item === 'Thesis & position')!;
    expect(thesis.shows.map((p) => p.id)).toContain('position');
    expect(thesis.quote?.text).toMatch(/^I am writing to urge you to keep compulsory school uniforms/);
  });
});
