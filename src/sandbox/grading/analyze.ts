import { isStopWord, stem, words } from './text.js';

/** What the grader knows about an answer: its words by stem, and plain measurable signals. */
export interface AnswerProfile {
  wordCount: number;
  /** stem → the first spelling of it in the answer, for quoting back. */
  stems: Map<string, string>;
  sentences: number;
  meanSentenceWords: number;
  /** Coefficient of variation of sentence lengths: 0 means every sentence is as long. */
  sentenceVariety: number;
  paragraphs: number;
  /** Phrases that introduce support ("for example", "because", "according to"...). */
  evidenceMarkers: string[];
  figures: number;
  quotations: number;
  connectives: string[];
  counterArgument: boolean;
  position: boolean;
  /** Distinct stems over words in the first 1,000 words (longer texts always look repetitive). */
  vocabulary: number;
}

const EVIDENCE = ['for example', 'for instance', 'such as', 'because', 'according to', 'research', 'survey',
  'study', 'studies', 'evidence', 'shows that', 'found that', 'statistics', 'data', 'this means', 'as a result'];
const CONNECTIVES = ['first', 'firstly', 'second', 'secondly', 'third', 'thirdly', 'finally', 'however',
  'furthermore', 'moreover', 'in addition', 'on the other hand', 'therefore', 'in conclusion', 'to conclude',
  'overall', 'also', 'although', 'consequently', 'as a result'];
const COUNTER = /\b(?:however|on the other hand|critics|opponents|some people (?:say|argue|think|believe)|although|admittedly|others (?:argue|say|claim))\b/i;
const POSITION = /\b(?:i (?:believe|think|argue|feel)|in my (?:view|opinion)|this essay (?:argues|will)|in conclusion|to conclude|should|must)\b/i;

// Signals come from the start of very long answers: 200,000 characters is far beyond any essay
// and keeps grading of a 1 MB paste within a few tens of milliseconds.
const SCAN_LIMIT = 200_000;

function phrasesFound(lower: string, phrases: string[]): string[] {
  return phrases.filter((p) => new RegExp(`\\b${p}\\b`).test(lower));
}

export function analyze(answer: string): AnswerProfile {
  const text = answer.length > SCAN_LIMIT ? answer.slice(0, SCAN_LIMIT) : answer;
  const lower = text.toLowerCase();
  const tokens = words(text);
  const stems = new Map<string, string>();
  const vocabulary = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const s = stem(tokens[i]);
    if (i < 1000) vocabulary.add(s);
    // Stop-words never stand for a key term ("them" is not "themes").
    if (!stems.has(s) && !isStopWord(tokens[i])) stems.set(s, tokens[i]);
  }
  const sample = Math.min(tokens.length, 1000);

  const sentenceLengths = text
    .split(/[.!?]+(?=\s|$)|\n\s*\n/)
    .map((s) => words(s).length)
    .filter((n) => n > 0);
  const mean = sentenceLengths.reduce((a, b) => a + b, 0) / Math.max(1, sentenceLengths.length);
  const variance = sentenceLengths.reduce((a, n) => a + (n - mean) ** 2, 0) / Math.max(1, sentenceLengths.length);

  const profile: AnswerProfile = {
    wordCount: answer.length > SCAN_LIMIT ? Math.round(tokens.length * (answer.length / SCAN_LIMIT)) : tokens.length,
    stems,
    sentences: sentenceLengths.length,
    meanSentenceWords: mean,
    sentenceVariety: mean > 0 ? Math.sqrt(variance) / mean : 0,
    paragraphs: text.split(/\n\s*\n/).filter((p) => words(p).length > 0).length,
    evidenceMarkers: phrasesFound(lower, EVIDENCE),
    figures: (text.match(/\b\d+(?:[.,]\d+)?\s*%?/g) ?? []).length,
    quotations: (text.match(/["“][^"”\n]{3,}["”]/g) ?? []).length,
    connectives: phrasesFound(lower, CONNECTIVES),
    counterArgument: COUNTER.test(text),
    position: POSITION.test(text),
    vocabulary: sample > 0 ? vocabulary.size / sample : 0,
  };
  return profile;
}
