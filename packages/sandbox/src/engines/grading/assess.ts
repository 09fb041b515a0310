// The grader's judgement of one answer, before it is written up: for each criterion the score, the
// level descriptor reached and the next one up, what the answer shows and lacks, a short quotation
// from it and the next step. One judgement: the facts found in the answer (facts.ts) decide which
// level the evidence fits, the score is kept inside that level's band, and only lines that agree
// with the facts and with the level are kept (claims.ts). Feedback in every style is written from
// this, so the styles differ in form, never in verdict.
import { type Clause, contradicted, disagreements, type Facts, readClaims } from './claims.js';
import {
  answerStems,
  CEILING,
  type CriterionInput,
  type CriterionResult,
  missingTopic,
  relevanceFor,
  scoreCriterion,
  type WeightedSignal,
} from './criterion.js';
import { type Doc, readAnswer } from './document.js';
import { factsOf } from './facts.js';
import { type Features, measure } from './features.js';
import { type Fit, judgeLevel, type Level, levelClaims } from './levels.js';
import { MET } from './signals.js';
import { readTask, type Task } from './task.js';
import { clamp, roundHalf } from './text.js';

export type { Level } from './levels.js';

interface Finding {
  id: string;
  text: string;
}

export interface Verdict {
  item: string;
  score: number;
  max: number;
  level: Level;
  /** The next level up; undefined at the top. */
  next: Level | undefined;
  /** Whether the level's descriptor fits the evidence, or not (the closest when none fits; held there when off the topic): only a fitting one is quoted. */
  fit: Fit;
  /** What the answer shows, strongest first: each true of the answer and in agreement with the level. */
  strengths: Finding[];
  /** What it lacks, biggest gap first, on the same terms. */
  gaps: Finding[];
  /** A short piece of the answer and the finding (one of the strengths or gaps) it proves; undefined when nothing proves one. */
  quote: { text: string; finding: string; problem: boolean } | undefined;
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

/** Shows and Lacks lines kept at most: a teacher makes few claims, each one true. */
const MAX_STRENGTHS = 3;
const MAX_GAPS = 3;

const MAX_QUOTE_WORDS = 18;

/** A sentence cut to a quotable length, at a word boundary. */
function shortQuote(sentence: string): string {
  const words = sentence.replace(/\s+/g, ' ').trim().split(' ');
  if (words.length <= MAX_QUOTE_WORDS) return words.join(' ');
  return `${words
    .slice(0, MAX_QUOTE_WORDS)
    .join(' ')
    .replace(/[,;:]$/, '')}…`;
}

/**
 * The piece of the answer that proves a finding kept: the strongest strength with a sentence that
 * shows it, else the biggest gap shown by a sentence that has the problem (a slip, a repeat). A
 * quote offered as proof of the writing itself (vocabulary) holds none of the slips found.
 */
function pickQuote(doc: Doc, f: Features, strengths: WeightedSignal[], gaps: WeightedSignal[]): Verdict['quote'] {
  const flawed = new Set([...f.errors.sentences, ...f.informal.sentences]);
  const usable = (s: WeightedSignal) => s.quotes.filter((i) => !s.cleanQuotes || !flawed.has(i));
  for (const s of strengths) {
    const at = s.quotesShow === 'problem' ? [] : usable(s);
    if (at.length > 0) return { text: shortQuote(doc.sentences[at[0]].text), finding: s.found, problem: false };
  }
  for (const s of gaps) {
    if (s.quotesShow === 'problem' && s.quotes.length > 0)
      return { text: shortQuote(doc.sentences[s.quotes[0]].text), finding: s.lacking, problem: true };
  }
  return undefined;
}

function caveatOf(
  doc: Doc,
  result: CriterionResult,
  task: Task,
  stems: ReadonlyMap<string, number>,
  storyTold: boolean,
  original: number,
): string | undefined {
  if (doc.copiedWords > 0 && doc.copiedWords >= original * 0.5) {
    return `Most of the answer copies the question (“${shortQuote(doc.copiedExample ?? '')}”), which earns no credit.`;
  }
  if (result.topicFactor < 1) {
    if (task.genre === 'narrative') {
      return storyTold
        ? 'The answer is only partly told as a story, which the task asks for, so it is marked as largely off the task.'
        : 'The answer is not told as a story, which the task asks for, so it is marked as largely off the task.';
    }
    const missing = missingTopic(task, stems)
      .slice(0, 3)
      .map((t) => `“${t}”`);
    const named =
      missing.length === 0
        ? ''
        : ` (it never mentions ${missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} or ${missing.at(-1)}`})`;
    return `The answer uses few of the question’s key terms${named}, so it is marked as largely off the topic.`;
  }
  if (result.lengthFactor < 0.8) return `At ${doc.wordCount} words the answer is too short to meet the criterion fully.`;
  return undefined;
}

/**
 * The lines of a criterion worth keeping: each true of the answer (no claim against the facts)
 * and in agreement with the level named, the caveat and the lines kept before it.
 */
function keepAgreeing(
  signals: WeightedSignal[],
  text: (s: WeightedSignal) => string,
  polarity: 'states' | 'lacks',
  said: Clause[],
  facts: Facts,
  most: number,
): WeightedSignal[] {
  const kept: WeightedSignal[] = [];
  for (const s of signals) {
    if (kept.length >= most) break;
    const claims = readClaims(text(s), polarity);
    if (claims.some((c) => contradicted(c, facts))) continue;
    if (disagreements([...said, ...claims]).length > 0) continue;
    said.push(...claims);
    kept.push(s);
  }
  return kept;
}

export function assess(input: AssessInput): Verdict[] {
  const task = readTask({
    ...(input.questionText !== undefined ? { questionText: input.questionText } : {}),
    ...(input.assignmentDesc !== undefined ? { assignmentDesc: input.assignmentDesc } : {}),
    rubricTexts: input.rubrics.map((r) => [r.item, r.description ?? '', ...(r.levels ?? []).map((l) => l.descriptor)].join('\n')),
  });
  const doc = readAnswer(input.answerText, input.questionText);
  const original = doc.wordCount + doc.copiedWords;
  // Fewer than five words of its own: nothing to mark.
  const answer = doc.wordCount >= 5 ? { doc, f: measure(doc, task.questionStems), stems: answerStems(doc) } : undefined;
  const priors = new Map((input.currentFeedbacks ?? []).map((f) => [f.item.trim().toLowerCase(), f]));
  const relevance = answer ? relevanceFor(answer, task) : 0;
  const facts: Facts = answer ? factsOf({ f: answer.f, doc, task, coverage: undefined }, relevance) : new Map();

  return input.rubrics.map((c) => {
    const max = c.max_score;
    const prior = answer ? priors.get(c.item.trim().toLowerCase()) : undefined;
    const result = answer ? scoreCriterion(c, answer, task, relevance) : undefined;
    let measured = result ? roundHalf(result.fraction * max) : 0;
    if (prior && Number.isFinite(prior.score)) measured = roundHalf((measured + clamp(prior.score, 0, max)) / 2);
    measured = clamp(measured, 0, max);
    // The level the evidence fits, and the score within its band; an answer held down as off the
    // topic stays where the gate put it (its merits are not the question's).
    const { level, next, score, fit } = judgeLevel(c.levels, max, measured, facts, {
      ceiling: Math.max(measured, Math.floor(max * CEILING * 2) / 2),
      hold: result !== undefined && result.topicFactor < 1,
    });
    const priorNote = prior && Number.isFinite(prior.score) ? { comment: prior.comment, score: prior.score } : undefined;
    if (!result || !answer) {
      const copied = doc.copiedWords > 0;
      return {
        item: c.item,
        score,
        max,
        level,
        next,
        fit,
        strengths: [],
        gaps: [{ id: 'answer', text: copied ? 'an answer of its own: it only copies the question' : 'an answer' }],
        quote:
          copied && doc.copiedExample ? { text: shortQuote(doc.copiedExample), finding: 'the question, copied', problem: true } : undefined,
        advice: copied
          ? 'answer the question in your own words; copying it earns no credit'
          : 'submit the answer as text or as a readable file to have it marked',
        caveat: copied ? 'The answer only copies the question, which earns no credit.' : undefined,
        prior: priorNote,
        result: undefined,
      };
    }
    const caveat = caveatOf(answer.doc, result, task, answer.stems, facts.get('story') === true, original);
    // A level whose descriptor does not fit is named without it, so it claims nothing.
    const said: Clause[] = [...(fit === 'fits' ? levelClaims(level) : []), ...(caveat ? readClaims(caveat) : [])];
    const met = result.signals.filter((s) => s.value >= MET).sort((a, b) => b.weight * b.value - a.weight * a.value);
    const unmet = result.signals.filter((s) => s.value < MET).sort((a, b) => b.weight * (1 - b.value) - a.weight * (1 - a.value));
    const strengths = keepAgreeing(met, (s) => s.found, 'states', said, facts, MAX_STRENGTHS);
    const gaps = keepAgreeing(unmet, (s) => s.lacking, 'lacks', said, facts, MAX_GAPS);
    // The next step: the biggest gap; with none kept, the signal furthest from full.
    const step = gaps[0] ?? unmet[0] ?? [...result.signals].sort((a, b) => a.value - b.value)[0];
    return {
      item: c.item,
      score,
      max,
      level,
      next,
      fit,
      strengths: strengths.map((s) => ({ id: s.id, text: s.found })),
      gaps: gaps.map((s) => ({ id: s.id, text: s.lacking })),
      quote: pickQuote(answer.doc, answer.f, strengths, gaps),
      advice: step.advice,
      caveat,
      prior: priorNote,
      result,
    };
  });
}
