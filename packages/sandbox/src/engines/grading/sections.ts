// The sections a report is set out in ("Method", "Results", "Conclusion"): under a heading of its
// own, or under a line at the head of a paragraph that is only the section's name ("Method:").
// The one place that says which section a sentence is in.
import type { Doc } from './document.js';

/** A line that only names a section: a few words, perhaps numbered, ending in nothing or a colon. */
const NAME_ONLY = /^(?:\d{1,2}[.)]?\s+)?(\p{L}[\p{L}'’ &/-]*?)\s*:?$/u;
const NAME_WORDS = 5;

/** The section's name a line gives, in lower case, or undefined when the line is not only a name. */
function nameOf(line: string): string | undefined {
  const m = NAME_ONLY.exec(line.trim());
  return m && m[1].split(/\s+/).length <= NAME_WORDS ? m[1].toLowerCase() : undefined;
}

export interface Sections {
  /** Each sentence's section name (lower case), undefined before the first heading. */
  of: (string | undefined)[];
  /** Sentences that are only a section's name: a heading, not content of the section. */
  heads: Set<number>;
}

const cache = new WeakMap<Doc, Sections>();

export function sectionsOf(doc: Doc): Sections {
  const known = cache.get(doc);
  if (known) return known;
  const set = new Map(doc.headings.map((h) => [h.sentence, nameOf(h.text)]));
  const out: Sections = { of: [], heads: new Set() };
  let current: string | undefined;
  doc.sentences.forEach((s, i) => {
    if (set.has(i)) current = set.get(i);
    // only a line at the head of its paragraph names a section: "Yes." inside a paragraph does not
    const first = i === 0 || doc.sentences[i - 1].paragraph !== s.paragraph;
    const named = first && !/[.!?]["”’)]*$/.test(s.text) ? nameOf(s.text) : undefined;
    if (named !== undefined) {
      current = named;
      out.heads.add(i);
    }
    out.of.push(current);
  });
  cache.set(doc, out);
  return out;
}

/** The sentences of sections whose name `name` matches, their headings left out. */
export function inSection(doc: Doc, name: RegExp): number[] {
  const { of, heads } = sectionsOf(doc);
  return of.flatMap((n, i) => (n !== undefined && name.test(n) && !heads.has(i) ? [i] : []));
}

/** A report's conclusion, as its heading names it ("Conclusion", "Conclusions and evaluation"). */
export const CONCLUSION_SECTION = /^(?:conclusions?|summary)\b/;
/** A report's method, as its heading names it ("Method", "Methods", "Procedure"). */
export const METHOD_SECTION = /^(?:methods?|procedure|method and equipment)\b/;
