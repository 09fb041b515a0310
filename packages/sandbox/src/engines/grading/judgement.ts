// One judgement per criterion, as a typed record: the measured points (each met or not, with the
// numbers it was measured by), the score they give, the level that score is at by the rubric's
// own points, a quotation that shows one of the points, the next step and why the whole answer
// was held down. feedback.ts writes every sentence from this record and from nothing else.
import { contradicted, type Facts, readClaims } from './claims.js';
import { answerStems, type CriterionInput, type CriterionResult, missingTopic, relevanceFor, scoreCriterion } from './criterion.js';
import { type Doc, readAnswer } from './document.js';
import { factsOf } from './facts.js';
import { type Features, measure } from './features.js';
import { type Standing, standing } from './levels.js';
import { contradicts, MET, type Measured, type Part, type SignalId, wanting } from './signals.js';
import { foreignWords } from './spelling.js';
import { readTask, type Task } from './task.js';
import { clamp, roundHalf, words } from './text.js';

export interface Point {
  id: SignalId;
  /** Its share of the criterion's score. */
  weight: number;
  value: number;
  measured: Measured;
}

interface Quote {
  /** At most 18 of the answer's words, cut at word boundaries around what they show. */
  text: string;
  /** The point it is quoted for: one of the Shows (the feature) or, with `problem`, one of the Lacks (a slip, a repeat). */
  point: SignalId;
  problem: boolean;
  /** The words in it where the measurement found the point. */
  shows: string | undefined;
  /** The part of the point it shows, when its line claims more than one sentence can (signals.ts, Part). */
  part: Part | undefined;
}

export type Caveat =
  | { kind: 'copied'; quote: string }
  | { kind: 'off_topic'; missing: string[] }
  | { kind: 'not_story'; partly: boolean }
  | { kind: 'short'; words: number; low: number; high: number; stated: boolean };

export interface Judgement {
  item: string;
  max: number;
  /** The measured score, averaged with an earlier one when given; in [0, max], in steps of 0.5. */
  score: number;
  /** The level the score is at, or nearest, by the rubric's points, and the next one up. */
  standing: Standing;
  /** Whether the named level's descriptor agrees with everything measured, so that it may be quoted. */
  descriptorHolds: boolean;
  /** Every point the criterion is marked on, as measured. */
  points: Point[];
  /** Those said: the points met, strongest first (at most three), and the points not met or gone against (signals.ts, `wanting`), what it goes against first, then the biggest gap. */
  shows: Point[];
  lacks: Point[];
  /** The next step: the biggest gap; undefined when every point is met. */
  step: Point | undefined;
  quote: Quote | undefined;
  /** Why the whole answer was held down, when it was. */
  caveat: Caveat | undefined;
  /** An earlier mark averaged in. */
  prior: { comment: string; score: number } | undefined;
  /**
   * Set when there was nothing to mark: no sentence of the answer's own (no text, only the question
   * copied, or only a heading, greeting or sign-off: `words` of them), or an answer not in English.
   */
  empty: { copied: string | undefined; notEnglish: NotEnglish | undefined; words: number } | undefined;
}

/** An answer most of whose words are neither English nor a slip from an English word: the grader cannot read it. */
interface NotEnglish {
  words: number;
  foreign: number;
  /** The first few of them, as the answer writes them (lower case). */
  examples: string[];
}

/** Past this share of foreign words an answer is not read as English (a weak speller's essays stay under a fifth). */
const NOT_ENGLISH = 0.5;

function notEnglish(doc: Doc): NotEnglish | undefined {
  const tokens = doc.sentences.flatMap((s) => s.words).filter((w) => /\p{L}/u.test(w));
  const foreign = foreignWords(tokens);
  if (tokens.length < 5 || foreign.length <= tokens.length * NOT_ENGLISH) return undefined;
  return { words: tokens.length, foreign: foreign.length, examples: [...new Set(foreign)].slice(0, 3) };
}

export interface JudgeInput {
  answerText: string;
  questionText?: string;
  assignmentDesc?: string;
  rubrics: CriterionInput[];
  currentFeedbacks?: { item: string; comment: string; score: number }[];
}

/** Points kept in Shows and in Lacks: a teacher makes few claims, each one true. */
const MOST = 3;
const QUOTE_WORDS = 18;

/**
 * A sentence cut to a quotable length around the words that show the point, at word boundaries,
 * with "…" where it was cut; `shows` is kept whole in it (its first eight words when longer).
 */
function excerpt(sentence: string, shows?: string): { text: string; shows: string | undefined } {
  const tokens = sentence.replace(/\s+/g, ' ').trim().split(' ');
  const marker = shows?.replace(/\s+/g, ' ').trim().split(' ').slice(0, 8).join(' ');
  if (tokens.length <= QUOTE_WORDS) return { text: tokens.join(' '), shows: marker };
  let first = 0;
  if (marker) {
    const at = tokens.join(' ').indexOf(marker);
    if (at >= 0) {
      const startToken = tokens.join(' ').slice(0, at).split(' ').length - 1;
      const length = marker.split(' ').length;
      first = clamp(startToken - 3, 0, tokens.length - QUOTE_WORDS);
      if (startToken + length > first + QUOTE_WORDS) first = Math.max(0, startToken + length - QUOTE_WORDS);
    }
  }
  const kept = tokens.slice(first, first + QUOTE_WORDS).join(' ');
  const text = `${first > 0 ? '…' : ''}${kept.replace(/[,;:]$/, '')}${first + QUOTE_WORDS < tokens.length ? '…' : ''}`;
  return { text, shows: marker && text.includes(marker) ? marker : undefined };
}

/** The quotation: a sentence that shows the strongest point kept, else one with the biggest gap's problem. */
function pickQuote(doc: Doc, f: Features, result: CriterionResult, shows: Point[], lacks: Point[]): Quote | undefined {
  const flawed = new Set([...f.errors.sentences, ...f.informal.sentences]);
  const evidenceOf = (id: SignalId) => result.signals.find((s) => s.id === id)?.evidence ?? [];
  for (const p of shows) {
    const e = evidenceOf(p.id).find((x) => !x.problem && !(x.clean && flawed.has(x.sentence)));
    if (e) return { ...excerpt(doc.sentences[e.sentence].text, e.words), point: p.id, problem: false, part: e.part };
  }
  for (const p of lacks) {
    const e = evidenceOf(p.id).find((x) => x.problem);
    if (e) return { ...excerpt(doc.sentences[e.sentence].text, e.words), point: p.id, problem: true, part: e.part };
  }
  return undefined;
}

/** Under this many words an answer is too short to say what it is about: it is held down as short, not as off the topic. */
const TOO_FEW_FOR_TOPIC = 20;

function caveatOf(doc: Doc, result: CriterionResult, task: Task, stems: ReadonlyMap<string, number>, original: number): Caveat | undefined {
  if (doc.copiedWords > 0 && doc.copiedWords >= original * 0.5) return { kind: 'copied', quote: excerpt(doc.copiedExample ?? '').text };
  const short =
    result.lengthFactor < 0.8
      ? ({ kind: 'short', words: doc.wordCount, low: task.length.low, high: task.length.high, stated: task.length.stated } as const)
      : undefined;
  if (short && doc.wordCount < TOO_FEW_FOR_TOPIC) return short;
  if (result.topicFactor < 1) {
    // Partly: the gate is not shut, only not fully open.
    if (task.genre === 'narrative') return { kind: 'not_story', partly: result.topicFactor > 0 };
    return { kind: 'off_topic', missing: missingTopic(task, stems).slice(0, 3) };
  }
  return short;
}

const strength = (p: Point) => p.weight * p.value;
const gap = (p: Point) => p.weight * (1 - p.value);

export function judge(input: JudgeInput): Judgement[] {
  const rubricTexts = input.rubrics.map((r) => [r.item, r.description ?? '', ...(r.levels ?? []).map((l) => l.descriptor)].join('\n'));
  const task = readTask({
    ...(input.questionText !== undefined ? { questionText: input.questionText } : {}),
    ...(input.assignmentDesc !== undefined ? { assignmentDesc: input.assignmentDesc } : {}),
    rubricTexts,
  });
  const doc = readAnswer(input.answerText, input.questionText);
  const original = doc.wordCount + doc.copiedWords;
  const taskWords = new Set(words([input.questionText ?? '', input.assignmentDesc ?? '', ...rubricTexts].join('\n')));
  // No sentence of its own, or words this grader cannot read: nothing to mark. A word or two is an answer, marked as too short.
  const foreign = notEnglish(doc);
  const answer =
    doc.sentences.length > 0 && !foreign ? { doc, f: measure(doc, task.questionStems, taskWords), stems: answerStems(doc) } : undefined;
  const priors = new Map((input.currentFeedbacks ?? []).map((f) => [f.item.trim().toLowerCase(), f]));
  const relevance = answer ? relevanceFor(answer, task) : 0;
  const facts: Facts = answer ? factsOf({ f: answer.f, doc, task, coverage: undefined }, relevance) : new Map();

  return input.rubrics.map((c) => {
    const max = c.max_score;
    const found = answer ? priors.get(c.item.trim().toLowerCase()) : undefined;
    const prior = found && Number.isFinite(found.score) ? { comment: found.comment, score: found.score } : undefined;
    const result = answer ? scoreCriterion(c, answer, task, relevance) : undefined;
    let score = result ? roundHalf(result.fraction * max) : 0;
    if (prior) score = roundHalf((score + clamp(prior.score, 0, max)) / 2);
    score = clamp(score, 0, max);
    const at = standing(c.levels, max, score);
    // A descriptor is quoted only when nothing measured goes against it (the sandbox's own levels claim nothing).
    const descriptorHolds = at.level.generic === true || !readClaims(at.level.descriptor).some((clause) => contradicted(clause, facts));
    const judged = { item: c.item, max, score, standing: at, descriptorHolds, prior };
    if (!result || !answer) {
      const copied = doc.copiedWords > 0 ? excerpt(doc.copiedExample ?? '').text : undefined;
      return {
        ...judged,
        points: [],
        shows: [],
        lacks: [],
        step: undefined,
        quote: undefined,
        caveat: undefined,
        empty: { copied, notEnglish: foreign, words: doc.wordCount },
      };
    }
    const points: Point[] = result.signals.map((s) => ({ id: s.id, weight: s.weight, value: s.value, measured: s.measured }));
    const shows = points
      .filter((p) => p.value >= MET)
      .sort((a, b) => strength(b) - strength(a))
      .slice(0, MOST);
    // what the answer goes against comes first: a teacher says it before what is only missing
    const against = (p: Point) => (contradicts(p.measured) ? 1 : 0);
    const lacks = points
      .filter(wanting)
      .sort((a, b) => against(b) - against(a) || gap(b) - gap(a))
      .slice(0, MOST);
    return {
      ...judged,
      points,
      shows,
      lacks,
      step: lacks[0],
      quote: pickQuote(answer.doc, answer.f, result, shows, lacks),
      caveat: caveatOf(answer.doc, result, task, answer.stems, original),
      empty: undefined,
    };
  });
}
