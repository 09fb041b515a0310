// The measured signals a criterion can be marked on, each in [0, 1], with the words feedback uses
// for it: what the answer shows when it is met, what it lacks when not, and what to do next. A
// signal is either met or not, never both. Its words claim only what was measured (the readings
// below, which facts.ts shares), in the words of feature-vocabulary.json, so claims.ts reads them
// as the features they are about.
import type { Doc } from './document.js';
import type { Features, Hits } from './features.js';
import type { Task } from './task.js';
import { clamp } from './text.js';

export type SignalId =
  | 'development'
  | 'paragraphs'
  | 'frame'
  | 'connectives'
  | 'position'
  | 'counter'
  | 'evidence'
  | 'explanation'
  | 'quotations'
  | 'analysis'
  | 'context'
  | 'provenance'
  | 'judgement'
  | 'accuracy'
  | 'register'
  | 'vocabulary'
  | 'variety'
  | 'dialogue'
  | 'description'
  | 'story'
  | 'turning'
  | 'coverage'
  | 'progression';

export interface Signal {
  id: SignalId;
  value: number;
  /** What the answer shows, said when the signal is met (value >= MET). */
  found: string;
  /** What it lacks, said when it is not. */
  lacking: string;
  /** The next step, in the rubric's terms. */
  advice: string;
  /** Sentences that show the signal, best first (indexes into Doc.sentences). */
  quotes: number[];
  /** Whether those sentences show the signal met (a thesis, a quotation) or a problem (a slip, a repeat). */
  quotesShow?: 'problem';
  /** Quoted only from sentences without a slip or a casual word the grader found: the quote is offered as proof of the writing itself. */
  cleanQuotes?: true;
}

export const MET = 0.5;

/** What the criterion's own words name (for `coverage`): phrases found and missing. */
export interface Coverage {
  value: number;
  found: string[];
  missing: string[];
  sentences: number[];
}

export interface SignalContext {
  f: Features;
  doc: Doc;
  task: Task;
  coverage: Coverage | undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const list = (xs: string[], joiner = 'and') =>
  xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} ${joiner} ${xs[xs.length - 1]}`;
const quoted = (xs: string[]) => xs.map((x) => `“${x}”`);
const inParagraph = (ctx: SignalContext, h: Hits, p: number) => h.sentences.filter((i) => ctx.doc.sentences[i].paragraph === p);
/** Hits in the answer's opening: its first paragraph, or its first three sentences when it has one paragraph. */
const opening = (ctx: SignalContext, h: Hits) =>
  h.sentences.filter((i) => ctx.doc.sentences[i].paragraph === 0 && (ctx.doc.paragraphs.length > 1 || i < 3));
const lastParagraph = (ctx: SignalContext) => ctx.doc.paragraphs.length - 1;
/** Sentences ranked by how many of several kinds of hit they hold. */
function richest(...groups: Hits[]): number[] {
  const score = new Map<number, number>();
  for (const g of groups) for (const i of g.sentences) score.set(i, (score.get(i) ?? 0) + 1);
  return [...score.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([i]) => i);
}

/** Where the answer states its position, whether precisely, and whether it holds it to the end. */
export function positionReading(ctx: SignalContext): { early: number[]; precise: boolean; held: boolean } {
  const { f, doc } = ctx;
  const early = opening(ctx, f.position);
  // Precise: the opening's position carries its reasons ("because...", a list of them).
  const reasons = /\b(?:because|since|as it|so that)\b|,[^,]+\band\b|:\s/i;
  // A run-on sentence of forty words or more is not a precise statement of anything.
  const precise =
    early.length > 0 &&
    doc.sentences[early[0]].words.length < 40 &&
    doc.sentences.some(
      (s, i) =>
        s.paragraph === doc.sentences[early[0]].paragraph &&
        i >= early[0] - 1 &&
        i <= early[0] + 1 &&
        s.words.length < 40 &&
        reasons.test(s.text),
    );
  const held = doc.paragraphs.length > 1 && (inParagraph(ctx, f.position, lastParagraph(ctx)).length > 0 || f.conclusion.count > 0);
  return { early, precise, held };
}

/** Whether the answer opens by setting out what it will show, and closes by returning to its point. */
export function frameReading(ctx: SignalContext): { opens: boolean; closes: boolean } {
  const { f, doc } = ctx;
  return {
    opens:
      doc.paragraphs.length >= 3 && (opening(ctx, f.position).length > 0 || doc.sentences.filter((s) => s.paragraph === 0).length >= 2),
    closes: f.conclusion.count > 0 || (doc.paragraphs.length >= 2 && inParagraph(ctx, f.position, lastParagraph(ctx)).length > 0),
  };
}

/** Pieces of specific support, weighted: a named source counts more than a figure. */
export function supportUnits(f: Features): number {
  return (
    Math.min(f.figures.count, 4) +
    Math.min(f.quotations.distinct.size, 4) +
    f.examples.count +
    1.5 * f.sources.distinct.size +
    0.5 * Math.min(f.outside.count, 4)
  );
}

/** A judgement: reached in the last paragraph, qualified, substantiated there. */
export function judgementReading(ctx: SignalContext): { final: number[]; qualified: boolean; substantiated: boolean } {
  const { f } = ctx;
  const final = inParagraph(ctx, f.judgement, lastParagraph(ctx));
  const qualified = f.judgement.sentences.some((i) =>
    /\b(?:however|but|although|limited|only|partly|less|extent|depends)\b/i.test(ctx.doc.sentences[i].text),
  );
  const substantiated = final.some(
    (i) => /\b(?:because|since|as it|which|so)\b/i.test(ctx.doc.sentences[i].text) || f.explained.sentences.includes(i),
  );
  return { final, qualified, substantiated };
}

/** Slips per 100 words. */
export const errorRate = (f: Features) => (f.errors.count / Math.max(1, f.words)) * 100;

/** The share of dialogue lines punctuated inside the speech marks. */
export const punctuatedShare = (f: Features) =>
  f.dialogue.count === 0 ? 0 : f.punctuatedDialogue / Math.max(1, f.dialogue.sentences.length);

type Builder = (ctx: SignalContext) => Omit<Signal, 'id'>;

const BUILDERS: Record<SignalId, Builder> = {
  development: ({ f, task }) => {
    // Full marks for length at the middle of the range asked for: a minimum-length answer has
    // rarely developed its points as far as it could. Past half as much again as a stated limit,
    // length stops counting for the answer and starts counting against it.
    const over = task.length.stated && f.words > task.length.high * 1.5;
    // Below the length asked for, development is never "met": it can only be partly there.
    const value =
      f.words < task.length.low
        ? (MET - 0.01) * (f.words / task.length.low)
        : clamp(f.words / ((task.length.low + task.length.high) / 2), 0, 1) ** 0.7 *
          (over ? 1 - clamp((f.words - task.length.high * 1.5) / (task.length.high * 1.5), 0, 0.5) : 1);
    return {
      value,
      found: `${plural(f.words, 'word')}, enough to develop its points`,
      lacking: over
        ? `control of length: ${plural(f.words, 'word')} where the task asks for ${task.length.low} to ${task.length.high}`
        : f.words < task.length.low
          ? `development: only ${plural(f.words, 'word')} where the task asks for ${task.length.low} to ${task.length.high}`
          : `development: points are made more than developed (${plural(f.words, 'word')})`,
      advice: over
        ? `select the strongest points and develop those, within the ${task.length.low} to ${task.length.high} words asked for`
        : `develop each point with explanation and support, to the ${task.length.low} to ${task.length.high} words the task asks for`,
      quotes: [],
    };
  },
  progression: ({ f, doc }) => {
    const share = f.restated.count / Math.max(1, doc.sentences.length);
    return {
      value: doc.sentences.length < 3 ? 0 : 1 - clamp((share - 0.1) / 0.3, 0, 1),
      found: 'each point moving the answer on',
      lacking: `progression (${plural(f.restated.count, 'sentence')} restating earlier points)`,
      advice: 'make each paragraph add something new, rather than restating earlier points',
      quotes: f.restated.sentences,
      quotesShow: 'problem',
    };
  },
  paragraphs: ({ f }) => {
    const expected = clamp(Math.round(f.words / 100), 3, 7);
    const perParagraph = f.words / Math.max(1, f.paragraphs);
    const value = f.words < 60 ? 0 : clamp((f.paragraphs - 1) / (expected - 1), 0, 1) * (perParagraph > 220 ? 0.7 : 1);
    return {
      value,
      found: `${plural(f.paragraphs, 'paragraph')}, one for each stage of the answer`,
      lacking:
        f.paragraphs <= 1 ? 'paragraphs: it is written as one block' : `enough paragraphs (${f.paragraphs} for ${plural(f.words, 'word')})`,
      advice: 'give each main point its own paragraph, between an opening and a conclusion',
      quotes: [],
    };
  },
  frame: (ctx) => {
    const { f } = ctx;
    const { opens, closes } = frameReading(ctx);
    const value = (opens ? 0.5 : 0) + (closes ? 0.5 : 0);
    return {
      value,
      found:
        opens && closes
          ? 'an opening that sets out the answer and a conclusion that returns to it'
          : opens
            ? 'an opening that sets out the answer'
            : 'a conclusion that returns to the main point',
      lacking:
        !opens && !closes
          ? 'an opening and a conclusion'
          : !closes
            ? 'a conclusion that returns to the main point'
            : 'an opening paragraph that sets out the answer',
      advice: !closes
        ? 'end with a conclusion that returns to the main point and says why it matters'
        : 'open with a paragraph that sets out what the answer will show',
      quotes: [...f.conclusion.sentences, ...inParagraph(ctx, f.position, lastParagraph(ctx))],
    };
  },
  connectives: ({ f }) => ({
    value: clamp(f.connectives.length / 5, 0, 1),
    found: `links between points (${list(quoted(f.connectives.slice(0, 3)))})`,
    lacking: f.connectives.length === 0 ? 'links between points' : `links between points (only ${list(quoted(f.connectives))})`,
    advice: 'link each paragraph to the one before, with words such as “however”, “furthermore” or “as a result”',
    quotes: f.connectiveHits.sentences,
  }),
  position: (ctx) => {
    const { f } = ctx;
    const { early, precise, held } = positionReading(ctx);
    const value = (early.length > 0 ? (precise ? 0.6 : 0.35) : f.position.count > 0 ? 0.2 : 0) + (held ? 0.4 : 0);
    const stated = early.length > 0 ? `a ${precise ? 'precise ' : ''}position stated in the opening` : 'a position';
    return {
      value,
      found: held ? `${stated}${early.length > 0 ? ' and' : ','} held to the conclusion` : stated,
      lacking:
        early.length === 0
          ? f.position.count > 0
            ? 'a position stated early: it only appears later'
            : 'a clearly stated position'
          : !precise
            ? 'a precise position: the opening gives a view without the reasons for it'
            : 'a position held to the conclusion',
      advice:
        early.length === 0 || !precise
          ? 'state the position in the first paragraph, in one precise sentence that gives the reasons for it'
          : 'return to the position in the conclusion and sharpen it',
      quotes: [...early, ...f.position.sentences],
    };
  },
  counter: ({ f }) => ({
    // A reply developed over a paragraph, not a line, is what the top levels ask for.
    value: f.rebuttals.count > 0 ? (f.counterWords >= 50 ? 1 : 0.45) : f.counter.count > 0 ? 0.25 : 0,
    found: 'an opposing view, stated fairly and answered at length',
    lacking:
      f.rebuttals.count > 0
        ? 'a developed reply to the opposing view'
        : f.counter.count > 0
          ? 'a reply to the opposing view'
          : 'the strongest opposing argument, and a reply to it',
    advice:
      f.rebuttals.count > 0
        ? 'develop the reply to the opposing view: explain with evidence why it does not outweigh the position'
        : f.counter.count > 0
          ? 'after stating the opposing view, explain with evidence why it does not outweigh the position'
          : 'state the strongest argument on the other side fairly, then answer it',
    quotes: [...f.rebuttals.sentences, ...f.counter.sentences],
  }),
  evidence: ({ f }) => {
    const kinds = [
      f.figures.count > 0 ? plural(f.figures.count, 'figure') : '',
      f.sources.count > 0 ? plural(f.sources.count, 'named source') : '',
      f.examples.count > 0 ? plural(f.examples.count, 'example') : '',
      f.quotations.count > 0 ? plural(f.quotations.count, 'quotation') : '',
    ].filter(Boolean);
    return {
      value: clamp(supportUnits(f) / 6, 0, 1),
      found: `several pieces of specific support (${list(kinds)})`,
      lacking:
        kinds.length === 0 ? 'specific support: figures, named sources or examples' : `enough specific support (only ${list(kinds)})`,
      advice: 'support each point with something specific: a figure, a named source, an example or a quotation',
      quotes: richest(f.figures, f.sources, f.quotations, f.examples),
    };
  },
  explanation: ({ f }) => ({
    // Support followed by what it shows, in several ways: "because" on every line is one way.
    value: 0.6 * clamp(f.explained.sentences.length / 3, 0, 1) + 0.4 * clamp(f.explanations.distinct.size / 5, 0, 1),
    found: 'explanation of what its support shows',
    lacking:
      f.explanations.count === 0
        ? 'explanation of how the support proves the point'
        : 'enough explanation: points are asserted more than explained',
    advice: 'after each piece of support, explain in a sentence how it proves the point (“this shows that…”)',
    // The sentence that explains, beside the support it explains: not the support itself.
    quotes: f.explanations.sentences.filter((i) => f.explained.sentences.includes(i) || f.explained.sentences.includes(i - 1)),
  }),
  quotations: ({ f }) => ({
    // A single quoted word is half a reference: the phrase around it is what the reader needs.
    value: clamp([...f.quotations.distinct].reduce((n, q) => n + (/\s/.test(q) ? 1 : 0.5), 0) / 6, 0, 1),
    found: `${plural(f.quotations.count, 'quotation')} from the text`,
    lacking:
      f.quotations.count === 0 ? 'quotations from the text' : `enough reference to the text (${plural(f.quotations.count, 'quotation')})`,
    advice: 'quote short phrases from the text and build them into your own sentences',
    quotes: f.quotations.sentences,
  }),
  analysis: ({ f }) => {
    const n = f.analysis.distinct.size + f.terminology.distinct.size;
    return {
      value: clamp(n / 8, 0, 1),
      found: 'comment on how methods create meaning, with subject terms',
      lacking: n === 0 ? 'comment on the methods used and their effect' : 'enough analysis of methods: they are named more than explained',
      advice: 'name a method (a word choice, the setting, the structure) and explain the effect it creates',
      quotes: richest(f.analysis, f.terminology),
    };
  },
  context: ({ f }) => ({
    value: clamp((Math.min(f.outside.count, 10) + Math.min(f.figures.count, 3)) / 10, 0, 1),
    found: `knowledge beyond the question (${plural(f.outside.count, 'name or date')} it brings in)`,
    lacking: 'specific knowledge beyond the question: names, dates and events',
    advice: 'bring in precise knowledge of the period (names, dates, events) and say what it shows',
    quotes: richest(f.outside, f.figures),
  }),
  provenance: ({ f }) => ({
    // Named is half of it; the rest is using it to say what the source can show.
    value: 0.5 * clamp(f.provenance.distinct.size / 5, 0, 1) + 0.5 * clamp(f.provenanceLinked.sentences.length / 2, 0, 1),
    found: 'use of who made the source, when and why',
    lacking: f.provenance.count === 0 ? 'use of who made the source, when and why' : 'enough use of the source’s origin and purpose',
    advice: 'use who made the source, when and why, to judge what it can and cannot show',
    quotes: f.provenanceLinked.sentences.length > 0 ? f.provenanceLinked.sentences : f.provenance.sentences,
  }),
  judgement: (ctx) => {
    const { f } = ctx;
    const { final, qualified, substantiated } = judgementReading(ctx);
    const value =
      0.4 * clamp(f.judgement.distinct.size / 4, 0, 1) + (final.length > 0 ? 0.2 : 0) + (qualified ? 0.2 : 0) + (substantiated ? 0.2 : 0);
    const how = [qualified ? 'qualified' : '', final.length > 0 ? 'reached in the conclusion' : ''].filter(Boolean);
    return {
      value,
      found: `a judgement${how.length > 0 ? `, ${how.join(' and ')}` : ''}`,
      lacking:
        f.judgement.count === 0
          ? 'a judgement on the question asked'
          : !qualified
            ? 'a qualified judgement: what the source is useful for, and where it falls short'
            : final.length === 0
              ? 'a judgement reached at the end'
              : 'support for the judgement at the end',
      advice: 'end with a judgement that says how far the answer to the question holds, and why',
      quotes: [...final, ...f.judgement.sentences],
    };
  },
  accuracy: ({ f }) => ({
    value: f.words < 20 ? 0 : 1 - clamp(errorRate(f) / 3, 0, 1),
    found:
      f.errors.count === 0
        ? 'accurate spelling, punctuation and grammar'
        : `mostly accurate spelling, punctuation and grammar (${plural(Math.round(f.errors.count), 'slip')} in ${f.words} words)`,
    lacking:
      f.words < 20
        ? 'enough writing to show accuracy'
        : `accuracy: ${plural(Math.round(f.errors.count), 'slip')} in ${f.words} words (${list(f.errors.kinds.slice(0, 3))})`,
    advice: `check ${f.errors.kinds.length > 0 ? list(f.errors.kinds.slice(0, 3)) : 'spelling, punctuation and grammar'} before handing in`,
    quotes: f.errors.sentences,
    quotesShow: 'problem',
  }),
  register: ({ f, task }) => {
    const rate = (f.informal.count / Math.max(1, f.words)) * 100;
    const story = task.genre === 'narrative';
    return {
      value: f.words < 20 ? 0 : 1 - clamp(rate / (story ? 4 : 2), 0, 1),
      found: story ? 'a controlled register' : 'a formal register suited to the audience',
      lacking: `a formal register (${list(f.informal.kinds)} in the writer’s own voice)`,
      advice: 'write in a formal register for the audience: no casual words or contractions outside quotations',
      quotes: f.informal.sentences,
      quotesShow: 'problem',
    };
  },
  vocabulary: ({ f, doc }) => ({
    // Misspelt words are not precise vocabulary: range counts for less the more slips there are.
    value:
      f.words < 40
        ? 0
        : (0.5 * clamp((f.vocabulary - 0.7) / 0.12, 0, 1) + 0.5 * clamp((f.longWords - 0.12) / 0.1, 0, 1)) *
          (1 - clamp(errorRate(f) / 4, 0, 1)),
    found: 'a varied and precise vocabulary',
    lacking: 'a wider, more precise vocabulary',
    advice: 'choose precise words instead of repeating general ones (“good”, “bad”, “things”)',
    // The sentence with the richest words shows the range best.
    quotes: doc.sentences
      .map((s, i) => ({ i, rich: s.words.length >= 8 ? s.words.filter((w) => w.length >= 8).length / s.words.length : 0 }))
      .filter((x) => x.rich > 0)
      .sort((a, b) => b.rich - a.rich)
      .map((x) => x.i),
    cleanQuotes: true,
  }),
  variety: ({ f, doc }) => {
    const sensible = f.meanSentence >= 8 && f.meanSentence <= 28;
    return {
      value: doc.sentences.length < 3 ? 0 : clamp(f.sentenceSpread / 0.5, 0, 1) * (sensible ? 1 : 0.6) * (1 - f.longSentences),
      found: `varied sentences (${plural(doc.sentences.length, 'sentence')} averaging ${Math.round(f.meanSentence)} words)`,
      lacking: f.longSentences > 0.1 ? 'control of sentence length: several sentences run on' : 'varied sentence lengths',
      advice: 'vary sentence length: short sentences for emphasis, longer ones to develop ideas',
      quotes: [],
    };
  },
  dialogue: ({ f }) => {
    const punctuated = punctuatedShare(f);
    return {
      value: clamp(f.dialogue.count / 5, 0, 1) * (punctuated >= 0.5 ? 1 : 0.6),
      found: `dialogue that moves the story on (${plural(f.dialogue.count, 'line')})`,
      lacking:
        f.dialogue.count === 0
          ? 'dialogue set out with speech marks'
          : punctuated < 0.5
            ? 'dialogue set out correctly: punctuation inside the speech marks'
            : `enough dialogue to move the story on (${plural(f.dialogue.count, 'line')})`,
      advice: 'use a few lines of dialogue to show what the character feels, punctuated inside the speech marks',
      quotes: f.dialogue.sentences,
    };
  },
  description: ({ f }) => ({
    value: clamp(f.description.count / Math.max(5, f.words / 50), 0, 1),
    found: 'vivid detail of what is seen, heard and felt',
    lacking: 'vivid detail: what the character sees, hears and feels',
    advice: 'show the key moment through concrete detail of sight, sound and touch',
    quotes: f.description.sentences,
  }),
  story: ({ f }) => ({
    value: storyValue(f),
    found: 'a story told through events, characters and speech',
    lacking: 'a story: events that happen to characters, told in order',
    advice: 'tell a story: a character, a problem, and events that lead to a change',
    quotes: f.dialogue.sentences,
  }),
  turning: (ctx) => {
    const { f } = ctx;
    const late = lateChanges(ctx);
    return {
      value: clamp(late.length / 3, 0, 1),
      found: 'a turning point the reader sees happen',
      lacking:
        f.change.count === 0 ? 'a turning point: a moment where the character changes' : 'a turning point that is shown, not only told',
      advice: 'build to one moment where the character changes, and show it through what they do and say',
      quotes: late,
    };
  },
  coverage: ({ coverage }) => ({
    value: coverage?.value ?? 0,
    found: `what the criterion names (${list(coverage?.found.slice(0, 3) ?? [])})`,
    lacking: `what the criterion names: ${list(coverage?.missing.slice(0, 3) ?? [], 'or')}`,
    advice: `address what the criterion names: ${list(coverage?.missing.slice(0, 3) ?? [])}`,
    quotes: coverage?.sentences ?? [],
  }),
};

/** How far the answer is told as a story: past tense, speech and change. */
export function storyValue(f: Features): number {
  return 0.5 * clamp((f.pastTense - 0.25) / 0.35, 0, 1) + 0.25 * clamp(f.dialogue.count / 3, 0, 1) + 0.25 * clamp(f.change.count / 2, 0, 1);
}

/** Changes in the last two thirds of the story: where a turning point is shown. */
export function lateChanges(ctx: SignalContext): number[] {
  return ctx.f.change.sentences.filter((i) => i >= ctx.doc.sentences.length / 3);
}

export function signal(id: SignalId, ctx: SignalContext): Signal {
  return { id, ...BUILDERS[id](ctx) };
}
