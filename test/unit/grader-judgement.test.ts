// Feedback that is true (issue 35), as properties over generated answers and rubrics (fast-check,
// seeded, shrinking) and over every real answer against every rubric the sandbox knows: each
// criterion has one typed judgement, and every sentence of its feedback is a template over it.
// - No point is both in Shows and in Lacks, and the next step is never a point in Shows.
// - The level named is the one whose points are the score, or nearest it.
// - Every number the feedback states (outside quotations) is one of the judgement's.
// - A quotation offered as proof of a point holds what was found for it.
// - More slips never score higher on accuracy, everything else equal.
// KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in docs/testing.md.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, type GradeRubric, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { readAnswer } from '../../packages/sandbox/src/engines/grading/document.js';
import { caveatAdvice, feedback, fmt } from '../../packages/sandbox/src/engines/grading/feedback.js';
import type { Judgement } from '../../packages/sandbox/src/engines/grading/judgement.js';
import { levelsOf } from '../../packages/sandbox/src/engines/grading/levels.js';
import {
  AUTHOR_VIEW,
  CONNECTIVE_START,
  COUNTER,
  EXPLAIN,
  POSITION,
  REASONS,
  VERDICT,
} from '../../packages/sandbox/src/engines/grading/patterns.js';
import { advice, lacks, shows } from '../../packages/sandbox/src/engines/grading/phrases.js';
import { contradicts } from '../../packages/sandbox/src/engines/grading/signals.js';
import { readThrough } from '../../packages/sandbox/src/engines/grading/slips.js';
import { isWord } from '../../packages/sandbox/src/engines/grading/spelling.js';
import { normaliseAnswer } from '../../packages/sandbox/src/engines/grading/text.js';
import { answer, KNOWN, RUNS, rubric, SEED } from './grader-arbitraries.js';
import { labelledAnswers, type Marking, realAnswers } from './grader-helpers.js';
import { numbersIn, numbersOf, readBullet } from './grader-reading.js';

const input = (m: Marking, answerText: string): GradeInput => ({ ...m, answerText, style: 'Bullet' });
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The patterns a quotation offered for a point must match: the point's own detector, reading through slips as the grader does. */
const DETECTS: Partial<Record<string, (quote: string) => boolean>> = {
  // a position is a marker ("In my view") or a verdict on the question's topic ("Uniforms are bad")
  position: (q) => [POSITION, AUTHOR_VIEW, VERDICT].some((p) => p.test(readThrough(q))),
  precision: (q) => [POSITION, AUTHOR_VIEW, VERDICT].some((p) => p.test(readThrough(q))) && REASONS.test(readThrough(q)),
  counter: (q) => COUNTER.test(readThrough(q)),
  connectives: (q) => CONNECTIVE_START.test(readThrough(q).replace(/^["“]/, '')),
  explanation: (q) => new RegExp(EXPLAIN.source, 'i').test(readThrough(q)),
};

/** Every check of one marking, on its judgements and its feedback in every style. */
function check(m: Marking, answerText: string, label: string): void {
  const js = judgements(input(m, answerText));
  const bullets = grade(input(m, answerText)).evaluation;
  const answerFlat = flat(normaliseAnswer(answerText));
  js.forEach((j: Judgement, i) => {
    const feedback = bullets[i].feedback;
    const where = `${label}, “${j.item}”:\n${feedback}`;
    // One judgement: the score in the result is the judgement's.
    expect(bullets[i].score, where).toBe(j.score);

    // No point in both Shows and Lacks but one the answer goes against (a conclusion against its
    // opening); the next step is the biggest gap, never a point only shown.
    const shown = new Set(j.shows.filter((p) => !contradicts(p.measured)).map((p) => p.id));
    for (const p of j.lacks) expect(shown.has(p.id), where).toBe(false);
    if (j.step) {
      expect(shown.has(j.step.id), where).toBe(false);
      expect(
        j.lacks.map((p) => p.id),
        where,
      ).toContain(j.step.id);
    }
    const read = readBullet(feedback);
    expect(read.shows, where).toEqual(j.shows.map((p) => shows(p.measured)));
    expect(read.lacks, where).toEqual(j.lacks.map((p) => lacks(p.measured)));
    for (const s of read.shows) expect(read.lacks, where).not.toContain(s);
    const first = j.caveat ? caveatAdvice(j.caveat) : undefined;
    if (first) expect(read.step, where).toBe(first);
    else if (j.step) expect(read.step, where).toBe(advice(j.step.measured));

    // The level named is at the score's points or nearest them (both, halfway between two).
    if (!j.empty) {
      const points = levelsOf(m.rubrics[i]?.levels, j.max).map((l) => l.score);
      const nearest = Math.min(...points.map((p) => Math.abs(p - j.score)));
      expect(read.levels.length, where).toBeGreaterThan(0);
      for (const named of read.levels) expect(Math.abs(named - j.score), where).toBeCloseTo(nearest, 9);
    }

    // A score is never moved up to a level: an answer held down as too short stays under its length factor (below 0.8).
    if (j.caveat?.kind === 'short' && !j.prior) expect(j.score, where).toBeLessThanOrEqual(Math.round(j.max * 0.9 * 0.8 * 2) / 2);
    // Every number said is one of the record's; every line's numbers are its own point's.
    const recorded = numbersOf(j);
    for (const n of numbersIn(feedback)) expect(recorded, `${where}\n${n} is not in the judgement`).toContain(n);
    for (const p of [...j.shows, ...j.lacks]) {
      const own = numbersOf(p.measured);
      for (const n of numbersIn(j.shows.includes(p) ? shows(p.measured) : lacks(p.measured)))
        expect(own, `${where}\n${p.id}: ${n}`).toContain(n);
    }
    // Words of praise only where a written threshold says so.
    expect(feedback.replace(/“[^”]*”/g, '“…”'), where).not.toMatch(/\bfairly\b|\bseveral\b/);
    const counter = [...j.shows, ...j.lacks].find((p) => p.id === 'counter')?.measured;
    // the grader's own "at length": a level descriptor it quotes is the rubric's words
    if (counter?.id === 'counter' && /at length/.test(feedback.replace(/“[^”]*”/g, '“…”'))) expect(counter.atLength, where).toBe(true);

    // A quotation is the answer's own words, and holds what it is offered for.
    if (j.quote) {
      const words = j.quote.text.replace(/^…|…$/g, '');
      expect(answerFlat, where).toContain(words);
      if (j.quote.shows !== undefined) expect(j.quote.text, where).toContain(j.quote.shows);
      const detects = DETECTS[j.quote.point];
      if (!j.quote.problem && detects && !j.quote.text.startsWith('…')) expect(detects(words), where).toBe(true);
      if (j.quote.problem && j.quote.point === 'accuracy' && j.quote.shows) expect(isWord(j.quote.shows.toLowerCase()), where).toBe(false);
    }
  });
  // The same judgement in every style, each saying its score.
  for (const j of js) for (const style of ['Short', 'Long'] as const) expect(feedback(j, style)).toContain(fmt(j.score));
}

describe('one typed judgement per criterion, and feedback rendered from it', () => {
  it(`holds for generated answers against every known rubric and a generated one (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(answer, rubric, (text, generated) => {
        for (const m of [generated, ...KNOWN]) check(m, text, m.name);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('holds for every real answer against every known rubric and four generated ones', () => {
    const generated = fc.sample(rubric, { seed: SEED, numRuns: 4 });
    for (const a of [...labelledAnswers(), ...realAnswers()]) {
      for (const m of [...KNOWN, ...generated]) check(m, a.text, `${a.name} against ${m.name}`);
    }
  });
});

// ---------- monotone: more slips never score higher on accuracy ----------

/** A misspelling of a word: two of its inner letters swapped, when that is no English word. */
function misspell(word: string): string | undefined {
  for (let i = 1; i + 2 < word.length; i++) {
    const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    if (swapped !== word && !isWord(swapped)) return swapped;
  }
  return undefined;
}

/** Lower-case words of six letters or more, outside quotation marks: what a student might misspell, with nothing else about the answer changed. */
function candidates(text: string): { index: number; word: string; slip: string }[] {
  const out: { index: number; word: string; slip: string }[] = [];
  const quoted = [...text.matchAll(/["“][^"”\n]*["”]/g)].map((m) => [m.index, m.index + m[0].length]);
  for (const m of text.matchAll(/(?<![\p{L}'’-])\p{Ll}{6,}(?![\p{L}'’-])/gu)) {
    if (quoted.some(([a, b]) => m.index >= a && m.index < b)) continue;
    const slip = isWord(m[0]) ? misspell(m[0]) : undefined;
    if (slip) out.push({ index: m.index, word: m[0], slip });
  }
  return out;
}

const ACCURACY: GradeRubric[] = [
  { item: 'Spelling, punctuation and grammar', max_score: 6 },
  {
    item: 'Language & conventions',
    max_score: 4,
    levels: [
      { score: 4, descriptor: 'Virtually error-free.' },
      { score: 3, descriptor: 'A few slips.' },
      { score: 2, descriptor: 'Frequent errors.' },
      { score: 0, descriptor: 'Errors make the writing hard to follow.' },
    ],
  },
];

/**
 * What the grader reads as the writer's own (not sentences copying the question, not headings): how
 * often `slip` is in it, and how many words it set aside as copied.
 */
function ownWords(marking: Marking, text: string, slip: string): string {
  const whole = new RegExp(`(?<![\\p{L}'’-])${slip}(?![\\p{L}'’-])`, 'gu');
  const doc = readAnswer(text, input(marking, text).questionText);
  return `${doc.sentences.reduce((n, s) => n + (s.text.match(whole)?.length ?? 0), 0)} ${doc.copiedWords}`;
}

describe('more slips never score higher on accuracy, everything else equal', () => {
  it(`holds when words of generated answers are misspelt, one more at a time (seed ${SEED}, ${RUNS} runs)`, () => {
    let compared = 0;
    fc.assert(
      fc.property(answer, fc.constantFrom(...KNOWN), fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (text, m, picks) => {
        const marking = { ...m, rubrics: [...m.rubrics, ...ACCURACY] };
        let current = text;
        let before = judgements(input(marking, current));
        for (const pick of picks) {
          const found = candidates(current);
          if (found.length === 0) break;
          const c = found[pick % found.length];
          const [was, copied] = ownWords(marking, current, c.slip).split(' ').map(Number);
          current = current.slice(0, c.index) + c.slip + current.slice(c.index + c.word.length);
          const after = judgements(input(marking, current));
          // everything else equal: the slip is in the writer's own words, not a sentence copying the
          // question (set aside, as it should be), nor one that stops copying it by this slip
          if (ownWords(marking, current, c.slip) !== `${was + 1} ${copied}`) {
            before = after;
            continue;
          }
          compared += 1;
          after.forEach((j, i) => {
            const slips = (x: Judgement) => [...x.shows, ...x.lacks].find((p) => p.id === 'accuracy')?.measured;
            const [was, now] = [slips(before[i]), slips(j)];
            if (was?.id === 'accuracy' && now?.id === 'accuracy') expect(now.slips, `${j.item}: ${c.word} → ${c.slip}`).toBe(was.slips + 1);
            if (/spelling|language/i.test(j.item))
              expect(j.score, `${m.name} “${j.item}”: ${c.word} → ${c.slip}\n${current}`).toBeLessThanOrEqual(before[i].score);
          });
          before = after;
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // most steps are a slip in the writer's own words: the property compares, not only skips
    expect(compared).toBeGreaterThan(RUNS);
  });

  it('holds for the real answers, with up to five of their words misspelt', () => {
    for (const a of [...labelledAnswers(), ...realAnswers()].filter((x) => x.text.length < 4000)) {
      const m = KNOWN[0];
      const marking = { ...m, rubrics: [...m.rubrics, ...ACCURACY] };
      let current = a.text;
      let before = judgements(input(marking, current));
      for (let k = 0; k < 5; k++) {
        const found = candidates(current);
        if (found.length === 0) break;
        const c = found[(k * 7) % found.length];
        current = current.slice(0, c.index) + c.slip + current.slice(c.index + c.word.length);
        const after = judgements(input(marking, current));
        after.forEach((j, i) => {
          if (/spelling|language/i.test(j.item))
            expect(j.score, `${a.name} “${j.item}”: ${c.word} → ${c.slip}`).toBeLessThanOrEqual(before[i].score);
        });
        before = after;
      }
    }
  });
});
