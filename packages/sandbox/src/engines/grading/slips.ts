// Slips of accuracy and of register in one sentence of the writer's own words (speech and
// quotations are not the writer's, and are left out before this is called). Spelling is checked
// against the word list (spelling.ts); the other kinds are patterns a word list cannot see.
import { CONTRACTION, countOf, GRAMMAR, NO_APOSTROPHE, SLANG, UNMARKED_CONTRACTION } from './patterns.js';
import { isWord, maybeSlip, meant } from './spelling.js';

export type SlipKind = 'spelling' | 'apostrophes' | 'capital I' | 'capital letters' | 'repeated words' | 'grammar' | 'run-on sentences';
export const SLIP_KINDS: readonly SlipKind[] = [
  'spelling',
  'apostrophes',
  'capital I',
  'capital letters',
  'repeated words',
  'grammar',
  'run-on sentences',
];

export interface SentenceSlips {
  counts: Record<SlipKind, number>;
  /** The misspelt words, as written, in order (a word misspelt twice is here twice). */
  misspelt: string[];
}

const TOKEN = /(?<![\p{L}\p{N}])\p{L}+(?:[-'’]\p{L}+)*['’]?/gu;
const isCapitalised = (w: string) => /^\p{Lu}/u.test(w);
const isAcronym = (w: string) => w.length >= 2 && w === w.toUpperCase();
/** Words a checker leaves alone: the pronoun (its capital is checked apart), slang (a matter of register) and words missing an apostrophe (counted as that). */
const NOT_SPELLING = new RegExp(`^(?:${NO_APOSTROPHE.source}|${SLANG.source})$`, 'i');
const notSpelling = (lower: string) => lower.length === 1 || NOT_SPELLING.test(lower);

/**
 * The words of a sentence that are misspelt, with where they are. A capitalised word inside a
 * sentence is taken for a name, which a word list cannot judge; one that starts the sentence is
 * checked, unless `names` (words the answer or the task capitalises inside a sentence, or the task uses) holds it,
 * and counted only when it could be a slip from a listed word ("Beleive", "Alot"), not a name the list lacks ("Finland").
 */
function misspeltIn(narration: string, names: ReadonlySet<string>): { word: string; index: number }[] {
  const out: { word: string; index: number }[] = [];
  let first = true;
  for (const m of narration.matchAll(TOKEN)) {
    const word = m[0].replace(/['’]$/, '');
    const start = first;
    first = false;
    const lower = word.toLowerCase();
    if (isAcronym(word) || notSpelling(lower) || names.has(lower)) continue;
    if ((isCapitalised(word) && !start) || isWord(lower)) continue;
    if (isCapitalised(word) && !lower.split(/[-'’]/).some((part) => !isWord(part) && maybeSlip(part))) continue;
    out.push({ word, index: m.index });
  }
  return out;
}

/**
 * A sentence as the grader reads it for its markers: each misspelt word read as the one English
 * word a slip from it, when there is one ("In my veiw" is "In my view"). The slip is still counted
 * (sentenceSlips); this only lets a position, an example or a reply be found through it.
 */
export function readThrough(text: string, names: ReadonlySet<string> = new Set()): string {
  let out = '';
  let from = 0;
  for (const { word, index } of misspeltIn(text, names)) {
    const read = meant(word);
    if (read === undefined) continue;
    out += text.slice(from, index) + (isCapitalised(word) ? read.charAt(0).toUpperCase() + read.slice(1) : read);
    from = index + word.length;
  }
  return out + text.slice(from);
}

/** Lower-case forms of the words an answer capitalises inside its sentences: names, which are not checked at a sentence's start either. */
export function capitalisedInside(sentences: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const s of sentences) {
    let first = true;
    for (const m of s.matchAll(TOKEN)) {
      if (!first && isCapitalised(m[0]) && !isAcronym(m[0])) out.add(m[0].replace(/['’]s?$/, '').toLowerCase());
      first = false;
    }
  }
  return out;
}

export function sentenceSlips(text: string, narration: string, words: number, names: ReadonlySet<string>): SentenceSlips {
  const misspelt = misspeltIn(narration, names).map((m) => m.word);
  const doubled = countOf(/\b(\w+)\s+\1\b/gi, narration) - countOf(/\b(?:had had|that that)\b/gi, narration);
  return {
    counts: {
      spelling: misspelt.length,
      apostrophes: countOf(NO_APOSTROPHE, narration),
      'capital I': countOf(/(?:^|\s)i(?=\s|['’])/g, narration),
      'capital letters': /^["“]?[a-z]/.test(text) ? 1 : 0,
      'repeated words': Math.max(0, doubled),
      grammar: countOf(GRAMMAR, narration),
      'run-on sentences': words > 45 && countOf(/[,;:]/g, text) < words / 15 ? 1 : 0,
    },
    misspelt,
  };
}

export interface SentenceRegister {
  casual: number;
  contractions: number;
  exclamations: number;
}

export function sentenceRegister(text: string, narration: string): SentenceRegister {
  return {
    casual: countOf(SLANG, narration),
    // "dont" is a contraction whose apostrophe is missing: casual, and counted as a slip too
    contractions: countOf(CONTRACTION, narration) + countOf(UNMARKED_CONTRACTION, narration),
    exclamations: countOf(/!{2,}|\?{2,}/g, text),
  };
}
