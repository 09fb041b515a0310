// How well an answer meets one criterion: the criterion's wording decides which signals count
// (a "Thesis & position" criterion is not marked on spelling), the task's genre how they are read
// (dialogue counts in a story, not in a source analysis), and two gates hold the whole mark down
// for an answer that is off the topic or too short to meet anything.

import { coverage } from './coverage.js';
import type { Doc } from './document.js';
import type { Features } from './features.js';
import { ON_TOPIC, storyValue } from './readings.js';
import { type Signal, type SignalId, signal } from './signals.js';
import type { Task, TopicTerm } from './task.js';
import { clamp, stem } from './text.js';

/** What a criterion is about, read from its name (and its description when the name says nothing). */
type Focus =
  | 'judgement'
  | 'provenance'
  | 'context'
  | 'analysis'
  | 'evidence'
  | 'position'
  | 'organisation'
  | 'conventions'
  | 'style'
  | 'ideas';

const FOCUS_WORDS: [Focus, RegExp][] = [
  ['judgement', /\bjudge?ment|\bevaluat\w*|\bverdict\b/i],
  ['provenance', /\bprovenance\b|\borigins?\b|\bnature,? origin|\breliab\w*|\bsource['’]s\b/i],
  ['context', /\bcontext\w*|\bown knowledge\b|\bhistorical\b|\bbackground\b|\bthemes?\b/i],
  ['analysis', /\banalys\w*|\banalyz\w*|\bmethods?\b|\btechniques?\b|\bwriter['’]s (?:craft|choices)\b/i],
  ['evidence', /\bevidence\b|\bquotations?\b|\btextual\b|\breferences?\b|\bsupport\w*|\binferences?\b|\bexamples?\b|\breasoning\b/i],
  ['position', /\bthesis\b|\bposition\b|\bargument\b|\binterpretation\b|\bstance\b|\bclaim\b|\bpoint of view\b|\bpurpose\b/i],
  ['organisation', /\borgani[sz]\w*|\bstructure\w*|\bparagraph\w*|\bcoheren\w*|\bsequenc\w*|\bcommunication\b/i],
  ['conventions', /\bconventions\b|\bspelling\b|\bpunctuation\b|\bgrammar\b|\baccura\w*|\bmechanics\b|\bspag\b/i],
  ['style', /\blanguage\b|\bstyle\b|\bvoice\b|\bexpression\b|\bvocabulary\b|\bregister\b|\btone\b|\bfluency\b|\bsentences?\b/i],
  ['ideas', /\bideas\b|\bcontent\b|\bplot\b|\bcreativ\w*|\bimagination\b|\bdevelopment\b|\bunderstanding\b|\bknowledge\b/i],
];

/** Focuses the criterion's name names; its description decides when the name names none. */
function focusesOf(item: string, description: string, genre: Task['genre']): Focus[] {
  // "Analysis of language & method" is about analysis, not the answer's own language.
  let name = item.replace(/\blanguage\s*(?:&|and)\s*method/i, 'method');
  // a lab report's "Method" is a section of the report, not a writer's methods to analyse
  if (genre !== 'literature' && genre !== 'source') name = name.replace(/\b(?:methods?|techniques?)\b/gi, '');
  const found = FOCUS_WORDS.filter(([, re]) => re.test(name)).map(([f]) => f);
  if (found.length > 0) return found;
  const described = FOCUS_WORDS.find(([, re]) => re.test(description));
  return [described?.[0] ?? 'ideas'];
}

type Mix = [SignalId, number][];

/** Which signals a focus is marked on, by genre, with weights that add up to 1. */
function mix(focus: Focus, genre: Task['genre']): Mix {
  const story = genre === 'narrative';
  switch (focus) {
    case 'position':
      if (genre === 'argument')
        return [
          ['position', 0.25],
          ['precision', 0.1],
          ['counter', 0.2],
          ['explanation', 0.15],
          ['frame', 0.15],
          ['development', 0.15],
        ];
      // comment on methods is what a text or a source asks for, not an argument on a task of no such kind
      if (genre === 'literature' || genre === 'source')
        return [
          ['position', 0.2],
          ['analysis', 0.2],
          ['explanation', 0.2],
          ['development', 0.2],
          ['coverage', 0.2],
        ];
      return [
        ['position', 0.25],
        ['explanation', 0.25],
        ['development', 0.25],
        ['coverage', 0.25],
      ];
    case 'evidence':
      if (genre === 'literature')
        return [
          ['quotations', 0.35],
          ['explanation', 0.25],
          ['analysis', 0.15],
          ['development', 0.15],
          ['coverage', 0.1],
        ];
      // In a source question, evidence is inference: what the source suggests, explained.
      if (genre === 'source')
        return [
          ['analysis', 0.35],
          ['explanation', 0.3],
          ['evidence', 0.15],
          ['development', 0.2],
        ];
      return [
        ['evidence', 0.35],
        ['explanation', 0.25],
        ['counter', 0.2],
        ['development', 0.1],
        ['progression', 0.1],
      ];
    case 'organisation':
      // A story is shaped by its turning point and pacing, not by "however" and "in conclusion".
      if (story)
        return [
          ['paragraphs', 0.35],
          ['turning', 0.3],
          ['development', 0.2],
          ['variety', 0.15],
        ];
      return [
        ['paragraphs', 0.3],
        ['connectives', 0.2],
        ['frame', 0.2],
        ['progression', 0.15],
        ['development', 0.15],
      ];
    case 'conventions':
      if (story)
        return [
          ['accuracy', 0.6],
          ['dialogue', 0.2],
          ['variety', 0.2],
        ];
      return [
        ['accuracy', 0.7],
        ['register', 0.15],
        ['variety', 0.15],
      ];
    case 'style':
      if (story)
        return [
          ['description', 0.3],
          ['dialogue', 0.25],
          ['variety', 0.25],
          ['vocabulary', 0.2],
        ];
      return [
        ['register', 0.3],
        ['vocabulary', 0.3],
        ['variety', 0.2],
        ['accuracy', 0.2],
      ];
    case 'analysis':
      return [
        ['analysis', 0.35],
        ['quotations', 0.2],
        ['explanation', 0.2],
        ['coverage', 0.25],
      ];
    case 'context':
      return [
        ['context', 0.4],
        ['coverage', 0.35],
        ['explanation', 0.25],
      ];
    case 'provenance':
      return [
        ['provenance', 0.5],
        ['explanation', 0.2],
        ['coverage', 0.15],
        ['development', 0.15],
      ];
    case 'judgement':
      return [
        ['judgement', 0.5],
        ['explanation', 0.2],
        ['frame', 0.15],
        ['development', 0.15],
      ];
    case 'ideas':
      if (story)
        return [
          ['story', 0.3],
          ['turning', 0.25],
          ['description', 0.15],
          ['development', 0.3],
        ];
      if (genre === 'source' || genre === 'literature')
        return [
          ['analysis', 0.3],
          ['evidence', 0.3],
          ['explanation', 0.2],
          ['development', 0.2],
        ];
      return [
        ['coverage', 0.3],
        ['evidence', 0.25],
        ['explanation', 0.25],
        ['development', 0.2],
      ];
  }
}

export interface CriterionInput {
  item: string;
  max_score: number;
  description?: string;
  levels?: { score: number; descriptor: string }[];
}

interface WeightedSignal extends Signal {
  weight: number;
}

export interface CriterionResult {
  /** In [0, CEILING]. */
  fraction: number;
  focuses: Focus[];
  signals: WeightedSignal[];
  /** Share of the topic's terms the answer uses (weighted), in [0, 1]; 1 when the task names no topic. */
  relevance: number;
  /** Set when the answer is held down for being off the topic (below 1). */
  topicFactor: number;
  /** Set when the answer is too short to meet the criterion (below 1). */
  lengthFactor: number;
}

/** The topic gate: closed below this much of the topic (or of a story), fully open from ON_TOPIC, where an answer is on the task. */
const OFF_TOPIC = 0.25;

/** Full marks need judgement this grader does not have: it leaves the last 10% to a person. */
const CEILING = 0.9;

/** An answer as a criterion reads it; `stems` counts how often each stem is used. */
export interface Answer {
  doc: Doc;
  f: Features;
  stems: ReadonlyMap<string, number>;
}

export function answerStems(doc: Doc): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of doc.sentences) for (const w of s.words) counts.set(stem(w), (counts.get(stem(w)) ?? 0) + 1);
  return counts;
}

/** How often the answer uses a key term: any form of it, or one of its obvious synonyms. */
function uses(stems: ReadonlyMap<string, number>, t: TopicTerm): number {
  return (stems.get(t.stem) ?? 0) + t.also.reduce((n, words) => n + Math.min(...words.map((w) => stems.get(w) ?? 0)), 0);
}

/** A term the question and the rubric share is the topic itself ("homework"): an answer on it keeps coming back to it. */
const CORE = 3;

/**
 * How far the answer is on the topic, in [0, 1]: the weighted share of the topic's terms it uses,
 * saturating at 60%, with the core terms (those the question and the rubric share) counting for
 * more. A core term counts in full when it recurs (once per 150 words, up to three times): a
 * uniforms essay that mentions homework once is not about homework.
 */
function relevanceOf(task: Task, stems: ReadonlyMap<string, number>): number {
  const words = [...stems.values()].reduce((a, b) => a + b, 0);
  const recurs = clamp(words / 150, 1, 3);
  const share = (terms: TopicTerm[]) => {
    const total = terms.reduce((n, t) => n + t.weight, 0);
    return total === 0
      ? undefined
      : terms.reduce((n, t) => n + t.weight * Math.min(1, uses(stems, t) / (t.weight >= CORE ? recurs : 1)), 0) / total;
  };
  const all = share(task.topic);
  if (all === undefined) return 1;
  const core = share(task.topic.filter((t) => t.weight >= CORE)) ?? all;
  return clamp((0.8 * core + 0.2 * all) / 0.6, 0, 1);
}

/** The key terms the answer never uses, weightiest first, as the question words them. */
export function missingTopic(task: Task, stems: ReadonlyMap<string, number>): string[] {
  return task.topic
    .filter((t) => t.weight >= 2 && uses(stems, t) === 0)
    .sort((a, b) => b.weight - a.weight)
    .map((t) => t.word);
}

/**
 * Whether the answer is on the task, in [0, 1]: a story told as one, or the topic's terms used.
 * The same for every criterion: assess() reads it once per answer.
 */
export function relevanceFor(answer: Answer, task: Task): number {
  if (task.genre !== 'narrative') return relevanceOf(task, answer.stems);
  return storyValue(answer.f);
}

export function scoreCriterion(c: CriterionInput, answer: Answer, task: Task, relevance = relevanceFor(answer, task)): CriterionResult {
  const focuses = focusesOf(c.item, c.description ?? '', task.genre);
  const cov = coverage(c.description ?? '', answer.doc);
  // Several focuses ("Language & conventions") share the mark equally.
  const weights = new Map<SignalId, number>();
  for (const focus of focuses) {
    for (const [id, w] of mix(focus, task.genre)) weights.set(id, (weights.get(id) ?? 0) + w / focuses.length);
  }
  // A criterion that names nothing specific is not marked on naming it.
  if (!cov) weights.delete('coverage');
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const ctx = { f: answer.f, doc: answer.doc, task, coverage: cov };
  const signals: WeightedSignal[] = [...weights.entries()].map(([id, w]) => ({ ...signal(id, ctx), weight: w / total }));
  const raw = signals.reduce((n, s) => n + s.value * s.weight, 0);

  const topicFactor = clamp((relevance - OFF_TOPIC) / (ON_TOPIC - OFF_TOPIC), 0, 1);
  const lengthFactor = Math.min(1, Math.sqrt(answer.f.words / Math.max(1, task.length.low * 0.5)));
  return {
    fraction: clamp(raw * topicFactor * lengthFactor * CEILING, 0, CEILING),
    focuses,
    signals: signals.sort((a, b) => b.weight - a.weight),
    relevance,
    topicFactor,
    lengthFactor,
  };
}
