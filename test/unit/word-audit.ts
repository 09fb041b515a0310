// The audit behind the "every word is marked" properties (issue 21): the words an independent
// reader finds in a document, against the words marked plus those the result names as left out.
import { EXCLUSION_KINDS, type Exclusion } from '../../packages/sandbox/src/engines/extract/marked.js';
import { propertySeed, propertyRuns as runsOf } from './property-runs.js';

/**
 * How runs are sized and replayed, as every property of the suite (property-runs.ts):
 * KCT_PROPERTY_SEED replays a run (the seed is printed in each describe's name and in a failure,
 * with the shrunk case); KCT_PROPERTY_RUNS sets the number of documents per property.
 */
export function propertyRuns(fallback: number): { seed: number; numRuns: number } {
  return { seed: propertySeed(21_004), numRuns: runsOf(fallback) };
}

/**
 * Words for the comparison: Unicode NFC, lower case, runs of letters, marks and digits. Anything
 * else (punctuation, "|", "•", a hyphen) separates words, so "well-known", "well-" at a line end
 * with "known" on the next line (however a reader orders the lines), and "well known" are the
 * same two words, and "don't" is "don" and "t" on both sides. A reader that drops the hyphen of
 * a word split over two lines ("wellknown") would not compare: pdftotext is read word by word
 * (extract-words-pdf.test.ts), which keeps it.
 */
export function tokens(text: string): string[] {
  return (
    text
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
  );
}

type Bag = Map<string, number>;

function bagOf(texts: { text: string; count?: number }[]): Bag {
  const bag: Bag = new Map();
  for (const { text, count = 1 } of texts) for (const w of tokens(text)) bag.set(w, (bag.get(w) ?? 0) + count);
  return bag;
}

/** Words `want` has more of than `have`, as "word: N in the reference, M marked or named". */
function shortfall(want: Bag, have: Bag, wantName: string, haveName: string): string[] {
  const out: string[] = [];
  for (const [w, n] of want) {
    const m = have.get(w) ?? 0;
    if (m < n) out.push(`"${w}": ${n} in ${wantName}, ${m} ${haveName}`);
  }
  return out;
}

/** The words of `reference` missing from the body and the exclusions together (multisets). */
export function unmarked(reference: string, body: string, excluded: Exclusion[]): string[] {
  return shortfall(bagOf([{ text: reference }]), bagOf([{ text: body }, ...excluded]), 'the document', 'marked or named');
}

/** The words the body and exclusions hold more of than `reference`: read twice, or made up. */
export function invented(reference: string, body: string, excluded: Exclusion[]): string[] {
  return shortfall(bagOf([{ text: body }, ...excluded]), bagOf([{ text: reference }]), 'what is marked or named', 'in the document');
}

/**
 * Exclusions that are not of a documented kind, or whose text `allowed` refuses for its kind (the
 * generator knows what it put where a title, a cover sheet or page furniture goes): a heuristic
 * that took the writer's words out of the marking, even if it named them.
 */
export function unexpectedExclusions(excluded: Exclusion[], allowed: Record<Exclusion['kind'], (text: string) => boolean>): string[] {
  return excluded
    .filter((e) => !(EXCLUSION_KINDS as readonly string[]).includes(e.kind) || !allowed[e.kind](e.text.replace(/\s+/g, ' ').trim()))
    .map((e) => `${e.kind}: "${e.text}"`);
}
