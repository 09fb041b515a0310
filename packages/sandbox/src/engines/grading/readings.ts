// Readings of an answer's features that several signals and the facts share: where the position
// is and whether it is precise and held, whether the answer opens and closes, what support it has,
// its judgement, its slips per 100 words. One reading per question, so a signal's score and the
// facts the feedback is checked against cannot differ.
import type { Doc } from './document.js';
import type { Features, Hits, Reply } from './features.js';
import { JUDGEMENT_QUALIFIED, JUDGEMENT_SUPPORTED } from './patterns.js';
import { sideWords, stanceOf } from './stance.js';
import type { Task } from './task.js';
import { clamp } from './text.js';

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

/** How far an answer must be on the topic (or told as a story) to be marked in full: criterion.ts's topic gate opens fully here. */
export const ON_TOPIC = 0.55;

/** A reply to an opposing view "at length": at least this many words. Shorter replies are called what they are. */
export const AT_LENGTH_WORDS = 50;

const inParagraph = (ctx: SignalContext, h: Hits, p: number) => h.sentences.filter((i) => ctx.doc.sentences[i].paragraph === p);
/**
 * Hits in the answer's opening: its first paragraph, or, when it has one paragraph, its first third
 * (one to three sentences): the last sentence of a three-sentence answer is not its opening.
 */
const opening = (ctx: SignalContext, h: Hits) => {
  const first = Math.max(1, Math.min(3, Math.floor(ctx.doc.sentences.length / 3)));
  return h.sentences.filter((i) => ctx.doc.sentences[i].paragraph === 0 && (ctx.doc.paragraphs.length > 1 || i < first));
};
/** Hits in the answer's end: its last paragraph, or, when it has one paragraph, its last third (one to three sentences), as its opening is its first. */
const closing = (ctx: SignalContext, h: Hits) => {
  if (ctx.doc.paragraphs.length > 1) return inParagraph(ctx, h, ctx.doc.paragraphs.length - 1);
  // one or two sentences have no end apart from their opening
  if (ctx.doc.sentences.length < 3) return [];
  const from = ctx.doc.sentences.length - Math.max(1, Math.min(3, Math.floor(ctx.doc.sentences.length / 3)));
  return h.sentences.filter((i) => i >= from);
};

/**
 * Where the answer states its position: in the opening (`early`), precisely there (a sentence of
 * the opening that states it and gives a reason: `precise`), and again in the last paragraph
 * (`held`); or, when the end takes the other side of a position stated before it, where (`contrary`).
 */
export function positionReading(ctx: SignalContext): {
  early: number[];
  precise: number[];
  held: number[];
  contrary: Contrary | undefined;
} {
  const { f } = ctx;
  const early = opening(ctx, f.position);
  const end = closing(ctx, f.position);
  // held: the end restates a position stated before it, on the same side ("phones should be banned" does not hold "should not be")
  const before = early.length > 0 ? early : f.position.sentences.filter((i) => !end.includes(i));
  const key = keyStems(ctx.task);
  const statement = (i: number) => ({
    text: f.read[i],
    before: i > 0 && ctx.doc.sentences[i - 1].paragraph === ctx.doc.sentences[i].paragraph ? f.read[i - 1] : undefined,
  });
  const pairs = end.flatMap((i) =>
    before.filter((j) => j !== i).map((j) => ({ from: j, to: i, stance: stanceOf(statement(j), statement(i), key) })),
  );
  const held = before.length === 0 ? end : end.filter((i) => pairs.some((p) => p.to === i && p.stance === 'same'));
  // the same comparison that refused the credit names why: the end argues the other side
  const against = held.length === 0 ? pairs.find((p) => p.stance === 'opposite') : undefined;
  const contrary = against && {
    from: sideWords(ctx.doc.sentences[against.from].text),
    to: sideWords(ctx.doc.sentences[against.to].text),
  };
  return { early, precise: opening(ctx, f.precise), held, contrary };
}

/** A position stated, and the end arguing the other side of it: the words of each that state their side, as written. */
export interface Contrary {
  from: string;
  to: string;
}

const keyStemsOf = new WeakMap<Task, ReadonlySet<string>>();
/** The task's key terms, and the words said to mean the same, as stems: not the words every task uses ("school"). */
function keyStems(task: Task): ReadonlySet<string> {
  let out = keyStemsOf.get(task);
  if (!out) {
    out = new Set(
      task.topic.filter((t) => t.weight > 0.25).flatMap((t) => [t.stem, ...t.also.filter((a) => a.length === 1).map((a) => a[0])]),
    );
    keyStemsOf.set(task, out);
  }
  return out;
}

/** Whether the answer has an opening paragraph (of three or more) and a last one that concludes or restates the position. */
export function frameReading(ctx: SignalContext): { opens: boolean; closes: number[] } {
  const { f, doc } = ctx;
  const firstSentences = doc.sentences.filter((s) => s.paragraph === 0).length;
  return {
    opens: doc.paragraphs.length >= 3 && (opening(ctx, f.position).length > 0 || firstSentences >= 2),
    closes: [...f.conclusion.sentences, ...closing(ctx, f.position).filter((i) => !f.conclusion.sentences.includes(i))],
  };
}

/** Pieces of specific support, weighted: a named source counts more than a figure, a name or date half. */
export function supportUnits(f: Features): number {
  return (
    Math.min(f.figures.count, 4) +
    Math.min(f.quotations.distinct.size, 4) +
    f.examples.count +
    1.5 * f.sources.distinct.size +
    0.5 * Math.min(f.outside.count, 4)
  );
}

/** The longest reply to an opposing view, if any. */
export function longestReply(f: Features): Reply | undefined {
  return f.replies.reduce<Reply | undefined>((best, r) => (!best || r.words > best.words ? r : best), undefined);
}

/** A judgement: reached in the last paragraph, qualified, substantiated there. */
export function judgementReading(ctx: SignalContext): { final: number[]; qualified: boolean; substantiated: boolean } {
  const { f } = ctx;
  const final = closing(ctx, f.judgement);
  const qualified = f.judgement.sentences.some((i) => JUDGEMENT_QUALIFIED.test(f.read[i]));
  const substantiated = final.some((i) => JUDGEMENT_SUPPORTED.test(f.read[i]) || f.explained.sentences.includes(i));
  return { final, qualified, substantiated };
}

/** Slips per 100 words. */
export const errorRate = (f: Features) => (f.errors.count / Math.max(1, f.words)) * 100;

/** The share of dialogue lines punctuated inside the speech marks. */
export const punctuatedShare = (f: Features) =>
  f.dialogue.count === 0 ? 0 : f.punctuatedDialogue / Math.max(1, f.dialogue.sentences.length);

/**
 * How far the answer is told as a story: past tense, speech and change. Told in the past tense
 * throughout is enough to be one (ON_TOPIC): speech and change are marked as points of their own.
 */
export function storyValue(f: Features): number {
  return 0.6 * clamp((f.pastTense - 0.25) / 0.35, 0, 1) + 0.2 * clamp(f.dialogue.count / 3, 0, 1) + 0.2 * clamp(f.change.count / 2, 0, 1);
}

/** Changes in the last two thirds of the story: where a turning point is shown. */
export function lateChanges(ctx: SignalContext): number[] {
  return ctx.f.change.sentences.filter((i) => i >= ctx.doc.sentences.length / 3);
}

/** Sentences ranked by how many of several kinds of hit they hold, each with what it holds first. */
export function richest(...groups: Hits[]): { sentence: number; words: string | undefined }[] {
  const score = new Map<number, number>();
  for (const g of groups) for (const i of g.sentences) score.set(i, (score.get(i) ?? 0) + 1);
  return [...score.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([i]) => ({ sentence: i, words: groups.map((g) => g.at.get(i)).find((w) => w !== undefined) }));
}
