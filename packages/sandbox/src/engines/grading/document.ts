// An answer as the grader reads it: paragraphs and sentences, with any sentence that only copies
// the question set aside (a restated question earns nothing, and is not held against the rest).
import { LIST_MARKER, plainTextBlocks } from '../extract/structure.js';
import { normaliseAnswer, words } from './text.js';

interface Sentence {
  text: string;
  /** Index of its paragraph in `Doc.paragraphs`. */
  paragraph: number;
  words: string[];
}

export interface Doc {
  paragraphs: string[];
  sentences: Sentence[];
  /** Every word of the answer (headings and a letter's frame included) but those that copy the question. */
  wordCount: number;
  /** Words of the answer that copy the question, left out of everything above. */
  copiedWords: number;
  /** The first copied sentence, to quote back. */
  copiedExample?: string;
  /** Headings set apart from the text ("Method" on a line of its own), each with the index of the first sentence after it. */
  headings: { text: string; sentence: number }[];
}

// Signals come from the start of very long answers: 100,000 characters (about 16,000 words) is
// far beyond any essay and bounds the cost of grading a 1 MB paste.
const SCAN_LIMIT = 100_000;

// "From Sam" signs a letter off; "From that day on, Ben sat at the front." ends a story: a sentence is not a sign-off
const LETTER_FRAME =
  /^(?:dear\b.*[,:]?$|to (?:the|whom|all)\b[^.]*[,:]$|(?:yours (?:faithfully|sincerely|truly)|sincerely|best wishes|kind regards|regards|many thanks|with thanks)\b|from\b(?![\s\S]*[.!?]["”’]?\s*$))/is;

const SIGN_OFF =
  /^(?:(?:yours (?:faithfully|sincerely|truly)|sincerely|best wishes|kind regards|regards|many thanks|with thanks)\b|from\b(?![\s\S]*[.!?]["”’]?\s*$))/i;

// An initial follows a space, a bracket or another initial ("J. K.", "U.S."): the "t." of "don't." ends a sentence.
const ABBREVIATION =
  /(?:\b(?:Mr|Mrs|Ms|Dr|St|Prof|Sr|Jr|vs|etc|No|Vol|pp?|Fig|approx|e\.g|i\.e|a\.m|p\.m)|(?<=^|[\s([]|[A-Za-z]\.)[A-Za-z])\.$/;
/** A list's number on its own ("1."): it heads the sentence after it, and is neither a sentence nor part of one. */
const LIST_NUMBER = /^\(?\d{1,3}[.)]$/;

/**
 * Sentences of a paragraph: at . ! ? (and a closing quote) before the next word, and at line ends.
 * A sentence a student began in lower case ("itchy. also they cost") is a sentence still (its slip is counted).
 */
function sentencesOf(paragraph: string): string[] {
  const out: string[] = [];
  for (const line of paragraph.split('\n')) {
    const parts = line.split(/(?<=[.!?…]["”’')\]]*)\s+(?=["“‘'([]?[\p{L}\p{N}])/u);
    let pending = '';
    for (let k = 0; k < parts.length; k++) {
      // a list's number inside a paragraph ("Reasons: 1. Cost. 2. Style.") is layout, not a word of the sentence it heads
      if (LIST_NUMBER.test(parts[k])) continue;
      pending = pending ? `${pending} ${parts[k]}` : parts[k];
      const next = parts[k + 1];
      // a quotation or a speech of several sentences is one ("I can't jump. It is too high."), when it closes on its line
      const quoting = next !== undefined && quoteOpen(pending) && parts.slice(k + 1).some((rest) => /["”]/.test(rest));
      // "Are you coming?" asked Mum: a dialogue tag goes on the sentence of its speech
      const tagged = next !== undefined && /[?!]["”]$/.test(pending) && /^\p{Ll}/u.test(next);
      if (!ABBREVIATION.test(pending) && !quoting && !tagged) {
        if (pending.trim()) out.push(pending.trim());
        pending = '';
      }
    }
    if (pending.trim()) out.push(pending.trim());
  }
  return out;
}

/** A double quotation left open: an odd number of straight marks, or more “ than ”. */
function quoteOpen(text: string): boolean {
  let straight = 0;
  let curly = 0;
  for (const c of text) {
    if (c === '"') straight++;
    else if (c === '“') curly++;
    else if (c === '”') curly--;
  }
  return straight % 2 === 1 || curly > 0;
}

/** A single mark that opens a quotation: after a start, space, colon or opening bracket, before a word (not "don't", not "students'"). */
const SINGLE_OPEN = /(?<=^|[\s:([{—–])['‘](?=[^\s'‘’])(?!\d0s\b)/g;
const LETTER = /\p{L}/u;
const QUOTE_MARK = /["“'‘]/;
const SINGLE_MARK = /['‘]/;

/** Where the quotation opened at `open` closes: the first ' or ’ not between two letters, on its line, within 400 characters. */
function singleClose(text: string, open: number, inDouble: (i: number) => boolean): number | undefined {
  let possessive: number | undefined;
  for (let j = open + 2; j < text.length && j - open <= 401 && text[j] !== '\n'; j++) {
    if ((text[j] !== "'" && text[j] !== '’' && text[j] !== '‘') || inDouble(j)) continue;
    const [before, after] = [text[j - 1], text[j + 1] ?? ''];
    // another quotation opening: this one never closed, unless at a plural possessive (a mark between spaces is stray)
    if (/\s/.test(before)) {
      if (/\S/.test(after)) return possessive;
      continue;
    }
    if (text[j] === '‘' || (LETTER.test(before) && LETTER.test(after))) continue;
    // "the students' bags": a plural possessive closes a quotation only when nothing later can
    if (/s/i.test(before) && /^\s+\p{Ll}/u.test(text.slice(j + 1))) possessive ??= j;
    else return j;
  }
  return possessive;
}

/**
 * The quotations of a sentence, from mark to mark: "…" and “…”, and ‘…’ or '…' (a single mark
 * opens before a word and closes where it is not an apostrophe). The outermost only: a quotation inside one is part of it.
 */
export function quotationSpans(text: string): [number, number][] {
  // most sentences quote nothing: no mark, no scan (every sentence of every answer is asked, three times)
  if (!QUOTE_MARK.test(text)) return [];
  const double: [number, number][] = [...text.matchAll(/["“][^"”\n]*["”]/g)].map((m) => [m.index, m.index + m[0].length]);
  const inDouble = (i: number) => double.some(([a, b]) => i >= a && i < b);
  const single: [number, number][] = [];
  for (const m of SINGLE_MARK.test(text) ? text.matchAll(SINGLE_OPEN) : []) {
    if (inDouble(m.index) || single.some(([, b]) => m.index < b)) continue;
    const close = singleClose(text, m.index, inDouble);
    if (close !== undefined) single.push([m.index, close + 1]);
  }
  const all = [...double, ...single].sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  return all.filter(([a, b], i) => !all.slice(0, i).some(([c, d]) => a >= c && b <= d));
}

/**
 * What introduces a short quotation as one, in the few words before it: the word named, a verb of
 * saying or naming, or a verb that gives a character a quality in the text's words ("Macbeth is
 * "brave""); a possessive or a colon just before it.
 */
const QUOTE_CUE =
  /(?:\b(?:words?|terms?|phrases?|lines?|verbs?|nouns?|adjectives?|images?|metaphors?|similes?|calls?|called|calling|describes?|described|names?|named|says?|said|writes?|wrote|uses?|used|refers? to|states?|stated|claims?|claimed|reads?|is|are|was|were|seems?|seemed|appears?|appeared|becomes?|became)\b(?:\s+[\w'’-]+){0,3}|['’]s?|:)\s*$/i;
const SO_CALLED = /\bso[- ]called\s*$/i;
/** Between two quotations of one list ("brave", "valiant" and "worthy"): the second is quoted as the first is. */
const LISTED = /^\s*(?:,|and|or|,\s*and|,\s*or)\s*$/i;

/**
 * The quotations of a sentence that mark a term rather than quote a source ("the "cool" kids",
 * the so-called "discipline"): of one or two words, with nothing before them saying they are
 * quoted (QUOTE_CUE), not opening the sentence, and not listed after a quotation that is one.
 */
export function markedTerms(text: string, spans: readonly [number, number][]): Set<number> {
  const terms = new Set<number>();
  for (const [i, [a, b]] of spans.entries()) {
    const words = text
      .slice(a + 1, b - 1)
      .trim()
      .split(/\s+/).length;
    const before = text.slice(Math.max(0, a - 60), a);
    const previous = spans[i - 1];
    const listed = previous !== undefined && !terms.has(i - 1) && LISTED.test(text.slice(previous[1], a));
    const quoted = before.trim() === '' || QUOTE_CUE.test(before) || listed;
    if (words <= 2 && (SO_CALLED.test(before) || !quoted)) terms.add(i);
  }
  return terms;
}

/** The writer's own words: each quotation left as an empty pair of marks (""), where what it says is not counted. */
export function ownWords(text: string): string {
  let out = '';
  let from = 0;
  for (const [a, b] of quotationSpans(text)) {
    out += `${text.slice(from, a)}""`;
    from = b;
  }
  return out + text.slice(from);
}

function trigrams(tokens: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 2 < tokens.length; i++) out.push(`${tokens[i]} ${tokens[i + 1]} ${tokens[i + 2]}`);
  return out;
}

/** A sentence of four words or more most of whose word triples are the question's. */
function copies(tokens: string[], question: ReadonlySet<string>): boolean {
  if (tokens.length < 4 || question.size === 0) return false;
  const own = trigrams(tokens);
  return own.filter((t) => question.has(t)).length / own.length >= 0.6;
}

// The question's word triples, kept for the next answer to the same question.
let lastQuestion: { text: string; triples: ReadonlySet<string> } | undefined;

function questionTriples(questionText: string): ReadonlySet<string> {
  if (lastQuestion?.text !== questionText) lastQuestion = { text: questionText, triples: new Set(trigrams(words(questionText))) };
  return lastQuestion.triples;
}

export function readAnswer(answer: string, questionText: string | undefined): Doc {
  const text = normaliseAnswer(answer.length > SCAN_LIMIT ? answer.slice(0, SCAN_LIMIT) : answer);
  const question = questionTriples(questionText ?? '');
  const paragraphs: string[] = [];
  const sentences: Sentence[] = [];
  let copiedWords = 0;
  let copiedExample: string | undefined;
  // The text is what is marked (extraction already left out what it names): nothing is dropped here.
  let otherWords = 0;
  let signedOff = false;
  // the paragraph a list is read into: its items are one part of the answer, not a paragraph each
  let list: number | undefined;
  const headings: Doc['headings'] = [];
  for (const { lines, kind } of plainTextBlocks(text)) {
    const marker = LIST_MARKER.exec(lines[0]);
    const item = marker !== null && (kind !== 'heading' || marker[1] !== undefined);
    // a list's marker is layout, not the writer's words: never quoted, never a slip
    const block = (item ? [lines[0].slice(marker[0].length), ...lines.slice(1)] : lines).join('\n');
    const frame = LETTER_FRAME.test(block.trim()) && block.split(/\s+/).length <= 12;
    if (frame) signedOff ||= SIGN_OFF.test(block.trim());
    // Headings, a letter's greeting and sign-off, and after it the writer's name or form ("Jordan
    // Ellis / Year 10"), count as words but are not sentences: not its opening or conclusion.
    if ((kind === 'heading' && !item) || frame || (signedOff && block.split(/\s+/).length <= 8 && !/[.!?]["”’]?\s*$/.test(block.trim()))) {
      otherWords += words(block).length;
      if (kind === 'heading' && !item) headings.push({ text: block.trim(), sentence: sentences.length });
      list = undefined;
      continue;
    }
    const into = item && list !== undefined ? list : paragraphs.length;
    const kept: string[] = [];
    const parts = sentencesOf(block);
    // a list's numbers (its item's marker, "1." inside a paragraph) are in no sentence, but are marked words all the same
    otherWords += (item ? words(marker[0]).length : 0) + words(block).length - parts.reduce((n, s) => n + words(s).length, 0);
    for (const s of parts) {
      const tokens = words(s);
      if (tokens.length === 0) continue;
      if (copies(tokens, question)) {
        copiedWords += tokens.length;
        copiedExample ??= s;
        continue;
      }
      kept.push(s);
      sentences.push({ text: s, paragraph: into, words: tokens });
    }
    if (kept.length === 0) continue;
    if (into < paragraphs.length) paragraphs[into] = `${paragraphs[into]} ${kept.join(' ')}`;
    else paragraphs.push(kept.join(' '));
    list = item ? into : undefined;
  }
  const scanned = sentences.reduce((n, s) => n + s.words.length, 0) + otherWords;
  // Past the scan limit the count is estimated from the share of the text that was read.
  const wordCount = answer.length > SCAN_LIMIT ? Math.round(scanned * (answer.length / SCAN_LIMIT)) : scanned;
  return { paragraphs, sentences, wordCount, copiedWords, headings, ...(copiedExample ? { copiedExample } : {}) };
}
