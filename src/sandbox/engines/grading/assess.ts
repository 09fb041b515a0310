// The grader's judgement of one answer, before it is written up: for each criterion the score, the
// level descriptor reached and the next one up, what the answer shows and lacks, a short quotation
// from it and the next step. Feedback in every style is written from this, so the styles differ in
// form, never in verdict.
import { answerStems, relevanceFor, scoreCriterion, type CriterionInput, type CriterionResult, type WeightedSignal } from './criterion.js';
import { readAnswer, type Doc } from './document.js';
import { measure } from './features.js';
import { MET } from './signals.js';
import { readTask } from './task.js';
import { clamp, roundHalf } from './text.js';

export interface Level {
  score: number;
  descriptor: string;
  /** One of the sandbox's own bands, for a criterion without level descriptors. */
  generic?: boolean;
}

export interface Finding { id: string; text: string }

export interface Verdict {
  item: string;
  score: number;
  max: number;
  level: Level;
  /** The next level up; undefined at the top. */
  next: Level | undefined;
  strengths: Finding[];
  gaps: Finding[];
  /** A short piece of the answer and what it shows; undefined when nothing of the answer is left to quote. */
  quote: { text: string; shows: string } | undefined;
  /** The next step, in the rubric's terms. */
  advice: string;
  /** Why the whole answer was held down, when it was; said on every criterion. */
  caveat: string | undefined;
  /** Earlier feedback that was averaged in. */
  prior: { comment: string; score: number } | undefined;
  /** Undefined when there was no answer to mark. */
  result: CriterionResult | undefined;
}

export interface AssessInput {
  answerText: string;
  questionText?: string;
  assignmentDesc?: string;
  rubrics: CriterionInput[];
  currentFeedbacks?: { item: string; comment: string; score: number }[];
}

/** Bands for a criterion whose rubric gives no level descriptors, at the seeded rubrics' thresholds. */
function genericLevels(max: number): Level[] {
  return [
    { score: max, descriptor: 'fully meets the criterion', generic: true },
    { score: roundHalf(max * 0.7), descriptor: 'meets most of the criterion', generic: true },
    { score: roundHalf(max * 0.4), descriptor: 'meets parts of the criterion', generic: true },
    { score: 0, descriptor: 'meets little of the criterion yet', generic: true },
  ];
}

/** The highest level the score reaches (the lowest when it reaches none) and the one above it. */
export function levelsFor(levels: Level[] | undefined, max: number, score: number): { level: Level; next: Level | undefined } {
  const sorted = [...(levels && levels.length > 0 ? levels : genericLevels(max))].sort((a, b) => b.score - a.score);
  const index = sorted.findIndex((l) => score >= l.score);
  const at = index === -1 ? sorted.length - 1 : index;
  // Levels with the same score as the one reached are not "up".
  const next = sorted.slice(0, at).reverse().find((l) => l.score > sorted[at].score);
  return { level: sorted[at], next };
}

const MAX_QUOTE_WORDS = 18;

/** A sentence cut to a quotable length, at a word boundary. */
export function shortQuote(sentence: string): string {
  const words = sentence.replace(/\s+/g, ' ').trim().split(' ');
  if (words.length <= MAX_QUOTE_WORDS) return words.join(' ');
  return `${words.slice(0, MAX_QUOTE_WORDS).join(' ').replace(/[,;:]$/, '')}…`;
}

/** The piece of the answer that best shows the verdict: the strongest met signal's, else the biggest gap's. */
function pickQuote(doc: Doc, signals: WeightedSignal[]): Verdict['quote'] {
  // A met signal is shown by what it found; a slip or a repeat never stands as proof of a strength.
  const met = signals.filter((s) => s.value >= MET && s.quotes.length > 0 && s.quotesShow !== 'problem')
    .sort((a, b) => b.weight * b.value - a.weight * a.value);
  // A gap is shown only by a sentence that has the problem (a slip, a repeat), not by one that lacks it.
  const gaps = signals.filter((s) => s.value < MET && s.quotes.length > 0 && s.quotesShow === 'problem')
    .sort((a, b) => b.weight * (1 - b.value) - a.weight * (1 - a.value));
  const chosen = met[0] ?? gaps[0];
  if (chosen) return { text: shortQuote(doc.sentences[chosen.quotes[0]].text), shows: chosen.value >= MET ? chosen.found : chosen.lacking };
  if (doc.sentences.length === 0) return undefined;
  return { text: shortQuote(doc.sentences[0].text), shows: 'how the answer begins' };
}

function caveatOf(doc: Doc, result: CriterionResult, genre: string, original: number): string | undefined {
  if (doc.copiedWords > 0 && doc.copiedWords >= original * 0.5) {
    return `Most of the answer copies the question (“${shortQuote(doc.copiedExample ?? '')}”), which earns no credit.`;
  }
  if (result.topicFactor < 1) {
    return genre === 'narrative'
      ? 'The answer is not told as a story, which the task asks for, so it is marked as largely off the task.'
      : `The answer uses few of the question’s key terms (${Math.round(result.relevance * 60)}% of them), so it is marked as largely off the topic.`;
  }
  if (result.lengthFactor < 0.8) return `At ${doc.wordCount} words the answer is too short to meet the criterion fully.`;
  return undefined;
}

export function assess(input: AssessInput): Verdict[] {
  const task = readTask({
    ...(input.questionText !== undefined ? { questionText: input.questionText } : {}),
    ...(input.assignmentDesc !== undefined ? { assignmentDesc: input.assignmentDesc } : {}),
    rubricTexts: input.rubrics.flatMap((r) => [r.item, r.description ?? '', ...(r.levels ?? []).map((l) => l.descriptor)]),
  });
  const doc = readAnswer(input.answerText, input.questionText);
  const original = doc.wordCount + doc.copiedWords;
  // Fewer than five words of its own: nothing to mark.
  const answer = doc.wordCount >= 5 ? { doc, f: measure(doc, task.questionStems), stems: answerStems(doc) } : undefined;
  const priors = new Map((input.currentFeedbacks ?? []).map((f) => [f.item.trim().toLowerCase(), f]));
  const relevance = answer ? relevanceFor(answer, task) : 0;

  return input.rubrics.map((c) => {
    const max = c.max_score;
    const prior = answer ? priors.get(c.item.trim().toLowerCase()) : undefined;
    const result = answer ? scoreCriterion(c, answer, task, relevance) : undefined;
    let score = result ? roundHalf(result.fraction * max) : 0;
    if (prior && Number.isFinite(prior.score)) score = roundHalf((score + clamp(prior.score, 0, max)) / 2);
    score = clamp(score, 0, max);
    const { level, next } = levelsFor(c.levels, max, score);
    const priorNote = prior && Number.isFinite(prior.score) ? { comment: prior.comment, score: prior.score } : undefined;
    if (!result || !answer) {
      const copied = doc.copiedWords > 0;
      return {
        item: c.item, score, max, level, next, strengths: [], gaps: [{ id: 'answer', text: copied ? 'an answer of its own: it only copies the question' : 'an answer' }],
        quote: copied && doc.copiedExample ? { text: shortQuote(doc.copiedExample), shows: 'the question, copied' } : undefined,
        advice: copied ? 'answer the question in your own words; copying it earns no credit' : 'submit the answer as text or as a readable file to have it marked',
        caveat: copied ? 'The answer only copies the question, which earns no credit.' : undefined,
        prior: priorNote, result: undefined,
      };
    }
    const strengths = result.signals.filter((s) => s.value >= MET).sort((a, b) => b.weight * b.value - a.weight * a.value);
    const gaps = result.signals.filter((s) => s.value < MET).sort((a, b) => b.weight * (1 - b.value) - a.weight * (1 - a.value));
    // The next step: the biggest gap; with none, the signal furthest from full.
    const step = gaps[0] ?? [...result.signals].sort((a, b) => a.value - b.value)[0];
    return {
      item: c.item, score, max, level, next,
      strengths: strengths.map((s) => ({ id: s.id, text: s.found })),
      gaps: gaps.map((s) => ({ id: s.id, text: s.lacking })),
      quote: pickQuote(answer.doc, result.signals),
      advice: step.advice,
      caveat: caveatOf(answer.doc, result, task.genre, original),
      prior: priorNote,
      result,
    };
  });
}
