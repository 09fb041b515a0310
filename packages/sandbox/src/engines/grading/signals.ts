// The measured signals a criterion can be marked on. Each is a value in [0, 1] (met from MET up),
// the numbers it was measured by (a typed record, which feedback renders and nothing else), and
// the sentences that show it, with the words there that show it. No text is written here:
// phrases.ts writes every line from the record.

import { RUN_ON_WORDS } from './features.js';
import {
  AT_LENGTH_WORDS,
  type Contrary,
  errorRate,
  frameReading,
  judgementReading,
  lateChanges,
  longestReply,
  ON_TOPIC,
  positionReading,
  punctuatedShare,
  richest,
  type SignalContext,
  storyValue,
  supportUnits,
} from './readings.js';
import { VOCABULARY_WINDOW } from './repetition.js';
import type { SlipKind } from './slips.js';
import { clamp } from './text.js';

export type Measured =
  | {
      id: 'development';
      words: number;
      low: number;
      high: number;
      /** Whether the question names the length (else low to high is the sandbox's default, not the task's). */
      stated: boolean;
      over: boolean;
      total: number;
      restated: number;
      sentences: number;
    }
  | { id: 'progression'; restated: number; sentences: number }
  | { id: 'paragraphs'; paragraphs: number; words: number }
  | { id: 'frame'; opens: boolean; closes: boolean }
  | { id: 'connectives'; used: string[]; kinds: number }
  | {
      id: 'position';
      stated: boolean;
      early: boolean;
      held: boolean;
      /** Set when the end argues the other side of the position stated before it (why `held` is false). */
      contrary: Contrary | undefined;
    }
  | { id: 'precision'; early: boolean; precise: boolean }
  | { id: 'counter'; views: number; replied: boolean; replyWords: number; replySentences: number; atLength: boolean }
  | { id: 'evidence'; figures: number; sources: number; examples: number; quotations: number; names: number; unnamed: number }
  | { id: 'explanation'; explained: number; any: boolean }
  | { id: 'quotations'; quotations: number }
  | { id: 'analysis'; methods: number; needed: number }
  | { id: 'context'; names: number }
  | { id: 'provenance'; named: number }
  | { id: 'judgement'; judgements: number; final: boolean; qualified: boolean; supported: boolean }
  | { id: 'accuracy'; words: number; slips: number; byKind: Record<SlipKind, number>; misspelt: string[] }
  | { id: 'register'; words: number; casual: number; contractions: number; exclamations: number; story: boolean }
  | { id: 'vocabulary'; words: number; window: number; distinct: number; longPercent: number }
  | { id: 'variety'; sentences: number; shortest: number; longest: number; runOns: number; runOnWords: number }
  | { id: 'dialogue'; lines: number; punctuated: number }
  | { id: 'description'; details: number }
  | { id: 'story'; lines: number; changes: number }
  | { id: 'turning'; changes: number; late: number }
  | { id: 'coverage'; found: string[]; missing: string[] };

export type SignalId = Measured['id'];
type Of<I extends SignalId> = Extract<Measured, { id: I }>;

/**
 * What one sentence shows of a point whose line claims more than a sentence can ("an opening
 * paragraph and a conclusion", "an opposing view, answered"): the opening, the end, the view
 * before its reply, or the point stated once. A quotation of it is offered for that part only.
 */
export type Part = 'opening' | 'end' | 'view' | 'once';

/** A sentence that shows a signal: the feature itself (`words` are where), or, with `problem`, a slip or a repeat. */
interface Evidence {
  sentence: number;
  words?: string;
  part?: Part;
  problem?: true;
  /** Offered as proof of the writing itself: only a sentence without a slip or a casual word will do. */
  clean?: true;
}

export interface Signal {
  id: SignalId;
  value: number;
  measured: Measured;
  evidence: Evidence[];
}

export const MET = 0.5;

/** Whether the answer goes against a part of the point: a conclusion that argues the other side of its position. */
export const contradicts = (m: Measured) => m.id === 'position' && m.contrary !== undefined;
/** Whether feedback names a point among what the answer lacks: not met, or met with a part the answer goes against. */
export const wanting = (p: { value: number; measured: Measured }) => p.value < MET || contradicts(p.measured);
/** Distinct analytic words and subject terms that meet the analysis signal. */
const ANALYSIS_MET = 4;

const at = (sentences: number[], words?: Map<number, string>): Evidence[] =>
  sentences.map((i) => ({ sentence: i, ...(words?.get(i) !== undefined ? { words: words.get(i) } : {}) }));
const as = (part: Part, evidence: Evidence[]): Evidence[] => evidence.map((e) => ({ ...e, part }));
const problems = (sentences: number[], words?: Map<number, string>): Evidence[] =>
  at(sentences, words).map((e) => ({ ...e, problem: true as const }));

type Built<I extends SignalId> = { value: number; measured: Omit<Of<I>, 'id'>; evidence: Evidence[] };
type Builders = { [I in SignalId]: (ctx: SignalContext) => Built<I> };

/** Progression from the share of sentences restating earlier ones: full up to a tenth, met up to a quarter. */
const progressionOf = (ctx: Pick<SignalContext, 'f' | 'doc'>) =>
  ctx.doc.sentences.length < 3 ? 0 : 1 - clamp((ctx.f.restated.count / ctx.doc.sentences.length - 0.1) / 0.3, 0, 1);

/**
 * The words that develop the answer: all of them, unless it restates more than progression allows
 * (the same reading Organisation reports); then only those of sentences that restate nothing.
 */
function developed(ctx: SignalContext): { words: number; restated: number } {
  const { f, doc } = ctx;
  const restating = f.restated.count > 0 && doc.sentences.length >= 3 && progressionOf(ctx) < MET;
  if (!restating) return { words: f.words, restated: 0 };
  const restatedWords = f.restated.sentences.reduce((n, i) => n + doc.sentences[i].words.length, 0);
  return { words: Math.max(0, f.words - restatedWords), restated: f.restated.count };
}

/**
 * Vocabulary: range (distinct words in any 50) and long words, each half of it. It is met only when
 * each half is: long words alone are not a varied vocabulary (one sentence said 60 times has 8 words
 * in 50). Misspelt words are not vocabulary, and it counts for less the more slips there are.
 */
function vocabularyValue(f: SignalContext['f']): number {
  const range = clamp((f.vocabulary - 0.7) / 0.12, 0, 1);
  const long = clamp((f.longWords - 0.12) / 0.1, 0, 1);
  const value = (0.5 * range + 0.5 * long) * (1 - clamp(errorRate(f) / 4, 0, 1));
  return range < MET || long < MET ? Math.min(value, MET - 0.01) : value;
}

const BUILDERS: Builders = {
  development: (ctx) => {
    const { f, task, doc } = ctx;
    // Full marks for length at the middle of the range asked for. Past half as much again as a
    // stated limit, length stops counting for the answer and starts counting against it. Below
    // the length asked for, or that far over it, development is never met.
    const over = task.length.stated && f.words > task.length.high * 1.5;
    // words that only restate earlier sentences develop nothing: 60 copies of one sentence are not 540 words of development
    const { words, restated } = developed(ctx);
    const value =
      words < task.length.low
        ? (MET - 0.01) * (words / task.length.low)
        : over
          ? Math.min(MET - 0.01, 1 - clamp((f.words - task.length.high * 1.5) / (task.length.high * 1.5), 0, 0.5))
          : clamp(words / ((task.length.low + task.length.high) / 2), 0, 1) ** 0.7;
    return {
      value,
      measured: {
        words,
        low: task.length.low,
        high: task.length.high,
        stated: task.length.stated,
        over,
        total: f.words,
        restated,
        sentences: doc.sentences.length,
      },
      evidence: [],
    };
  },
  progression: (ctx) => ({
    value: progressionOf(ctx),
    measured: { restated: ctx.f.restated.count, sentences: ctx.doc.sentences.length },
    evidence: problems(ctx.f.restated.sentences),
  }),
  paragraphs: ({ f }) => {
    const expected = clamp(Math.round(f.words / 100), 3, 7);
    const perParagraph = f.words / Math.max(1, f.paragraphs);
    const value = f.words < 60 ? 0 : clamp((f.paragraphs - 1) / (expected - 1), 0, 1) * (perParagraph > 220 ? 0.7 : 1);
    return { value, measured: { paragraphs: f.paragraphs, words: f.words }, evidence: [] };
  },
  frame: (ctx) => {
    const { opens, closes } = frameReading(ctx);
    return {
      value: (opens ? 0.5 : 0) + (closes.length > 0 ? 0.5 : 0),
      measured: { opens, closes: closes.length > 0 },
      evidence: as('end', at(closes, new Map([...ctx.f.position.at, ...ctx.f.conclusion.at]))),
    };
  },
  connectives: ({ f }) => ({
    value: clamp(f.connectives.length / 5, 0, 1),
    measured: { used: f.connectives, kinds: f.connectives.length },
    evidence: at(f.connectiveHits.sentences, f.connectiveHits.at),
  }),
  position: (ctx) => {
    const { f } = ctx;
    const { early, held, contrary } = positionReading(ctx);
    return {
      value: (early.length > 0 ? 0.6 : f.position.count > 0 ? 0.3 : 0) + (held.length > 0 ? 0.4 : 0),
      measured: { stated: f.position.count > 0, early: early.length > 0, held: held.length > 0, contrary },
      evidence: [
        ...as('opening', at(early, f.position.at)),
        ...as('end', at(held, f.position.at)),
        ...as('once', at(f.position.sentences, f.position.at)),
      ],
    };
  },
  precision: (ctx) => {
    const { early, precise } = positionReading(ctx);
    return {
      value: precise.length > 0 ? 1 : early.length > 0 ? 0.3 : 0,
      measured: { early: early.length > 0, precise: precise.length > 0 },
      evidence: at(precise, ctx.f.precise.at),
    };
  },
  counter: ({ f }) => {
    const reply = longestReply(f);
    const words = reply?.words ?? 0;
    return {
      // Any reply meets it; a reply at length is worth more.
      value: reply ? MET + (1 - MET) * clamp(words / AT_LENGTH_WORDS, 0, 1) : f.counter.count > 0 ? 0.25 : 0,
      measured: {
        views: f.counter.count,
        replied: reply !== undefined,
        replyWords: words,
        replySentences: reply?.sentences ?? 0,
        atLength: words >= AT_LENGTH_WORDS,
      },
      evidence: as('view', at(reply ? [reply.counter] : [], f.counter.at)),
    };
  },
  evidence: ({ f }) => ({
    value: clamp(supportUnits(f) / 6, 0, 1),
    measured: {
      figures: f.figures.count,
      sources: f.sources.count,
      examples: f.examples.count,
      quotations: f.quotations.count,
      names: f.outside.count,
      unnamed: f.unnamedSources.count,
    },
    evidence: richest(f.figures, f.sources, f.quotations, f.examples).map(({ sentence, words }) => ({
      sentence,
      ...(words ? { words } : {}),
    })),
  }),
  explanation: ({ f }) => {
    // The sentence that explains, beside the support it explains.
    const explaining = f.explanations.sentences.filter((i) => f.explained.sentences.includes(i) || f.explained.sentences.includes(i - 1));
    return {
      // Support followed by what it shows, in several ways: "because" on every line is one way.
      value: 0.6 * clamp(f.explained.sentences.length / 3, 0, 1) + 0.4 * clamp(f.explanations.distinct.size / 5, 0, 1),
      measured: { explained: f.explained.sentences.length, any: f.explanations.count > 0 },
      evidence: at(explaining, f.explanations.at),
    };
  },
  quotations: ({ f }) => ({
    // A single quoted word is half a reference: the phrase around it is what the reader needs.
    value: clamp([...f.quotations.distinct].reduce((n, q) => n + (/\s/.test(q) ? 1 : 0.5), 0) / 6, 0, 1),
    measured: { quotations: f.quotations.count },
    evidence: at(f.quotations.sentences, f.quotations.at),
  }),
  analysis: ({ f }) => {
    const n = f.analysis.distinct.size + f.terminology.distinct.size;
    return {
      value: clamp(n / (2 * ANALYSIS_MET), 0, 1),
      measured: { methods: n, needed: ANALYSIS_MET },
      evidence: richest(f.analysis, f.terminology).map(({ sentence, words }) => ({ sentence, ...(words ? { words } : {}) })),
    };
  },
  context: ({ f }) => ({
    value: clamp((Math.min(f.outside.count, 10) + Math.min(f.figures.count, 3)) / 10, 0, 1),
    measured: { names: f.outside.count },
    evidence: at(f.outside.sentences, f.outside.at),
  }),
  provenance: ({ f }) => ({
    // Named is half of it; the rest is using it to say what the source can show.
    value: 0.5 * clamp(f.provenance.distinct.size / 5, 0, 1) + 0.5 * clamp(f.provenanceLinked.sentences.length / 2, 0, 1),
    measured: { named: f.provenance.count },
    evidence:
      f.provenanceLinked.sentences.length > 0
        ? at(f.provenanceLinked.sentences, f.provenance.at)
        : at(f.provenance.sentences, f.provenance.at),
  }),
  judgement: (ctx) => {
    const { f } = ctx;
    const { final, qualified, substantiated } = judgementReading(ctx);
    return {
      value:
        0.4 * clamp(f.judgement.distinct.size / 4, 0, 1) + (final.length > 0 ? 0.2 : 0) + (qualified ? 0.2 : 0) + (substantiated ? 0.2 : 0),
      measured: { judgements: f.judgement.count, final: final.length > 0, qualified, supported: substantiated },
      evidence: [...as('end', at(final, f.judgement.at)), ...as('once', at(f.judgement.sentences, f.judgement.at))],
    };
  },
  accuracy: ({ f }) => ({
    value: f.words < 20 ? 0 : 1 - clamp(errorRate(f) / 3, 0, 1),
    measured: { words: f.words, slips: f.errors.count, byKind: f.errors.byKind, misspelt: f.errors.misspelt },
    evidence: problems(f.errors.sentences, f.errors.at),
  }),
  register: ({ f, task }) => {
    const rate = (f.informal.count / Math.max(1, f.words)) * 100;
    const story = task.genre === 'narrative';
    return {
      value: f.words < 20 ? 0 : 1 - clamp(rate / (story ? 4 : 2), 0, 1),
      measured: {
        words: f.words,
        casual: f.informal.casual,
        contractions: f.informal.contractions,
        exclamations: f.informal.exclamations,
        story,
      },
      evidence: problems(f.informal.sentences),
    };
  },
  vocabulary: ({ f, doc }) => ({
    value: f.words < 40 ? 0 : vocabularyValue(f),
    measured: {
      words: f.words,
      // an answer shorter than the window is measured over what it has: "in any 50" of 41 words would be untrue
      window: Math.min(VOCABULARY_WINDOW, f.words),
      distinct: Math.round(f.vocabulary * Math.min(VOCABULARY_WINDOW, f.words)),
      longPercent: Math.round(f.longWords * 100),
    },
    // The sentence with the richest words shows the range best: quoted by its longest word.
    evidence: doc.sentences
      .map((s, i) => ({ i, s, rich: s.words.length >= 8 ? s.words.filter((w) => w.length >= 8).length / s.words.length : 0 }))
      .filter((x) => x.rich > 0)
      .sort((a, b) => b.rich - a.rich)
      .map((x) => ({ sentence: x.i, words: longestWord(x.s.text), clean: true as const })),
  }),
  variety: ({ f, doc }) => {
    const sensible = f.meanSentence >= 8 && f.meanSentence <= 28;
    const lengths = doc.sentences.map((s) => s.words.length);
    return {
      value: doc.sentences.length < 3 ? 0 : clamp(f.sentenceSpread / 0.5, 0, 1) * (sensible ? 1 : 0.6) * (1 - f.longSentences),
      measured: {
        sentences: lengths.length,
        shortest: lengths.length > 0 ? Math.min(...lengths) : 0,
        longest: lengths.length > 0 ? Math.max(...lengths) : 0,
        runOns: lengths.filter((n) => n > RUN_ON_WORDS).length,
        runOnWords: RUN_ON_WORDS,
      },
      evidence: [],
    };
  },
  dialogue: ({ f }) => ({
    value: clamp(f.dialogue.count / 5, 0, 1) * (punctuatedShare(f) >= 0.5 ? 1 : 0.6),
    measured: { lines: f.dialogue.count, punctuated: f.punctuatedDialogue },
    evidence: at(f.dialogue.sentences, f.dialogue.at),
  }),
  description: ({ f }) => ({
    value: clamp(f.description.count / Math.max(5, f.words / 50), 0, 1),
    measured: { details: f.description.count },
    evidence: at(f.description.sentences, f.description.at),
  }),
  story: ({ f }) => ({
    // Met where the topic gate opens fully: a story "partly told" is not shown as told.
    value: clamp((storyValue(f) * MET) / ON_TOPIC, 0, 1),
    measured: { lines: f.dialogue.count, changes: f.change.count },
    evidence: at(f.dialogue.sentences, f.dialogue.at),
  }),
  turning: (ctx) => {
    const late = lateChanges(ctx);
    return {
      value: clamp(late.length / 3, 0, 1),
      measured: { changes: ctx.f.change.count, late: late.length },
      evidence: at(late, ctx.f.change.at),
    };
  },
  coverage: ({ coverage }) => ({
    value: coverage?.value ?? 0,
    measured: { found: coverage?.found ?? [], missing: coverage?.missing ?? [] },
    evidence: at(coverage?.sentences ?? []),
  }),
};

/** The longest word of a sentence, as written there. */
const longestWord = (text: string) => [...(text.match(/\p{L}+/gu) ?? [])].sort((a, b) => b.length - a.length)[0];

export function signal(id: SignalId, ctx: SignalContext): Signal {
  const built = BUILDERS[id](ctx);
  return { id, value: built.value, measured: { id, ...built.measured } as Measured, evidence: built.evidence };
}
