// Feedback a teacher could hand back: consistent (nothing both shown and lacking), naming the level
// reached and the next one up, quoting the answer, advising in the rubric's terms, and saying the
// same thing in every style. Checked on every labelled answer against its model's rubric.
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, verdicts } from '../../packages/sandbox/src/engines/grader.js';
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
      for (const v of verdicts(c.input)) {
        const shown = new Set(v.strengths.map((s) => s.id));
        for (const g of v.gaps) expect(shown.has(g.id), `${c.name} ${v.item}: ${g.id}`).toBe(false);
        const bullet = grade({ ...c.input, style: 'Bullet' }).evaluation.find((e) => e.item === v.item)!.feedback;
        const shows = bullet.split('\n').find((l) => l.startsWith('- Shows:')) ?? '';
        const lacks = bullet.split('\n').find((l) => l.startsWith('- Lacks:')) ?? '';
        for (const s of v.strengths) expect(lacks, `${c.name} ${v.item}`).not.toContain(s.text);
        for (const g of v.gaps) expect(shows, `${c.name} ${v.item}`).not.toContain(g.text);
      }
    }
  });

  it('gives the same verdict in every style: score, level reached, next level, quotation and next step', () => {
    for (const c of cases) {
      const vs = verdicts(c.input);
      const outs = STYLES.map((style) => grade({ ...c.input, style }));
      for (const out of outs) expect(out.score).toBe(outs[0].score);
      vs.forEach((v, i) => {
        for (const out of outs) {
          const e = out.evaluation[i];
          expect(e.score).toBe(v.score);
          const fb = flat(e.feedback);
          if (!v.result) {
            expect(fb).toContain(v.advice.slice(1));
            continue;
          }
          if (v.fit !== 'fits') {
            // Held down as off the topic, or no level fits: the level is named without a descriptor that is untrue of this answer.
            expect(fb, `${c.name} ${v.item}`).toMatch(new RegExp(`(?:held at|closest to) level ${v.level.score}\\b`));
            expect(fb).not.toContain(
              flat(v.level.descriptor)
                .replace(/[.;]+$/, '')
                .slice(0, 60),
            );
          } else {
            expect(fb, `${c.name} ${v.item}`).toContain(`level ${v.level.score} (“`);
            expect(fb).toContain(
              flat(v.level.descriptor)
                .replace(/[.;]+$/, '')
                .slice(0, 60),
            );
          }
          if (v.next)
            expect(fb).toContain(
              flat(v.next.descriptor)
                .replace(/[.;]+$/, '')
                .slice(0, 60),
            );
          if (v.quote) expect(fb).toContain(`“${v.quote.text}”`);
          expect(fb).toContain(v.advice);
        }
      });
    }
  });

  it('quotes a short piece of the answer itself, as its writer wrote it', () => {
    for (const c of cases) {
      const answer = flat(normaliseAnswer(c.input.answerText));
      for (const v of verdicts(c.input)) {
        if (!v.quote) continue;
        const words = v.quote.text.replace(/…$/, '').split(' ');
        expect(words.length, c.name).toBeLessThanOrEqual(18);
        expect(answer, `${c.name} ${v.item}`).toContain(words.join(' '));
      }
    }
  });

  it('advises in terms of the rubric, never with a bare keyword', () => {
    for (const c of cases) {
      for (const v of verdicts(c.input)) {
        expect(v.advice.split(' ').length, `${c.name} ${v.item}: ${v.advice}`).toBeGreaterThanOrEqual(6);
        expect(v.advice).not.toMatch(/^(?:say|write) more about “[^”]+”$/);
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
      for (const v of verdicts(c.input))
        expect(v.caveat, c.name).toMatch(c.kind === 'off-topic' ? /off the (?:topic|task)/ : /copies the question/);
    }
  });

  it("reads a letter's greeting and sign-off as its frame, not as its opening and conclusion", () => {
    const letter = cases.find((c) => c.name === 'persuasive/strong-1.txt')!;
    const thesis = verdicts(letter.input).find((v) => v.item === 'Thesis & position')!;
    expect(thesis.strengths.map((s) => s.id)).toContain('position');
    expect(thesis.quote?.text).toMatch(/^I am writing to urge you to keep compulsory school uniforms/);
  });
});
