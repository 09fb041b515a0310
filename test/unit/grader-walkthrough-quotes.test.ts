// A teacher's walkthrough, round 2: a quotation offered for a finding shows what the finding claims.
// 1. The conclusion quoted was offered for "an opening paragraph and a conclusion", the opening for
//    "held to the conclusion": a quotation is now offered for the part it shows (signals.ts, Part).
// 3. A bulleted list was credited "an opening paragraph and a conclusion", quoted with its "- ":
//    a list is one part of the answer, not a paragraph an item, and its markers are never quoted.
// fast-check, seeded (KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in docs/testing.md).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { readClaims } from '../../packages/sandbox/src/engines/grading/claims.js';
import { readAnswer } from '../../packages/sandbox/src/engines/grading/document.js';
import { answer, KNOWN, RUNS, SEED, SENTENCES } from './grader-arbitraries.js';
import { inputOf as input, type Marking, PHONES as phones, seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const LETTER = `Dear Headteacher,

Mobile phones should not be banned at our school because they help us learn.

Many students use their phones to check homework. For example, my friend Sam uses a dictionary app every day. This shows that phones can be a tool for learning.

Some teachers say phones distract students. However, students could hand their phones in at the start of the day.

In conclusion, phones should not be banned because they help us learn.

Yours sincerely,
Alex`;

/** Claims that only a sentence of the opening can show, and those only one of the end can. */
const OPENING = new Set(['introduction', 'position_early']);
const END = new Set(['conclusion', 'position_held', 'judgement_reached']);

/** Where each sentence the quotation may be from is: in the opening (first paragraph, or first third of one), in the end (last paragraph, or last third). */
function placesOf(m: Marking, text: string, quote: string): { opening: boolean; end: boolean }[] {
  const doc = readAnswer(text, m.questionText);
  const words = quote.replace(/^…|…$/g, '');
  const n = doc.sentences.length;
  const third = Math.max(1, Math.min(3, Math.floor(n / 3)));
  const last = doc.paragraphs.length - 1;
  const places = doc.sentences.flatMap((s, i) => {
    if (!s.text.replace(/\s+/g, ' ').includes(words)) return [];
    if (last > 0) return [{ opening: s.paragraph === 0, end: s.paragraph === last }];
    return [{ opening: i < third, end: n >= 3 && i >= n - third }];
  });
  expect(places.length, `${quote} is not a sentence of\n${text}`).toBeGreaterThan(0);
  return places;
}

/** Every quotation offered for a point shown claims only a part it can show: the opening's from the opening, the end's from the end. */
function checkQuotes(m: Marking, text: string): void {
  for (const e of grade(input(m, text)).evaluation) {
    const read = readBullet(e.feedback);
    if (read.proof?.kind !== 'shows' || !read.quote) continue;
    const claimed = readClaims(read.proof.finding, 'states').flatMap((c) => c.map((x) => x.feature));
    const [opening, end] = [claimed.some((c) => OPENING.has(c)), claimed.some((c) => END.has(c))];
    const shown = placesOf(m, text, read.quote).some((p) => (!opening || p.opening) && (!end || p.end));
    expect(shown, `${m.name}, ${e.item}: ${read.proof.finding}\n${e.feedback}\n${text}`).toBe(true);
  }
}

describe('a quotation is offered only for what it shows', () => {
  it('offers the opening for the position stated there, and the conclusion for the conclusion, not for both', () => {
    const [argument, organisation] = grade(input(phones, LETTER)).evaluation.map((e) => readBullet(e.feedback));
    expect(argument.shows).toContain('a position stated in the opening and held to the conclusion');
    expect(argument.quote).toBe('Mobile phones should not be banned at our school because they help us learn.');
    expect(argument.proof).toEqual({ kind: 'shows', finding: 'a position stated in the opening' });
    expect(organisation.shows).toContain('an opening paragraph and a conclusion in its last paragraph');
    expect(organisation.quote).toBe('In conclusion, phones should not be banned because they help us learn.');
    expect(organisation.proof).toEqual({ kind: 'shows', finding: 'a conclusion in its last paragraph' });
    // Short puts a quotation beside its line only when it shows the whole line
    const short = grade(input(phones, LETTER, 'Short')).evaluation[1].feedback;
    expect(short).not.toContain('in its last paragraph (“In conclusion');
    expect(short).toContain('(shows a conclusion in its last paragraph)');
  });

  it(`never offers a sentence of the end for the opening, nor one of the opening for the end (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SENTENCES.position, 'Mobile phones should not be banned at our school because they help us learn.'),
        answer,
        fc.constantFrom(...SENTENCES.conclusion, 'In conclusion, phones should not be banned because they help us learn.'),
        fc.constantFrom(...KNOWN, phones),
        (opening, body, conclusion, m) => checkQuotes(m, [opening, body, conclusion].join('\n\n')),
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

const LIST = '- Uniforms are good.\n- They save money.\n- They stop bullying.\n- In conclusion, uniforms are good.\n';
const MARKERS = ['- ', '• ', '* ', '1. '] as const;
/** A paragraph set out as a list, one sentence an item. */
const listed = (paragraph: string, marker: (typeof MARKERS)[number]) =>
  paragraph
    .split(/(?<=[.!?]["”]?)\s+(?=["“A-Z])/)
    .map((s, i) => `${marker === '1. ' ? `${i + 1}. ` : marker}${s}`)
    .join('\n');
const MARKED = /^(?:[-–•*]|\d{1,2}[.)])\s/;

describe('a list is one part of the answer, and its markers are never quoted', () => {
  it('does not credit a 15-word bulleted list with an opening paragraph, nor quote its "- "', () => {
    const organisation = grade(input(seededModel(12), LIST)).evaluation.find((e) => e.item === 'Organisation')!;
    const read = readBullet(organisation.feedback);
    expect(read.shows.join('; ')).not.toMatch(/opening paragraph/);
    expect(read.quote).toBe('In conclusion, uniforms are good.');
    expect(readAnswer(LIST, undefined).paragraphs).toHaveLength(1);
  });

  it(`counts a paragraph set out as a list as one paragraph, and quotes no marker (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(answer, fc.nat(), fc.constantFrom(...MARKERS), fc.constantFrom(...KNOWN), (text, pick, marker, m) => {
        const paragraphs = text.split('\n\n');
        const k = pick % paragraphs.length;
        const asList = paragraphs.map((p, i) => (i === k ? listed(p, marker) : p)).join('\n\n');
        const where = asList;
        expect(readAnswer(asList, m.questionText).paragraphs.length, where).toBe(readAnswer(text, m.questionText).paragraphs.length);
        for (const j of judgements(input(m, asList))) if (j.quote) expect(j.quote.text, where).not.toMatch(MARKED);
        // all of it a list: one part, no opening paragraph
        const whole = paragraphs.map((p) => listed(p, marker)).join('\n');
        for (const j of judgements(input(m, whole))) {
          const frame = j.points.find((p) => p.measured.id === 'frame')?.measured;
          if (frame?.id === 'frame') expect(frame.opens, whole).toBe(false);
          if (j.quote) expect(j.quote.text, whole).not.toMatch(MARKED);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
