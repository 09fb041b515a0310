// An answer as the grader reads it: paragraphs and sentences, with any sentence that only copies
// the question set aside (a restated question earns nothing, and is not held against the rest).
import { plainTextBlocks } from '../extract/structure.js';
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
}

// Signals come from the start of very long answers: 100,000 characters (about 16,000 words) is
// far beyond any essay and bounds the cost of grading a 1 MB paste.
const SCAN_LIMIT = 100_000;

const LETTER_FRAME =
  /^(?:dear\b.*[,:]?$|to (?:the|whom|all)\b[^.]*[,:]$|(?:yours (?:faithfully|sincerely|truly)|sincerely|best wishes|kind regards|regards|many thanks|with thanks|from)\b)/is;

const SIGN_OFF = /^(?:yours (?:faithfully|sincerely|truly)|sincerely|best wishes|kind regards|regards|many thanks|with thanks|from)\b/i;

const ABBREVIATION = /(?:\b(?:Mr|Mrs|Ms|Dr|St|Prof|Sr|Jr|vs|etc|No|Vol|pp?|Fig|approx|e\.g|i\.e|a\.m|p\.m)|\b[A-Za-z])\.$/;

/**
 * Sentences of a paragraph: at . ! ? (and a closing quote) before the next word, and at line ends.
 * A sentence a student began in lower case ("itchy. also they cost") is a sentence still (its slip is counted).
 */
function sentencesOf(paragraph: string): string[] {
  const out: string[] = [];
  for (const line of paragraph.split('\n')) {
    const parts = line.split(/(?<=[.!?…]["”’')\]]*)\s+(?=["“‘'([]?[\p{L}\p{N}])/u);
    let pending = '';
    for (const part of parts) {
      pending = pending ? `${pending} ${part}` : part;
      if (!ABBREVIATION.test(pending)) {
        if (pending.trim()) out.push(pending.trim());
        pending = '';
      }
    }
    if (pending.trim()) out.push(pending.trim());
  }
  return out;
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
  for (const { lines, kind } of plainTextBlocks(text)) {
    const block = lines.join('\n');
    const frame = LETTER_FRAME.test(block.trim()) && block.split(/\s+/).length <= 12;
    if (frame) signedOff ||= SIGN_OFF.test(block.trim());
    // Headings, a letter's greeting and sign-off, and after it the writer's name or form ("Jordan
    // Ellis / Year 10"), count as words but are not sentences: not its opening or conclusion.
    if (kind === 'heading' || frame || (signedOff && block.split(/\s+/).length <= 8 && !/[.!?]["”’]?\s*$/.test(block.trim()))) {
      otherWords += words(block).length;
      continue;
    }
    const kept: string[] = [];
    for (const s of sentencesOf(block)) {
      const tokens = words(s);
      if (tokens.length === 0) continue;
      if (copies(tokens, question)) {
        copiedWords += tokens.length;
        copiedExample ??= s;
        continue;
      }
      kept.push(s);
      sentences.push({ text: s, paragraph: paragraphs.length, words: tokens });
    }
    if (kept.length > 0) paragraphs.push(kept.join(' '));
  }
  const scanned = sentences.reduce((n, s) => n + s.words.length, 0) + otherWords;
  // Past the scan limit the count is estimated from the share of the text that was read.
  const wordCount = answer.length > SCAN_LIMIT ? Math.round(scanned * (answer.length / SCAN_LIMIT)) : scanned;
  return { paragraphs, sentences, wordCount, copiedWords, ...(copiedExample ? { copiedExample } : {}) };
}
