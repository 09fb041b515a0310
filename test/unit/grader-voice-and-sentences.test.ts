// Feedback an audit found untrue of the writer's own voice and of its sentences, one case each,
// with the property behind it (fast-check, seeded; KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in
// docs/testing.md): 1. a quotation in single marks is not the writer's own words, and is support;
// 2. a name the word list lacks, starting a sentence, is not misspelt; 3. "cool" of temperature,
// "U.S." and "hoodies" are not casual; 4. "They don't." is a sentence, and "1." is none.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import { ownWords, quotationSpans, readAnswer } from '../../packages/sandbox/src/engines/grading/document.js';
import { type Features, measure } from '../../packages/sandbox/src/engines/grading/features.js';
import type { Measured } from '../../packages/sandbox/src/engines/grading/signals.js';
import { isWord, maybeSlip } from '../../packages/sandbox/src/engines/grading/spelling.js';
import { answer, RUNS, SEED } from './grader-arbitraries.js';
import { type Marking, seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const model12 = seededModel(12);
const input = (m: Marking, answerText: string): GradeInput => ({ ...m, answerText, style: 'Bullet' });
const feedbackOf = (text: string, item: string) => grade(input(model12, text)).evaluation.find((e) => e.item === item)!.feedback;
/** A point measured for the answer, by id, from whichever criterion measured it. */
function measuredOf<I extends Measured['id']>(text: string, id: I): Extract<Measured, { id: I }> {
  const found = judgements(input(model12, text))
    .flatMap((j) => j.points.map((p) => p.measured))
    .find((m) => m.id === id);
  expect(found, `${id} measured\n${text}`).toBeDefined();
  return found as Extract<Measured, { id: I }>;
}
/** The features of an answer read on its own (no question): what the properties count. */
const featuresOf = (text: string): Features => measure(readAnswer(text, undefined), new Set());

// ---------- 1. quotations in single marks ----------

const HEAD_TEACHER =
  "In my opinion uniforms should stay, because they save time.\n\nThe head teacher told our assembly: 'Uniforms don't make you clever, but they stop you wasting time.' She called them 'the best rule we've got'.\n\nIn conclusion, the uniform should stay.";

/** The writer's own sentences, with how many contractions each has. */
const OWN: [string, number][] = [
  ['Uniforms save families time every morning.', 0],
  ["I don't think a blazer stops anyone learning.", 1],
  ["It's clear that the rule works for most students.", 1],
  ["Students aren't less clever in a blazer, and they won't ever be.", 2],
  ["The students' bags are heavy, and they don't fit in the lockers.", 1],
];
/** What others said, with contractions, possessives and apostrophes of their own (no full stop: the template ends it). */
const SAID = [
  "Uniforms don't make you clever, but they stop you wasting time",
  "the best rule we've got",
  "we're one school, and it's obvious",
  "they'll thank us later",
  "John's blazer isn't the problem",
  "the students' bags weren't searched",
];
const ATTRIBUTED = [
  (q: string) => `The head teacher told our assembly: ${q}.`,
  (q: string) => `As our head teacher said, ${q}.`,
  (q: string) => `She called uniforms ${q} in the newsletter.`,
  (q: string) => `${q}, the head teacher said.`,
];
const MARKS: [string, string][] = [
  ["'", "'"],
  ['‘', '’'],
];

describe('a quotation in single marks is not the writer’s own words, and is support', () => {
  it('counts no contraction in the head teacher’s words, and counts them as 2 quotations', () => {
    const language = feedbackOf(HEAD_TEACHER, 'Language & conventions');
    expect(language).not.toMatch(/contractions? in the writer’s own voice/);
    expect(measuredOf(HEAD_TEACHER, 'register')).toMatchObject({ contractions: 0, casual: 0 });
    const evidence = feedbackOf(HEAD_TEACHER, 'Evidence & reasoning');
    expect(readBullet(evidence).lacks, evidence).not.toContain('specific support: figures, named sources or examples');
    expect(measuredOf(HEAD_TEACHER, 'evidence').quotations).toBe(2);
  });

  it('takes no apostrophe for a quotation mark: “don’t”, “we’ve”, “John’s”, and the plural possessive “the students’ bags”', () => {
    for (const own of [
      "The students' bags are heavy, and we don't have lockers.",
      "John's blazer and James' tie weren't cheap.",
      'the students’ bags',
    ])
      expect(quotationSpans(own), own).toEqual([]);
    expect(featuresOf("The students' bags are heavy, and we don't have lockers.").informal.contractions).toBe(1);
    // a plural possessive inside a quotation does not end it, and one after it does not start another
    const inside = "She said 'the students' bags are heavy,' and the teachers' room wasn't open.";
    expect(ownWords(inside)).toBe(`She said "" and the teachers' room wasn't open.`);
    expect(ownWords("She called them 'the best rules' and it's true.")).toBe(`She called them "" and it's true.`);
    expect(ownWords('He said \'I heard her say "no" to it\' today.')).toBe('He said "" today.');
  });

  it('reads ‘…’ set out as speech as a line of dialogue, punctuated inside its marks', () => {
    const f = featuresOf('‘Where are you going?’ asked Tom. She did not answer.');
    expect(f.dialogue.count).toBe(1);
    expect(f.punctuatedDialogue).toBe(1);
  });

  const quoting = fc.record({
    before: answer,
    own: fc.array(fc.constantFrom(...OWN), { maxLength: 4 }),
    said: fc.constantFrom(...SAID),
    attributed: fc.constantFrom(...ATTRIBUTED),
    marks: fc.constantFrom(...MARKS),
  });
  it(`counts only the writer’s contractions beside a single-quoted quotation, and it as one quotation (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(quoting, ({ before, own, said, attributed, marks: [open, close] }) => {
        const added = [...own.map(([s]) => s), attributed(`${open}${said}${close}`)].join(' ');
        const text = `${before}\n\n${added}`;
        const [was, now] = [featuresOf(before), featuresOf(text)];
        const mine = own.reduce((n, [, c]) => n + c, 0);
        expect(now.informal.contractions, text).toBe(was.informal.contractions + mine);
        expect(now.quotations.count, text).toBe(was.quotations.count + 1);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 2. names at the start of a sentence ----------

const FINLAND =
  'I believe that our school should drop its uniform, because clothes do not affect learning.\n\nFinland has some of the best schools in Europe, and its pupils wear no uniform. Ofsted has never marked a school down for its clothes.\n\nIn conclusion, the board should let students choose.';
const NAMES = ['Finland', 'Ofsted', 'Europe', 'Germany', 'Scotland', 'Manchester', 'Unicef', 'Primark', 'Oxfam'];
const NAMED = [(n: string) => `${n} has never said that uniforms help anyone learn.`, (n: string) => `${n} is often given as an example.`];
/** Sentences begun with a slip from a common word: still misspelt, once each. */
const SLIPPED = [
  'Alot of parents find the blazer very expensive.',
  'Beleive it or not, the blazer costs sixty pounds.',
  'Definately, the rule should change.',
  'Untill then, students will suffer.',
  'Thier parents pay for everything.',
  'Becuase of this, the rule should go.',
  'Finaly, students should choose.',
];

describe('a name the word list lacks, at the start of a sentence, is not called misspelt', () => {
  it('finds no misspelling in “Finland has…” or “Ofsted has…”', () => {
    const language = feedbackOf(FINLAND, 'Language & conventions');
    expect(language).not.toMatch(/misspelt/);
    expect(measuredOf(FINLAND, 'accuracy')).toMatchObject({ slips: 0, misspelt: [] });
  });

  it('still finds “Alot” and “Beleive” misspelt at the start of a sentence', () => {
    const text = 'Alot of parents find the blazer very expensive. Beleive it or not, it costs sixty pounds. Finland has no uniforms.';
    expect(measuredOf(text, 'accuracy').misspelt).toEqual(['Alot', 'Beleive']);
    expect(feedbackOf(text, 'Language & conventions')).toMatch(/2 misspelt words such as “Alot” or “Beleive”/);
  });

  it(`counts a sentence begun with a name as no slip, and one begun with a slip as one (seed ${SEED}, ${RUNS} runs)`, () => {
    for (const n of NAMES) expect(isWord(n.toLowerCase()) || maybeSlip(n.toLowerCase()), n).toBe(false);
    const spelling = (text: string) => featuresOf(text).errors.byKind.spelling;
    fc.assert(
      fc.property(
        answer,
        fc.constantFrom(...NAMES),
        fc.constantFrom(...NAMED),
        fc.constantFrom(...SLIPPED),
        (text, name, named, slipped) => {
          expect(spelling(`${text}\n\n${named(name)}`), named(name)).toBe(spelling(text));
          expect(spelling(`${text}\n\n${slipped}`), slipped).toBe(spelling(text) + 1);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 3. casual words ----------

const COOL = 'A cotton polo shirt keeps students cool in summer. In the U.S. many schools have adopted uniforms for this reason.';
/** Sentences with no casual word: "cool" of temperature, "U.S." and "U.K.", a garment. */
const PLAIN = [
  'A cotton polo shirt keeps students cool in summer.',
  'In the U.S. many schools have adopted uniforms.',
  'Schools in the U.K. and the U.S. differ.',
  'Many students wear hoodies under their blazers.',
  'Pupils need cool water on hot days.',
  'The classrooms stay cool in the morning.',
];
/** Sentences with one casual word each. */
const CASUAL = ['Uniforms are so cool.', 'The new blazers look really cool.', 'Honestly, the new tie is cool.', 'Then u see the price.'];

describe('"cool" of temperature, "U.S." and "hoodies" are not casual words', () => {
  it('finds no casual word in “keeps students cool” or “In the U.S.”', () => {
    expect(feedbackOf(COOL, 'Language & conventions')).not.toMatch(/casual words? in the writer’s own voice/);
    expect(featuresOf(COOL).informal.casual).toBe(0);
    expect(featuresOf('Many students wear hoodies under their blazers.').informal.casual).toBe(0);
  });

  it('still finds “so cool”, “that’s cool” and “u”', () => {
    expect(featuresOf('Uniforms are so cool.').informal.casual).toBe(1);
    expect(featuresOf("Honestly, that's cool.").informal).toMatchObject({ casual: 1, contractions: 1 });
    expect(featuresOf('If u ask me, basically uniforms are fine.').informal.casual).toBe(2);
  });

  it(`counts no casual word in plain sentences and one in each casual one (seed ${SEED}, ${RUNS} runs)`, () => {
    const casual = (text: string) => featuresOf(text).informal.casual;
    fc.assert(
      fc.property(
        answer,
        fc.array(fc.constantFrom(...PLAIN), { maxLength: 3 }),
        fc.array(fc.constantFrom(...CASUAL), { maxLength: 3 }),
        (text, plain, loose) => {
          const added = [...plain, ...loose].join(' ');
          expect(casual(`${text}\n\n${added}`), added).toBe(casual(text) + loose.length);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 4. sentences ----------

const DONT =
  "I believe uniforms should be optional, because they cost a lot. Critics argue that uniforms make students equal. They don't. Rich students still have expensive phones. In conclusion, uniforms should be optional.";
const SHORT = ["They don't.", "It isn't.", "We can't.", "That won't work.", "She didn't."];
const sentencesOf = (text: string) => readAnswer(text, undefined).sentences.map((s) => s.text);

describe('"They don\'t." is a sentence, and a list number is none', () => {
  it('reads the answer with “They don’t.” as 5 sentences of 2 to 11 words', () => {
    expect(sentencesOf(DONT)).toHaveLength(5);
    expect(measuredOf(DONT, 'variety')).toMatchObject({ sentences: 5, shortest: 2, longest: 11 });
    expect(feedbackOf(DONT, 'Language & conventions')).not.toMatch(/4 sentences of 6 to 11 words/);
  });

  it('joins “1.” to what follows, and leaves the marker out: “Cost.” and “The official blazer costs £60.”', () => {
    expect(sentencesOf('1. Cost. The official blazer costs £60.')).toEqual(['Cost.', 'The official blazer costs £60.']);
  });

  it('keeps initials and abbreviations in their sentence: “J. K. Rowling”, “U.S.”, “Mr.”', () => {
    expect(sentencesOf('J. K. Rowling wrote about school robes.')).toHaveLength(1);
    expect(sentencesOf('In the U.S. many schools have adopted uniforms. Mr. Smith agrees.')).toHaveLength(2);
    expect(sentencesOf('They chose plan B. Nobody objected.')).toHaveLength(1);
  });

  it(`counts each short sentence inserted as one more, and numbered paragraphs as many as before (seed ${SEED}, ${RUNS} runs)`, () => {
    const inserts = fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(...SHORT)), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(answer, inserts, (text, picks) => {
        const paragraphs = text.split('\n\n').map((p) => p.split(/(?<=[.!?]["”]?)\s+(?=["“A-Z|i])/));
        let added = 0;
        for (const [p, at, short] of picks) {
          const pieces = paragraphs[p % paragraphs.length];
          const after = at % pieces.length;
          // a sentence goes where one ends and the next begins with a word ("| think" is a slip that joins them)
          if (!/[.!?]["”]?$/.test(pieces[after]) || (after + 1 < pieces.length && !/^["“A-Za-z]/.test(pieces[after + 1]))) continue;
          pieces[after] = `${pieces[after]} ${short}`;
          added++;
        }
        const longer = paragraphs.map((p) => p.join(' ')).join('\n\n');
        expect(sentencesOf(longer).length, longer).toBe(sentencesOf(text).length + added);
        const numbered = text
          .split('\n\n')
          .map((p, i) => `${i + 1}. ${p}`)
          .join('\n\n');
        expect(sentencesOf(numbered).length, numbered).toBe(sentencesOf(text).length);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
