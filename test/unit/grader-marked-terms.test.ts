// A word or two in quotation marks that marks a term ("the "cool" kids", the so-called
// "discipline") quotes no source, so the grader counts no quotation for it, and its feedback does
// not call it specific support; a short quotation introduced as one (the word "blood", Macbeth's
// "vaulting ambition", calls it "a disgrace", Macbeth is "brave", one opening a sentence, one
// listed after another) still counts. Properties over generated sentences
// (fast-check, seeded, shrinking; KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in docs/testing.md).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade } from '../../packages/sandbox/src/engines/grader.js';
import { markedTerms, quotationSpans, readAnswer } from '../../packages/sandbox/src/engines/grading/document.js';
import { measure } from '../../packages/sandbox/src/engines/grading/features.js';
import { RUNS, SEED } from './grader-arbitraries.js';
import { type Marking, seededModel } from './grader-helpers.js';

const model12 = seededModel(12);
const input = (m: Marking, answerText: string): GradeInput => ({ ...m, answerText, style: 'Bullet' });
const quotationsIn = (text: string) => measure(readAnswer(text, undefined), new Set()).quotations.count;

const TERMS = ['cool', 'smart', 'discipline', 'freedom', 'fashion police', 'real world'];
const MARKS: [string, string][] = [
  ['"', '"'],
  ['“', '”'],
  ['‘', '’'],
];
/** The writer's sentence around a term in marks: nothing before it says it is quoted. */
const MARKED = [
  (t: string) => `Uniforms will not make the ${t} kids any kinder to the others.`,
  (t: string) => `The so-called ${t} of a blazer is a myth that fades within a week.`,
  (t: string) => `Pupils who want a ${t} image will simply find other ways to show off.`,
  (t: string) => `Schools talk about ${t} while they spend money on blazers.`,
  (t: string) => `Uniforms are for the pupils, such as the ${t} kids, who care about looks.`,
];
/** The same words quoted as a quotation: the word named, a possessive, a verb of saying before them. */
const QUOTED = [
  (t: string) => `The word ${t} shows how the school sees its pupils.`,
  (t: string) => `The head teacher's ${t} is the heart of the argument.`,
  (t: string) => `The newsletter calls the rule ${t} without any evidence.`,
  (t: string) => `Our head teacher said ${t} at the assembly.`,
  // a character given a quality in the text's words, and a quotation that opens the sentence
  (t: string) => `In the first act Macbeth is ${t} in battle.`,
  (t: string) => `${t} recurs through the whole play.`,
];

const quoted = (mark: [string, string], term: string) => `${mark[0]}${term}${mark[1]}`;

describe('a term in marks is no quotation', () => {
  it(`property: a word or two in marks, with nothing saying it is quoted, counts as no quotation (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...MARKED), fc.constantFrom(...TERMS), fc.constantFrom(...MARKS), (sentence, term, mark) => {
        const text = sentence(quoted(mark, term));
        expect(quotationSpans(text)).toHaveLength(1);
        expect(markedTerms(text, quotationSpans(text)).has(0), text).toBe(true);
        expect(quotationsIn(`${text}\n\nIn conclusion, uniforms should not be compulsory.`), text).toBe(0);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`property: the same words introduced as a quotation still count as one (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.constantFrom(...QUOTED), fc.constantFrom(...TERMS), fc.constantFrom(...MARKS), (sentence, term, mark) => {
        const text = sentence(quoted(mark, term));
        expect(quotationsIn(text), text).toBe(1);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a list of quotations counts each, once the first is introduced as one', () => {
    expect(quotationsIn('In Act 1 Macbeth is "brave", "valiant" and "worthy".')).toBe(3);
    expect(quotationsIn('Duncan calls him "worthy" and "noble".')).toBe(2);
    expect(quotationsIn('Sheila is "very pretty" and "excited" at the start.')).toBe(2);
    // a list of terms stays a list of terms
    expect(quotationsIn('The "cool" and "smart" kids will find other ways to show off.')).toBe(0);
  });

  it('the essay a new user marked: its three terms in marks are not "specific support (3 quotations)"', () => {
    const essay = [
      'School uniforms should not be compulsory. The so-called "discipline" they bring is a myth, and the "smart" look they promise fades within a week.',
      'First, uniforms cost families money. A blazer and two shirts can cost more than a week of food for a poor family. Second, pupils lose a way to express who they are, and the "cool" kids simply find other ways to show off with shoes and bags.',
      'In conclusion, schools should let pupils choose what they wear.',
    ].join('\n\n');
    expect(quotationsIn(essay)).toBe(0);
    const evidence = grade(input(model12, essay)).evaluation.find((e) => e.item === 'Evidence & reasoning')!.feedback;
    expect(evidence).not.toMatch(/quotations?\)/);
    // a longer quotation in the same essay is still one
    expect(quotationsIn(`${essay}\n\nAs our head teacher said, "a uniform is not a lesson."`)).toBe(1);
  });
});
