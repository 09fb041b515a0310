// Words and stems shared by the grader's parts.

import { inWordList, isWord } from './spelling.js';
import { FILLER, STOP } from './vocabulary.js';

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** First halves that stay hyphenated when a line break splits them ("well-\nknown"): the rest are one word ("af-\nford"). */
const COMPOUND_FIRST = new Set(
  `well self ex non anti half part full long short high low so one two three four five first second
third all free old new far cross mid post pre co re semi multi under over out up down off on in ill life long-term world
year time face hand left right part-time`.split(/\s+/),
);

function rejoin(_m: string, first: string, second: string): string {
  // "pre- and post-war" keeps its hyphen and its space.
  if (/^(?:and|or|to|nor)$/i.test(second)) return `${first}- ${second}`;
  // "re-\nquire" is "require", a word of the list: the hyphen was the line break's
  if (inWordList(`${first}${second}`.toLowerCase())) return `${first}${second}`;
  return COMPOUND_FIRST.has(first.toLowerCase()) ? `${first}-${second}` : `${first}${second}`;
}

/** Two letter runs a space or a line end parts, the second in lower case: where a scan may have split one word. */
const SPLIT = /(?<![\p{L}\p{N}'’-])(\p{L}+)(?:[ \t]+|[ \t]*\r?\n[ \t]*)(?=(\p{Ll}+)(?![\p{L}\p{N}'’-]))/gu;

/**
 * Words a scan split with a space or a line end ("stu dents", "con\nclusion"): one word when
 * joined they are a word of the list and apart they are not both words ("some one" stays two).
 */
function joinSplitWords(text: string): string {
  return text.replace(SPLIT, (m, first: string, second: string) => {
    const joined = `${first}${second}`.toLowerCase();
    if (joined.length < 5 || second.length < 2 || !inWordList(joined)) return m;
    return isWord(first.toLowerCase()) && isWord(second) ? m : first;
  });
}

/** A line that ends a sentence (or a clause, with a colon), as `assemble` reads one: a break after it is the writer's. */
const LINE_ENDED = /[.!?…]["”’)\]]*$|[.!?]['"”’]$|:$/;
/** A letter's greeting or sign-off ("Dear Sir,", "Yours sincerely,"): the line after it is its own, whatever its case. */
const FRAME_LINE = /^\s*(?:dear|to whom|yours|sincerely|best wishes|kind regards|regards|many thanks|with thanks|from)\b/i;

/**
 * A blank line after a line that stops mid-sentence, before one in lower case ("hand their
 * phones\n\nin at the start"), is a break a scan or a page made, not a paragraph: it is left as one
 * line end, which `assemble` joins as a wrap, so a sentence reads the same however it was broken.
 */
function joinBrokenSentences(text: string): string {
  return text.replace(/^([^\n]*\S)[ \t]*(?:\r?\n[ \t]*){2,}(?=\p{Ll})/gmu, (m, line: string) =>
    LINE_ENDED.test(line) || FRAME_LINE.test(line) ? m : `${line}\n`,
  );
}

/**
 * The answer as its writer wrote it, without the artefacts of scanning: a vertical bar or a lone
 * "l" read for the pronoun "I" ("Yes, | think"), words a line break split with a hyphen
 * ("af-\nford", "every- one" once the lines are joined; "re-\nquire" when joined it is a listed word), words
 * a scan split with a space ("stu dents"), and a sentence a blank line broke in two.
 * Marking and quoting both read this.
 */
export function normaliseAnswer(text: string): string {
  return joinSplitWords(
    joinBrokenSentences(text)
      // a bar or a lone "l" before a verb the pronoun takes ("| think", "l was", "|'m"): never a
      // table's cells, which extraction joins with " | "
      .replace(
        /(^|[\s"“‘(])[|l](?=\s+(?:think|believe|am|was|have|had|would|will|feel|agree|disagree|do|did|can|could|should|must|know|want|hope|moved|went|saw|said|remember|really|also|never|always)\b|['’](?:m|ve|ll|d)\b)/gmu,
        '$1I',
      )
      // From the start of a word only: a run of letters is scanned once, not once per letter.
      .replace(/(?<!\p{L})(\p{L}+)-[ \t]*\r?\n[ \t]*(\p{Ll}+)/gu, rejoin)
      .replace(/(?<!\p{L})(\p{L}+)- (\p{Ll}+)/gu, rejoin),
  );
}

/** Lower-case word tokens, apostrophes kept inside words ("students'" → "students"). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

// Suffixes tried longest first; `to` replaces the suffix. Enough to match "argues"/"argument",
// "organisation"/"organise", "families"/"family", not a full Porter stemmer.
const SUFFIXES: [string, string][] = [
  ['ational', 'ate'],
  ['isations', 'ise'],
  ['isation', 'ise'],
  ['ations', ''],
  ['ation', ''],
  ['itions', ''],
  ['ssions', 'ss'],
  ['ssion', 'ss'],
  ['ctions', 'ct'],
  ['ction', 'ct'],
  ['ition', ''],
  ['fulness', 'ful'],
  ['iveness', 'ive'],
  ['nesses', ''],
  ['ness', ''],
  ['ments', ''],
  ['ment', ''],
  ['ingly', ''],
  ['ings', ''],
  ['ing', ''],
  ['edly', ''],
  ['ies', 'y'],
  ['ied', 'y'],
  ['ed', ''],
  ['ly', ''],
  ['sses', 'ss'],
  ['xes', 'x'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['s', ''],
];

const stemCache = new Map<string, string>();

function stemOnce(w: string): string {
  for (const [suffix, to] of SUFFIXES) {
    if (!w.endsWith(suffix)) continue;
    const base = w.slice(0, -suffix.length) + to;
    if (base.length < 3) return w;
    if (suffix === 's' && /(?:ss|us|is)$/.test(w)) return w;
    return base;
  }
  return w;
}

/** A crude, stable stem: equal stems are what "the answer mentions this term" means. */
export function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  let w = word.replace(/['’]s?$/, '').replace(/iz(e|es|ed|ing|ation|ations|er|ers)$/, 'is$1');
  if (w.length > 3 && !/^\d/.test(w)) {
    w = stemOnce(stemOnce(w));
    if (w.length > 4 && w.endsWith('e')) w = w.slice(0, -1);
    if (/([b-df-hj-km-np-rtv-z])\1$/.test(w) && !/(?:ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  }
  // Bounded so a stream of unique junk words cannot grow the cache without end.
  if (stemCache.size > 100_000) stemCache.clear();
  stemCache.set(word, w);
  return w;
}

let fillerStems: Set<string> | undefined;

/** A word that can say what an answer is about: not a stop-word, not marking language, not a number. */
export function isContentWord(word: string): boolean {
  if (word.length < 3 || STOP.has(word) || FILLER.has(word) || /^\d+$/.test(word)) return false;
  // By stem too, so "assertions" and "retold" count as the marking language they are.
  fillerStems ??= new Set([...FILLER].map(stem));
  return !fillerStems.has(stem(word));
}

export interface Term {
  stem: string;
  word: string;
  weight: number;
}

/** Distinct content terms of some texts, heavier weights winning, in order of first appearance. */
export function contentTerms(sources: { text: string | undefined; weight: number }[]): Term[] {
  const byStem = new Map<string, Term>();
  for (const { text, weight } of sources) {
    if (!text) continue;
    for (const w of words(text)) {
      if (!isContentWord(w)) continue;
      const s = stem(w);
      const known = byStem.get(s);
      if (!known) byStem.set(s, { stem: s, word: w, weight });
      else if (known.weight < weight) known.weight = weight;
    }
  }
  return [...byStem.values()];
}

/** 0.5 steps, the grain of every score the sandbox gives. */
export function roundHalf(x: number): number {
  return Math.round(x * 2) / 2;
}

export function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
