// Feedback a new user found untrue of the answer, one case each, with the property behind it
// (fast-check, seeded, shrinking; KCT_PROPERTY_RUNS and KCT_PROPERTY_SEED as in docs/testing.md):
// 1. a reply after a concession is a reply; 2. a misspelt marker is still the marker; 3. an answer
// not in English is said to be so, not called misspelt; 4. a descriptor is quoted only when no
// measured count goes against it; 5. "it's" and "that's" are contractions, "John's" is not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GradeInput, type GradeRubric, grade, judgements } from '../../packages/sandbox/src/engines/grader.js';
import type { Judgement } from '../../packages/sandbox/src/engines/grading/judgement.js';
import { REBUT } from '../../packages/sandbox/src/engines/grading/patterns.js';
import type { Measured } from '../../packages/sandbox/src/engines/grading/signals.js';
import { sentenceRegister } from '../../packages/sandbox/src/engines/grading/slips.js';
import { isWord } from '../../packages/sandbox/src/engines/grading/spelling.js';
import { answer, RUNS, SEED, SENTENCES } from './grader-arbitraries.js';
import { EXAMPLES, type Marking, seededModel } from './grader-helpers.js';
import { readBullet } from './grader-reading.js';

const model12 = seededModel(12);
const sample = readFileSync(join(EXAMPLES, 'sample-essay.txt'), 'utf8');
const input = (m: Marking, answerText: string): GradeInput => ({ ...m, answerText, style: 'Bullet' });
const feedbackOf = (m: Marking, text: string, item: string) => grade(input(m, text)).evaluation.find((e) => e.item === item)!.feedback;
/** Every point measured for the answer, by id, from whichever criterion measured it. */
function measuredOf(js: Judgement[]): Map<string, Measured> {
  return new Map(js.flatMap((j) => j.points.map((p): [string, Measured] => [p.id, p.measured])));
}

// ---------- 1. a reply after a concession ----------

/** Sentences that grant the opposing view something and answer nothing: no reply marker in them. */
const CONCESSIONS = [
  'These concerns are real, and they deserve a fair hearing.',
  'Nobody wants families to struggle.',
  'Such worries are understandable.',
  'Many families feel this strongly.',
];
const REPLIES = [
  'However, schools can answer them by allowing badges and running second-hand sales.',
  'Still, a plain uniform bought in a supermarket costs less than the clothes students compete over.',
  'Yet a simple policy can keep the cost low for every family.',
];

describe('a reply to an opposing view, after a concession, is a reply', () => {
  it('finds "However, schools can answer them…" after two sentences of concession (the sample essay, edited)', () => {
    const conceded = sample.replace(
      'These concerns are real.',
      'These concerns are real, and they deserve a fair hearing. Nobody wants families to struggle.',
    );
    for (const item of ['Thesis & position', 'Evidence & reasoning']) {
      const feedback = feedbackOf(model12, conceded, item);
      expect(readBullet(feedback).lacks, feedback).not.toContain('a reply to the opposing view it states');
      expect(feedback).toMatch(/an opposing view, answered in \d+ sentences/);
    }
  });

  it('finds a rebuttal that ends "Therefore the objections argue for a well-designed uniform"', () => {
    const essay = [
      'In my view, schools should require uniforms, because they make students equal and keep attention on learning.',
      'Critics argue that uniforms are expensive and limit self-expression. Both points deserve attention. A well-designed policy keeps costs low with plain items sold in supermarkets, and allows badges and hair accessories. Therefore the objections argue for a well-designed uniform, not for no uniform at all.',
      'In conclusion, I believe that every school should require a simple, affordable uniform.',
    ].join('\n\n');
    const feedback = feedbackOf(model12, essay, 'Thesis & position');
    expect(readBullet(feedback).lacks, feedback).not.toContain('a reply to the opposing view it states');
  });

  const conceding = fc.record({
    before: answer,
    counter: fc.constantFrom(...SENTENCES.counter),
    conceded: fc.array(fc.constantFrom(...CONCESSIONS), { maxLength: 3 }),
    reply: fc.constantFrom(...REPLIES),
    nextParagraph: fc.boolean(),
  });
  it(`finds the reply later in the view's paragraph, or opening the next one (seed ${SEED}, ${RUNS} runs)`, () => {
    for (const c of CONCESSIONS) expect(REBUT.test(c), c).toBe(false);
    const others = new Set([...SENTENCES.counter, ...SENTENCES.reply]);
    fc.assert(
      fc.property(conceding, ({ before, counter, conceded, reply, nextParagraph }) => {
        // The generated answer without views or replies of its own: the one answered is the one added.
        const kept = before
          .split('\n\n')
          .map((p) => p.split(/(?<=[.!?])\s+(?=["“A-Z|i])/).filter((s) => !others.has(s)))
          .filter((p) => p.length > 0)
          .map((p) => p.join(' '));
        const view = [counter, ...conceded].join(' ');
        const text = [...kept, nextParagraph ? `${view}\n\n${reply}` : `${view} ${reply}`].join('\n\n');
        const counterPoint = measuredOf(judgements(input(model12, text))).get('counter');
        expect(counterPoint, text).toMatchObject({ id: 'counter', replied: true });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 2. a misspelt marker is still the marker ----------

const MISSPELT =
  'Shuold schools requre uniforms?\n\nIn my veiw, schools shuold requre uniforms becuase they make studants more equel and reduse distractons.\n\nFrist, uniforms make studants equel. For exampel, at my cousins school bullying about brands dissapeared after they introduced a uniform.\n\nSome peple say uniforms stop self-expresion and are to expensive. However, schools can alow badges.\n\nIn concluson, uniforms are a good idear and all schools shuold have them.\n';

const SPELT =
  'Should schools require uniforms?\n\nIn my view, schools should require uniforms because they make students more equal and reduce distractions.\n\nFirst, uniforms make students equal. For example, at my cousins school bullying about brands disappeared after they introduced a uniform.\n\nSome people say uniforms stop self-expression and are too expensive. However, schools can allow badges.\n\nIn conclusion, uniforms are a good idea and all schools should have them.\n';

/** The one word that two neighbouring letters of a slip, swapped back, make: a slip any reader reads back. */
function readBackBySwap(slip: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i + 1 < slip.length; i++) {
    const w = slip.slice(0, i) + slip[i + 1] + slip[i] + slip.slice(i + 2);
    if (w !== slip && isWord(w)) out.add(w);
  }
  return [...out];
}
/** Lower-case words of four letters or more outside quotation marks, each with a slip that reads back to it alone. */
function slips(text: string): { index: number; word: string; slip: string }[] {
  const out: { index: number; word: string; slip: string }[] = [];
  const quoted = [...text.matchAll(/["“][^"”\n]*["”]/g)].map((m) => [m.index, m.index + m[0].length]);
  // one slip a word: not the end of a word split at a line break ("stu-\ndents"), nor the word after a scanned "|" ("| think")
  for (const m of text.matchAll(/(?<![\p{L}'’-]|-\n|\| )\p{Ll}{4,}(?![\p{L}'’-])/gu)) {
    if (quoted.some(([a, b]) => m.index >= a && m.index < b) || !isWord(m[0])) continue;
    for (let i = 1; i + 2 < m[0].length; i++) {
      const slip = m[0].slice(0, i) + m[0][i + 1] + m[0][i] + m[0].slice(i + 2);
      const back = readBackBySwap(slip);
      if (!isWord(slip) && back.length === 1 && back[0] === m[0]) {
        out.push({ index: m.index, word: m[0], slip });
        break;
      }
    }
  }
  return out;
}
/** The points found by their markers (a position, a view and its reply, support, links, a frame), not by spelling. */
const BY_MARKERS = ['position', 'precision', 'counter', 'evidence', 'explanation', 'frame', 'connectives', 'analysis', 'judgement'];

describe('a misspelt marker is read as the word it was meant to be, and still counted as a slip', () => {
  it('finds the position, the example and the conclusion of the misspelt uniforms answer', () => {
    const thesis = feedbackOf(model12, MISSPELT, 'Thesis & position');
    expect(readBullet(thesis).lacks, thesis).not.toContain('a clearly stated position');
    expect(thesis).toMatch(/Shows:[^\n]*a position/);
    const evidence = feedbackOf(model12, MISSPELT, 'Evidence & reasoning');
    expect(readBullet(evidence).lacks, evidence).not.toContain('specific support: figures, named sources or examples');
    const organisation = feedbackOf(model12, MISSPELT, 'Organisation');
    expect(readBullet(organisation).lacks, organisation).not.toContain('an opening paragraph and a conclusion');
    const language = feedbackOf(model12, MISSPELT, 'Language & conventions');
    // 17: the two of its title ("Shuold schools requre uniforms?", a question above the answer) are not marked, as no title is
    expect(language).toMatch(/17 misspelt words such as “veiw”, “shuold” or “requre”/i);
  });

  it('finds in it every marker the same answer spelt right has', () => {
    const [misspelt, spelt] = [MISSPELT, SPELT].map((t) => measuredOf(judgements(input(model12, t))));
    for (const id of BY_MARKERS) expect(misspelt.get(id), id).toEqual(spelt.get(id));
  });

  it(`reads the same markers in a generated answer with a word misspelt as without (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(answer, fc.nat(), (text, pick) => {
        const found = slips(text);
        if (found.length === 0) return;
        const c = found[pick % found.length];
        const misspelt = text.slice(0, c.index) + c.slip + text.slice(c.index + c.word.length);
        const [before, after] = [text, misspelt].map((t) => measuredOf(judgements(input(model12, t))));
        // Under five words there is nothing to mark, misspelt or not.
        if (!before.has('accuracy')) return;
        for (const id of BY_MARKERS) expect(after.get(id), `${id}: ${c.word} → ${c.slip}\n${misspelt}`).toEqual(before.get(id));
        const slipsOf = (m: Map<string, Measured>) => {
          const a = m.get('accuracy');
          return a?.id === 'accuracy' ? a.byKind.spelling : -1;
        };
        expect(slipsOf(after)).toBe(slipsOf(before) + 1);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 3. an answer not in English ----------

/** A 148-word essay on school uniforms, in French. */
const FRENCH = [
  "Faut-il imposer l'uniforme scolaire ?",
  "À mon avis, les écoles devraient imposer l'uniforme, parce qu'il rend les élèves plus égaux et réduit les distractions en classe.",
  "D'abord, l'uniforme efface les différences sociales. Quand tout le monde porte les mêmes vêtements, personne ne se moque des marques ou des habits bon marché. Par exemple, dans le collège de mon cousin, les moqueries ont presque disparu après l'arrivée de l'uniforme, et les élèves se sentent plus tranquilles.",
  "Ensuite, les élèves gagnent du temps le matin, car ils n'ont pas besoin de choisir une tenue pour impressionner leurs amis. Les professeurs passent aussi moins de temps à surveiller les vêtements.",
  "Certains disent que l'uniforme empêche les jeunes d'exprimer leur personnalité et qu'il coûte cher aux familles. Cependant, les écoles peuvent autoriser des badges et organiser des ventes d'occasion.",
  "En conclusion, l'uniforme est une bonne idée et toutes les écoles devraient l'adopter.",
].join('\n\n');
const FOREIGN_SENTENCES = [
  'À mon avis, les écoles devraient imposer l’uniforme, parce qu’il rend les élèves plus égaux.',
  'Par exemple, dans le collège de mon cousin, les moqueries ont presque disparu.',
  'Certains disent que l’uniforme coûte cher aux familles.',
  'Cependant, les écoles peuvent autoriser des badges.',
  'En mi opinión, los uniformes escolares deberían ser obligatorios.',
  'Meiner Meinung nach sollten alle Schulen eine Schuluniform einführen.',
  'En conclusion, l’uniforme est une bonne idée.',
];
const NOT_ENGLISH = /does not read as English/;

describe('an answer not in English is said to be so', () => {
  it('says a French essay on uniforms is not in English, and claims no misspelling, missing term or missing position', () => {
    const out = grade(input(model12, FRENCH));
    expect(out.score).toBe(0);
    for (const e of out.evaluation) {
      expect(e.score).toBe(0);
      expect(e.feedback, e.item).toMatch(NOT_ENGLISH);
      expect(e.feedback, e.item).not.toMatch(/misspelt|never mentions|No identifiable position|Lacks|level 0/);
    }
  });

  it(`says so of every answer in other languages, and of no English one (seed ${SEED}, ${RUNS} runs)`, () => {
    const foreign = fc
      .array(fc.array(fc.constantFrom(...FOREIGN_SENTENCES), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 })
      .map((ps) => ps.map((p) => p.join(' ')).join('\n\n'));
    fc.assert(
      fc.property(foreign, answer, (other, english) => {
        // not marked at all: the task fails, uncharged, rather than hand back a 0 (work/mark.ts)
        expect(grade(input(model12, other)).unmarkable, other).toMatch(NOT_ENGLISH);
        expect(grade(input(model12, english)).unmarkable, english).toBeUndefined();
        for (const e of grade(input(model12, other)).evaluation) {
          expect(e.feedback, other).toMatch(NOT_ENGLISH);
          expect(e.feedback, other).not.toMatch(/misspelt|never mentions/);
        }
        for (const e of grade(input(model12, english)).evaluation) expect(e.feedback, english).not.toMatch(NOT_ENGLISH);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 4. a descriptor quoted against a measured count ----------

/** What a descriptor's words say is there that a count of zero refutes, read apart from the grader's vocabulary. */
const REFUTED: { says: RegExp; refuted: (m: Map<string, Measured>) => boolean; what: string }[] = [
  {
    says: /\bsome explanation\b/i,
    refuted: (m) => {
      const e = m.get('explanation');
      return e?.id === 'explanation' && e.explained === 0;
    },
    what: '0 pieces of support explained',
  },
  {
    says: /^(?!.*\b(?:no|free of) (?:errors|slips)\b)(?!.*error.free).*\b(?:errors|slips|inaccuracies)\b/i,
    refuted: (m) => {
      const a = m.get('accuracy');
      return a?.id === 'accuracy' && a.slips === 0;
    },
    what: 'no slips found',
  },
  {
    // errors that make writing hard to follow, or frequent ones, are more than one or two slips
    says: /\b(?:frequent|many) errors\b|\berrors (?:that )?(?:sometimes )?obscure\b|\berrors make the writing hard to follow\b/i,
    refuted: (m) => {
      const a = m.get('accuracy');
      return a?.id === 'accuracy' && a.slips < 3;
    },
    what: 'fewer than three slips',
  },
];
const REFUTABLE = [
  'Relevant evidence with some explanation.',
  'Errors make the writing hard to follow.',
  'Frequent errors that sometimes obscure meaning.',
  'Mostly accurate; a few slips.',
  'Virtually error-free.',
  'Some explanation of the evidence; the counter-argument is mentioned.',
];
const refutable = fc
  .record({
    evidence: fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.constantFrom(...REFUTABLE)), { minLength: 1, maxLength: 4 }),
    language: fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.constantFrom(...REFUTABLE)), { minLength: 1, maxLength: 4 }),
  })
  .map(
    ({ evidence, language }): Marking => ({
      ...model12,
      name: 'a rubric of refutable descriptors',
      rubrics: [
        { item: 'Evidence & reasoning', max_score: 6, levels: evidence.map(([score, descriptor]) => ({ score, descriptor })) },
        { item: 'Language & conventions', max_score: 4, levels: language.map(([score, descriptor]) => ({ score, descriptor })) },
      ] as GradeRubric[],
    }),
  );
const SHORT = ['Uniforms are good because everyone looks the same.', 'I think uniforms are fair.', 'Uniforms save money.'];

describe('a level descriptor is quoted only when nothing measured goes against it', () => {
  it('does not quote "with some explanation" beside "0 pieces of support explained" (the sample essay, and it cut)', () => {
    // the sample explains its support two sentences on ("This means…"), which was once missed
    expect(feedbackOf(model12, sample, 'Evidence & reasoning')).not.toContain('(0 pieces of support explained)');
    const unexplained = sample
      .split(/(?<=[.!?])\s+/)
      .filter((sentence) => !/\b(?:this (?:shows|means)|which means|because|therefore|so that)\b/i.test(sentence))
      .join(' ');
    for (const text of [sample, unexplained]) {
      const feedback = feedbackOf(model12, text, 'Evidence & reasoning');
      if (feedback.includes('(0 pieces of support explained)')) expect(feedback).not.toContain('(“Relevant evidence with some explanation');
    }
  });

  it('does not quote "Errors make the writing hard to follow" for an 8-word answer without a slip', () => {
    const feedback = feedbackOf(model12, 'Uniforms are good because everyone looks the same.', 'Language & conventions');
    expect(feedback).not.toContain('Errors make the writing hard to follow');
    expect(feedback).toMatch(/level 0 \(its descriptor is not quoted/);
  });

  it('says an answer too short to judge its register lacks the writing, not formality it shows (no "no casual words" under Lacks)', () => {
    const feedback = feedbackOf(model12, 'Uniforms are good because everyone looks the same.', 'Language & conventions');
    expect(feedback).toContain('enough writing to show its register (8 words)');
    expect(feedback).not.toMatch(/Lacks:[^\n]*no casual words or contractions/);
  });

  it(`never lacks a formal register by "no casual words" (seed ${SEED}, ${RUNS} runs): a lack names what was found`, () => {
    fc.assert(
      fc.property(answer, fc.integer({ min: 5, max: 60 }), (text, length) => {
        const cut = text.split(/\s+/).slice(0, length).join(' ');
        expect(feedbackOf(model12, cut, 'Language & conventions')).not.toMatch(/Lacks:[^\n]*a formal register \(no casual words/);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it(`never quotes a descriptor that a measured count refutes (seed ${SEED}, ${RUNS} runs)`, () => {
    const text = fc.oneof(answer, fc.constantFrom(...SHORT), fc.constantFrom(sample));
    fc.assert(
      fc.property(text, refutable, (answerText, m) => {
        const js = judgements(input(m, answerText));
        const measured = measuredOf(js);
        for (const j of js) {
          if (!j.descriptorHolds || j.standing.level.generic) continue;
          for (const r of REFUTED)
            if (r.says.test(j.standing.level.descriptor))
              expect(r.refuted(measured), `${j.item}: “${j.standing.level.descriptor}” quoted with ${r.what}\n${answerText}`).toBe(false);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 5. contractions ----------

const CONTRACTED = [
  "it's",
  "that's",
  "there's",
  "here's",
  "what's",
  "he's",
  "she's",
  "let's",
  "who's",
  "where's",
  "don't",
  "can't",
  "could've",
  "they'll",
  "I'm",
  "we'd",
  "you're",
];
const POSSESSIVE = ["John's", "the school's", "my cousin's", "Steinbeck's", "the teacher's"];
const PLAIN = ['uniforms', 'are', 'fair', 'because', 'students', 'look', 'the', 'same'];

describe('contractions are counted, possessives are not', () => {
  it("counts 8 in \"I don't … It's … can't … That's … could've … doesn't … shouldn't … they'll\"", () => {
    const s =
      "I don't agree. It's unfair and we can't pretend otherwise. That's the point: we could've changed it, but the school doesn't listen and it shouldn't ignore us, or they'll regret it.";
    expect(sentenceRegister(s, s).contractions).toBe(8);
    expect(sentenceRegister("John's book and the school's rules.", "John's book and the school's rules.").contractions).toBe(0);
  });

  it(`counts each contraction once and no possessive, in any order (seed ${SEED}, ${RUNS} runs)`, () => {
    const token = fc.oneof(
      fc.constantFrom(...CONTRACTED).map((w) => ({ w, contraction: true })),
      fc.constantFrom(...POSSESSIVE).map((w) => ({ w, contraction: false })),
      fc.constantFrom(...PLAIN).map((w) => ({ w, contraction: false })),
    );
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 20 }), fc.boolean(), (tokens, curly) => {
        const s = `${tokens.map((t) => (curly ? t.w.replace(/'/g, '’') : t.w)).join(' ')}.`;
        expect(sentenceRegister(s, s).contractions, s).toBe(tokens.filter((t) => t.contraction).length);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 6. a judgement of the topic is a position ----------

const TOPIC = ['Uniforms', 'School uniforms', 'A uniform', 'Uniform rules'];
const VERDICTS = [
  'good',
  'bad',
  'unfair',
  'fair',
  'necessary',
  'unnecessary',
  'harmful',
  'a good idea',
  'a bad idea',
  'a waste of money',
  'important',
  'pointless',
];
const GRADES = ['', 'not ', 'really ', 'clearly '];
const OFF_TOPIC = ['The weather', 'My lunch', 'Football', 'The film'];
const positionOf = (text: string) => measuredOf(judgements(input(model12, text))).get('position');

describe('a judgement of the topic is a position', () => {
  it('finds the position of "Uniforms are good because they make students equal."', () => {
    const thesis = feedbackOf(model12, 'Uniforms are good because they make students equal.', 'Thesis & position');
    expect(readBullet(thesis).lacks, thesis).not.toContain('a clearly stated position');
    expect(readBullet(thesis).descriptor ?? '', thesis).not.toMatch(/no identifiable position/i);
  });

  it(`finds one in "<the topic> is <a verdict>", and none in a verdict on something else, reported or asked (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TOPIC),
        fc.constantFrom(...OFF_TOPIC),
        fc.constantFrom(...GRADES),
        fc.constantFrom(...VERDICTS),
        (topic, other, grade, verdict) => {
          const be = /s$/.test(topic) ? 'are' : 'is';
          const said = `${topic} ${be} ${grade}${verdict}, and students notice it every day.`;
          const none = positionOf('Students notice it every day. Teachers see it too.');
          expect(positionOf(said), said).not.toEqual(none);
          for (const neutral of [
            `${other} is ${grade}${verdict}, and students notice it every day.`,
            `Some people say that ${topic.toLowerCase()} ${be} ${grade}${verdict}.`,
            `${be === 'are' ? 'Are' : 'Is'} ${topic.toLowerCase()} ${grade}${verdict}?`,
            `Nobody asked whether ${topic.toLowerCase()} ${be} ${grade}${verdict}.`,
          ])
            expect(positionOf(neutral), neutral).toEqual(
              positionOf(neutral.replace(/ (?:is|are) /, ' seem ').replace(/^(Are|Is) /, 'Do ')),
            );
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

// ---------- 7. more lines a new user found untrue (the walkthrough of 2026-11-29) ----------

/** Mia's opening, her support and her reply, from the walkthrough's class. */
const MIA = [
  'Uniforms: An Investment in Learning',
  'School uniforms are often treated as a question of fashion, but they are really a question of learning. I am convinced that our school should require uniforms, because they protect students from social pressure, support a focused learning environment and strengthen the school community.',
  'Social pressure is the first concern. A 2019 report by the Sutton Trust found that 40 per cent of teenagers from low-income homes had been teased about their clothes. When every pupil wears the same blazer, that target disappears. This shows that a uniform is not simply a rule about clothing: it is a practical measure against a common form of exclusion.',
  'Opponents argue that uniforms restrict self-expression and burden families financially. These objections deserve a serious answer. Self-expression can flourish through clubs, art, debate and music. The cost can be controlled by choosing generic items available in supermarkets.',
  'In conclusion, uniforms reduce social pressure and protect learning time. For these reasons, the board should make uniforms compulsory in our school.',
].join('\n\n');
/** Jack's: a position, its reasons in the next sentence, a figure in words, contractions without apostrophes. */
const JACK = [
  'In my opinion, our school should not require uniforms. They are uncomfortable, expensive and they dont let students be themselves.',
  'My mum spent nearly one hundred pounds on my uniform last year and I grew out of it in six months. Thats a lot of money for families.',
  'Some people say uniforms stop bullying. However, kids still get bullied about their shoes and bags, so uniforms do not fix it.',
  'In conclusion, uniforms should be optional because they cost too much and students cant express themselves.',
].join('\n\n');
const LIAM = `I think uniforms are good because they make everyone the same and nobody gets teased about clothes and also they are easy because you dont have to choose what to wear in the morning and my school has one and I like it because it looks smart and parents like it too because it is cheaper than buying lots of clothes but some people dont like them because they are itchy and they want to wear their own clothes but I think that is not a big problem because you can wear your own clothes at the weekend so in conclusion uniforms are good and every school should have one.`;
const HEDGED = 'i think uniforms are kind of ok but also not really. some days they are fine. its hard to say. in conclusion i dont know.';

describe('more lines a new user found untrue', () => {
  it('never measures vocabulary over more words than the answer has ("43 different words in any 50" of 41)', () => {
    const forty =
      'I think uniforms should be compulsory because they are smart and fair. For example, nobody can show off expensive brands. Some people disagree, but I think the benefits are bigger than the problems. In conclusion, uniforms are a good thing.';
    const language = feedbackOf(model12, forty, 'Language & conventions');
    for (const m of language.matchAll(/(\d+) different words in any (\d+)/g)) expect(Number(m[2]), language).toBeLessThanOrEqual(41);
  });

  it(`says "in any N" of a vocabulary only for N words the answer has (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(answer, (text) => {
        const vocabulary = measuredOf(judgements(input(model12, text))).get('vocabulary');
        if (vocabulary?.id === 'vocabulary') expect(vocabulary.window, text).toBeLessThanOrEqual(vocabulary.words);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('does not call an answer with "dont" free of contractions (Liam\'s one long sentence)', () => {
    const language = feedbackOf(model12, LIAM, 'Language & conventions');
    expect(language).not.toMatch(/no casual words or contractions/);
  });

  it('finds a figure in words ("one hundred pounds") and an example of the family ("My mum spent…")', () => {
    const evidence = feedbackOf(model12, JACK, 'Evidence & reasoning');
    expect(readBullet(evidence).lacks, evidence).not.toContain('specific support: figures, named sources or examples');
  });

  it('finds the reason for a position given in the next sentence of the opening', () => {
    const thesis = feedbackOf(model12, JACK, 'Thesis & position');
    expect(thesis).not.toMatch(/the opening states a view without giving a reason for it/);
  });

  it('does not call a hedged view ("kind of ok but also not really") a position held to the conclusion', () => {
    const thesis = feedbackOf(model12, HEDGED, 'Thesis & position');
    expect(thesis).not.toMatch(/Shows:[^\n]*a position stated/);
    // nor a sentence that points back at a view without stating one
    const none = positionOf('Students notice it every day. Teachers see it too.');
    expect(positionOf('Students notice it every day. so yeah thats what i think about uniforms.')).toEqual(none);
  });

  it('counts support explained two sentences on in its paragraph ("…40 per cent… that target disappears. This shows that…")', () => {
    const evidence = feedbackOf(model12, MIA, 'Evidence & reasoning');
    expect(evidence).not.toMatch(/0 pieces of support explained/);
  });

  it('counts a sentence begun in lower case as a sentence ("…itchy. also they cost…": 3, not "only 1 sentence")', () => {
    const text =
      'uniforms are bad because they are itchy. also they cost a lot of money. school should let us wear normal clothes because we learn better.';
    const language = feedbackOf(model12, text, 'Language & conventions');
    expect(language).not.toMatch(/only 1 sentence|1 sentence starting in lower case/);
    expect(language).toMatch(/3 sentences starting in lower case/);
  });

  it('advises on vocabulary without quoting words the answer does not use ("repeating “good”, “bad”, “things”")', () => {
    const text =
      'Uniforms are bad because they are itchy. Also they cost a lot of money. School should let us wear normal clothes because we learn better.';
    for (const e of grade(input(model12, text)).evaluation) expect(e.feedback, e.item).not.toMatch(/“things”|“good”/);
  });

  it('does not call the last sentence of a three-sentence answer its opening', () => {
    const text =
      'uniforms r bad cos u cant wear wat u want and there itchy. also they cost alot of money and my mum says there a rip off. school should let us wear normal cloths becuase its more comfy and we learn better when comfy';
    const thesis = feedbackOf(model12, text, 'Thesis & position');
    expect(thesis).not.toMatch(/Shows:[^\n]*a position stated in the opening/);
  });
});
