// The phrases a criterion's description lists, and whether an answer names them: the one place
// that decides when a listed phrase is found (all its words together, or a SYNONYMS group's).
import type { Doc } from './document.js';
import type { Coverage } from './readings.js';
import { synonymsOf } from './task.js';
import { clamp, contentTerms, stem, type Term } from './text.js';
import { STOP } from './vocabulary.js';

/**
 * The things a criterion's description lists ("the Great Depression, itinerant ranch work, race
 * and gender"; "(patriotism, Pals battalions, propaganda, unemployment)"), as phrases: feedback and
 * advice quote the phrase, never a bare keyword. Only lists count (three items or more, or two in
 * brackets), and only items that name something: "examples" or "quotations" are checked as signals.
 */
const listed = new Map<string, { text: string; terms: Term[] }[]>();

function listedItems(description: string): { text: string; terms: Term[] }[] {
  let items = listed.get(description);
  if (!items) {
    items = listedItemsNow(description);
    // Bounded: rubrics are few, but descriptions arrive with every request.
    if (listed.size >= 256) listed.clear();
    listed.set(description, items);
  }
  return items;
}

/** A listed phrase's words to find: its content words, and every word of a name in it (“Great” of “the Great Depression”). */
function phraseTerms(text: string): Term[] {
  const terms = contentTerms([{ text, weight: 1 }]);
  for (const w of text.match(/(?<!\p{L})\p{Lu}\p{Ll}+/gu) ?? []) {
    const word = w.toLowerCase();
    if (!STOP.has(word) && !terms.some((t) => t.stem === stem(word))) terms.push({ stem: stem(word), word, weight: 1 });
  }
  return terms;
}

function listedItemsNow(description: string): { text: string; terms: Term[] }[] {
  const lists: string[][] = [];
  for (const m of description.matchAll(/\(([^()]+)\)/g)) {
    const items = m[1]
      .split(/,|\s(?:and|or)\s/)
      .map((x) => x.trim())
      .filter(Boolean);
    if (items.length >= 2) lists.push(items);
  }
  for (const clause of description.replace(/\([^()]*\)/g, '').split(/[;:.]/)) {
    const items = clause
      .split(/,|\s(?:and|or)\s/)
      .map((x) => x.trim())
      .filter(Boolean);
    if (items.length < 3) continue;
    // The first item carries the clause's lead-in ("Links loneliness to the Great Depression").
    items[0] = items[0]
      .split(/\s(?:to|of|on|in|with|about|including|such as|like)\s/)
      .pop()!
      .trim();
    lists.push(items);
  }
  return lists
    .flat()
    .filter((text) => text.split(/\s+/).length <= 4)
    .map((text) => ({ text, terms: phraseTerms(text) }))
    .filter((p) => p.terms.length > 0);
}

/** How near a listed phrase's words must be: in one sentence, or in it and the next of its paragraph. */
const CLOSE = 2;

/**
 * Where a listed phrase is found: the sentences that hold every one of its content words together
 * (any form, or a word of its SYNONYMS group), in one sentence or two running in a paragraph.
 * "gender in 1930s America" is not found in "ranch workers in the 1930s": one word is not the phrase.
 */
function foundAt(terms: Term[], doc: Doc, sentenceStems: ReadonlySet<string>[]): number[] {
  const inSentence = (i: number, t: Term) =>
    sentenceStems[i].has(t.stem) || synonymsOf(t.stem).some((group) => group.every((s) => sentenceStems[i].has(s)));
  const out = new Set<number>();
  doc.sentences.forEach((s, i) => {
    const near = Array.from({ length: CLOSE }, (_, k) => i + k).filter((j) => doc.sentences[j]?.paragraph === s.paragraph);
    const holding = terms.map((t) => near.filter((j) => inSentence(j, t)));
    if (holding.every((js) => js.length > 0)) for (const js of holding) for (const j of js) out.add(j);
  });
  return [...out].sort((a, b) => a - b);
}

/** What of the description's listed phrases the answer names, and where; undefined when it lists none. */
export function coverage(description: string, doc: Doc): Coverage | undefined {
  const phrases = listedItems(description);
  if (phrases.length < 2) return undefined;
  const sentenceStems = doc.sentences.map((s) => new Set(s.words.map(stem)));
  const at = phrases.map((p) => foundAt(p.terms, doc, sentenceStems));
  const found = phrases.filter((_, k) => at[k].length > 0);
  const missing = phrases.filter((_, k) => at[k].length === 0);
  return {
    value: clamp(found.length / phrases.length / 0.9, 0, 1),
    found: found.map((p) => p.text),
    missing: missing.map((p) => p.text),
    sentences: [...new Set(at.flat())].sort((a, b) => a - b),
  };
}
