// What counts as specific support, beyond its marker: a source the answer names ("A survey by the
// Children's Society found that", not "Research shows" or "Experts agree"), and an example that
// gives something particular ("For example, my cousin's school dropped homework in 2021", not
// "For example, uniforms are nice"). features.ts counts what these keep.
import { EXAMPLE, FIGURE, SOURCE } from './patterns.js';
import { isWord } from './spelling.js';
import { isContentWord, stem } from './text.js';

/** Where the words naming a source stop: the verb that reports it, or a clause after it. */
const SOURCE_ENDS =
  /^(?:that|which|who|whom|whose|where|when|found|finds?|show(?:s|ed|n)?|says?|said|agree[sd]?|suggest(?:s|ed)?|prove[sdn]?|report(?:s|ed)?|estimate[sd]?|claim(?:s|ed)?|argue[sd]?|believe[sd]?|think|thinks|thought|indicate[sd]?|reveal(?:s|ed)?|demonstrate[sd]?|confirm(?:s|ed)?|tell|tells|told|state[sd]?|is|are|was|were|has|have|had|can|could|may|might|will|would|should)$/i;
/** A capitalised word or an acronym: "Ohio", "Children's", "BBC"; never "I" or "I'm". */
const CAPITALISED = /(?<![\p{L}'’])(?!I(?:['’]\p{L}+)?(?![\p{L}'’]))\p{Lu}[\p{L}'’]*/gu;
/** The writer's own particular: "by our student council", "from my school". */
const OWN = /\b(?:my|our)\b/i;
/** Markers that only introduce what follows: the example is in the words after them. */
const INTRODUCES =
  /^(?:for example|for instance|such as|e\.g\.|to illustrate|a case in point|in particular|in my experience|i have seen)$/i;
/** Words that say how good something is, name everyone, or give an opinion, and nothing particular: "uniforms are nice", "good for teachers", "I think". */
const GENERAL = new Set(
  `nice good bad great better best worse worst smart cool fine fair unfair right wrong helpful useful important positive
negative beneficial benefit benefits amazing awesome terrible awful horrible lovely pretty ugly boring annoying happy sad
easy hard neat tidy look looks looked looking seem seems feel feels thing things stuff lot lots way ways everyone everybody
someone anyone people person teachers parents pupils kids children families school schools idea ideas another example
examples instance reason reasons always never okay think thinks believe believes know knows agree agrees reckon guess
opinion view`.split(/\s+/),
);

/** A number or a date: "200 schools", "in 2021". */
const hasFigure = (s: string) => /\d/.test(s) || (s.match(FIGURE) ?? []).length > 0;

/** A name among words: a capitalised word or acronym; the sentence's first word only when it is not an English word ("Ofsted", not "Research"). */
function hasName(s: string, first: boolean): boolean {
  return [...s.matchAll(CAPITALISED)].some((m) => !(first && m.index === s.search(/\p{L}/u)) || !isWord(m[0].toLowerCase()));
}

/**
 * The words that name the source a SOURCE marker reports: the sentence up to it, and after it a
 * qualifier ("researchers at Ohio State University", "a survey by our student council") up to the
 * verb that reports it. Named when they hold a name or a figure, or the writer's own: after it, or
 * as the subject of "found that" ("Our head of year reported that").
 */
function named(sentence: string, at: number, marker: string): boolean {
  const after: string[] = [];
  for (const token of sentence
    .slice(at + marker.length)
    .trim()
    .split(/\s+/)
    .slice(0, 10)) {
    const word = token.replace(/[,;:.!?)"”’]+$/, '');
    if (!word || SOURCE_ENDS.test(word)) break;
    after.push(word);
    if (word !== token) break;
  }
  const before = sentence.slice(0, at + marker.length);
  const qualifier = after.join(' ');
  const own = OWN.test(qualifier) || (/^(?:found|reported|estimated) that$/i.test(marker) && OWN.test(before));
  return own || hasName(before, true) || hasFigure(before) || hasName(qualifier, false) || hasFigure(qualifier);
}

/** The sources a sentence reports (`text` as read through slips): those it names, and those it leaves unnamed ("Research shows"). */
export function sourcesIn(text: string): { named: string[]; unnamed: string[] } {
  const out = { named: [] as string[], unnamed: [] as string[] };
  for (const m of text.matchAll(SOURCE)) (named(text, m.index, m[0]) ? out.named : out.unnamed).push(m[0]);
  return out;
}

/**
 * The examples a sentence gives: a marker followed by something particular, a name, a figure, or
 * a word that is neither the question's nor only praise or blame. "For example, uniforms are nice"
 * is a claim, not an example. A marker that is itself a particular ("at my school", "my cousin's
 * school found", "when I was") is one.
 */
export function examplesIn(text: string, questionStems: ReadonlySet<string>): string[] {
  return [...text.matchAll(EXAMPLE)]
    .filter((m) => {
      if (!INTRODUCES.test(m[0])) return true;
      const rest = text.slice(m.index + m[0].length);
      const words = rest.toLowerCase().match(/\p{L}[\p{L}'’-]*/gu) ?? [];
      const concrete = words.some((w) => isContentWord(w) && !GENERAL.has(w) && !questionStems.has(stem(w)));
      return concrete || hasName(rest, false) || hasFigure(rest);
    })
    .map((m) => m[0]);
}
