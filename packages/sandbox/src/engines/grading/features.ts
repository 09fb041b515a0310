// What can be measured in an answer without understanding it: how it is built (paragraphs,
// sentences, links), what supports its points (figures, quotations, named sources, explanations),
// how it is written (slips, register, vocabulary) and, for stories, dialogue and detail. Every
// count keeps the sentences it came from, and the words found there, so feedback can quote them.
import { type Doc, markedTerms, ownWords, quotationSpans } from './document.js';
import {
  ANALYSIS,
  AUTHOR_VIEW,
  CHANGE,
  CONCLUSION,
  CONNECTIVE_START,
  countOf,
  EXPLAIN,
  FIGURE,
  firstMatch,
  HEDGE,
  INDIRECT,
  JUDGEMENT,
  NAMED_SUPPORT,
  NOT_PAST,
  PAST_IRREGULAR,
  POSITION,
  PRESENT,
  PROVENANCE,
  SENSES,
  SIMILE,
  SPEECH,
  TERMS,
} from './patterns.js';
import { givesReason, topicalVerdict } from './position.js';
import { restatedSentences, vocabularyRange } from './repetition.js';
import { opposingView, repliesTo } from './replies.js';
import { CONCLUSION_SECTION, inSection, sectionsOf } from './sections.js';
import { capitalisedInside, readThrough, SLIP_KINDS, type SlipKind, sentenceRegister, sentenceSlips } from './slips.js';
import { isWord } from './spelling.js';
import { examplesIn, sourcesIn } from './support.js';
import { stem } from './text.js';

/**
 * How many times something was found, in which sentences (indexes into Doc.sentences), what was
 * found first in each (`at`: the words a quotation of that sentence shows), and how many different
 * things: a formula repeated ("Steinbeck presents... Steinbeck presents...") counts once in `distinct`.
 */
export interface Hits {
  count: number;
  sentences: number[];
  at: Map<number, string>;
  distinct: Set<string>;
}

/** An opposing view answered: the reply runs from the sentence that answers it to the end of its paragraph. */
export interface Reply {
  counter: number;
  /** The sentence that answers, and the words that make it a reply there. */
  from: number;
  words: number;
  sentences: number;
}

export interface Features {
  /** Each sentence as its markers are read: misspelt words as the word meant (slips.ts, readThrough). */
  read: string[];
  words: number;
  paragraphs: number;
  /** Mean and spread (coefficient of variation) of sentence lengths in words. */
  meanSentence: number;
  sentenceSpread: number;
  /** Share of sentences over RUN_ON_WORDS words: run-ons, in school writing. */
  longSentences: number;
  /** Moving-average share of distinct listed words over 50-word windows: vocabulary range, whatever the length. */
  vocabulary: number;
  /** Share of words of seven letters or more that are spelt as listed. */
  longWords: number;
  errors: Hits & { byKind: Record<SlipKind, number>; misspelt: string[] };
  informal: Hits & { casual: number; contractions: number; exclamations: number };
  figures: Hits;
  quotations: Hits;
  examples: Hits;
  sources: Hits;
  /** Sentences that report a source without naming it ("Research shows", "Experts agree"): no support. */
  unnamedSources: Hits;
  explanations: Hits;
  analysis: Hits;
  terminology: Hits;
  counter: Hits;
  /** The replies to an opposing view, one per view answered. */
  replies: Reply[];
  /** Sentences with support (a figure, quotation, example, source or name) explained there or in the next sentence. */
  explained: Hits;
  /** Sentences that tie the source's origin or purpose to what it can show. */
  provenanceLinked: Hits;
  position: Hits;
  /** Sentences that state the position and give a reason for it, under 40 words. */
  precise: Hits;
  /** Distinct linking words at the start of sentences. */
  connectives: string[];
  connectiveHits: Hits;
  conclusion: Hits;
  judgement: Hits;
  provenance: Hits;
  /** Names and dates that are not in the question: knowledge the answer brings. */
  outside: Hits;
  dialogue: Hits;
  /** Dialogue set out with its punctuation inside the quotation marks. */
  punctuatedDialogue: number;
  description: Hits;
  change: Hits;
  /** Share of verbs-like words in the past tense: how far the answer is told as a story. */
  pastTense: number;
  /** Sentences that restate an earlier one (most of their content words already used together). */
  restated: Hits;
}

/** A sentence longer than this is a run-on, in school writing. */
export const RUN_ON_WORDS = 40;

const hits = (): Hits => ({ count: 0, sentences: [], at: new Map(), distinct: new Set() });
function add(h: Hits, sentence: number, n = 1, keys: string[] = [], found?: string): void {
  if (n <= 0) return;
  h.count += n;
  for (const k of keys) h.distinct.add(k);
  if (h.sentences[h.sentences.length - 1] !== sentence) h.sentences.push(sentence);
  if (found !== undefined && !h.at.has(sentence)) h.at.set(sentence, found);
}
/** Every match of a global pattern (or those found), counted and remembered by its stemmed words; `written` gives the first as the answer writes it. */
function addMatches(
  h: Hits,
  sentence: number,
  re: RegExp | string[],
  text: string,
  written: (found: string | undefined) => string | undefined,
  most = Number.POSITIVE_INFINITY,
): void {
  const found = Array.isArray(re) ? re : (text.match(re) ?? []);
  add(
    h,
    sentence,
    Math.min(most, found.length),
    found.map((m) => m.toLowerCase().split(/\s+/).map(stem).join(' ')),
    written(found[0]),
  );
}

/** The words of a sentence as written where its reading through slips found `found`: the reading changes letters, never spaces. */
function asWritten(text: string, read: string, found: string | undefined): string | undefined {
  const at = found === undefined || text === read ? -1 : read.indexOf(found);
  if (at < 0) return found;
  const first = read.slice(0, at).split(/\s+/).length - 1;
  return text
    .split(/\s+/)
    .slice(first, first + found!.trim().split(/\s+/).length)
    .join(' ');
}

/** Quoted spans: speech (a story) or quotations (an essay), in double or single marks. */
function quoted(text: string): string[] {
  return quotationSpans(text)
    .map(([a, b]) => text.slice(a + 1, b - 1))
    .filter((q) => q.length >= 2 && q.length <= 400);
}

const NAME = /(?<=\S\s+)\p{Lu}[\p{Ll}'’]{2,}(?:\s+(?:of\s+|the\s+)?\p{Lu}[\p{Ll}'’]+)*|\b(?:1[5-9]\d\d|20\d\d)s?\b/gu;

/**
 * The answer's features. `taskWords`: the lower-case words of the question, description and
 * rubric, which are spelt as the task spells them and may be names.
 */
export function measure(doc: Doc, questionStems: ReadonlySet<string>, taskWords: ReadonlySet<string> = new Set()): Features {
  const f: Features = {
    read: [],
    words: doc.wordCount,
    paragraphs: doc.paragraphs.length,
    meanSentence: 0,
    sentenceSpread: 0,
    longSentences: 0,
    vocabulary: 0,
    longWords: 0,
    errors: { ...hits(), byKind: Object.fromEntries(SLIP_KINDS.map((k) => [k, 0])) as Record<SlipKind, number>, misspelt: [] },
    informal: { ...hits(), casual: 0, contractions: 0, exclamations: 0 },
    figures: hits(),
    quotations: hits(),
    examples: hits(),
    sources: hits(),
    unnamedSources: hits(),
    explanations: hits(),
    analysis: hits(),
    terminology: hits(),
    counter: hits(),
    replies: [],
    explained: hits(),
    provenanceLinked: hits(),
    position: hits(),
    precise: hits(),
    connectives: [],
    connectiveHits: hits(),
    conclusion: hits(),
    judgement: hits(),
    provenance: hits(),
    outside: hits(),
    dialogue: hits(),
    punctuatedDialogue: 0,
    description: hits(),
    change: hits(),
    pastTense: 0,
    restated: hits(),
  };
  const lengths: number[] = [];
  const connectives = new Set<string>();
  const outside = new Set<string>();
  const names = new Set([...capitalisedInside(doc.sentences.map((s) => s.text)), ...taskWords]);
  const misspelt = new Set<string>();
  let past = 0;
  let verbs = 0;
  const lastParagraph = doc.paragraphs.length - 1;
  // one paragraph: its conclusion is in its last third, as its opening is in its first (readings.ts)
  const closingFrom = doc.sentences.length - Math.max(1, Math.min(3, Math.floor(doc.sentences.length / 3)));
  // a report's Conclusion section opens on its conclusion, a judgement on the question asked, wherever it stands
  const concluded = inSection(doc, CONCLUSION_SECTION);
  const concludes = new Set(concluded.filter((i, k) => k === 0 || concluded[k - 1] !== i - 1));
  doc.sentences.forEach((s, i) => {
    const t = s.text;
    lengths.push(s.words.length);
    // Speech and quotations are not the writer's own words: their slips and casual words are not counted.
    const spoken = quoted(t);
    const narration = ownWords(t);
    // Markers are found through slips ("In my veiw"), and quoted as written.
    const r = readThrough(t, names);
    f.read.push(r);
    const readNarration = ownWords(r);
    const written = (found: string | undefined) => asWritten(t, r, found);

    const slips = sentenceSlips(t, narration, s.words.length, names);
    const total = SLIP_KINDS.reduce((n, k) => n + slips.counts[k], 0);
    add(f.errors, i, total, [], slips.misspelt[0]);
    for (const k of SLIP_KINDS) f.errors.byKind[k] += slips.counts[k];
    f.errors.misspelt.push(...slips.misspelt);
    for (const w of slips.misspelt) for (const part of w.toLowerCase().split(/[-'’]/)) misspelt.add(part);

    const register = sentenceRegister(t, narration);
    f.informal.casual += register.casual;
    f.informal.contractions += register.contractions;
    f.informal.exclamations += register.exclamations;
    add(f.informal, i, register.casual + register.contractions * 0.5 + register.exclamations);

    const figures = narration.match(FIGURE) ?? [];
    add(f.figures, i, figures.length, [], figures[0]);
    // a term in marks ("the "cool" kids") supports nothing: only what is quoted as a quotation counts
    const spans = quotationSpans(t);
    const terms = markedTerms(t, spans);
    const essayQuotes = spans
      .filter((_, i) => !terms.has(i))
      .map(([a, b]) => t.slice(a + 1, b - 1))
      .filter((q) => q.length >= 2 && q.split(/\s+/).length <= 40);
    add(
      f.quotations,
      i,
      essayQuotes.length,
      essayQuotes.map((q) => q.toLowerCase()),
      essayQuotes[0],
    );
    addMatches(f.examples, i, examplesIn(r, questionStems), r, written);
    // one a sentence: "A survey by the Children's Society found that" is one source, however it is named; "Research shows" names none
    const sources = sourcesIn(r);
    addMatches(f.sources, i, sources.named, r, written, 1);
    if (sources.named.length === 0) addMatches(f.unnamedSources, i, sources.unnamed, r, written, 1);
    addMatches(f.explanations, i, EXPLAIN, readNarration, written);
    addMatches(f.analysis, i, ANALYSIS, readNarration, written);
    addMatches(f.terminology, i, TERMS, readNarration, written);
    addMatches(f.judgement, i, JUDGEMENT, readNarration, written);
    if (concludes.has(i)) add(f.judgement, i, 1, ['conclusion']);
    addMatches(f.provenance, i, PROVENANCE, readNarration, written);
    addMatches(f.change, i, CHANGE, readNarration, written);
    add(
      f.description,
      i,
      countOf(SENSES, readNarration) + countOf(SIMILE, readNarration),
      [],
      written(firstMatch(SENSES, readNarration) ?? firstMatch(SIMILE, readNarration)),
    );
    // The writer's own view: not a question, not the other side's view reported ("Some people say
    // uniforms should..."), not a question someone asked ("asked whether uniforms should stay").
    const view = opposingView(readNarration, questionStems);
    const reported = view !== null && !/\b(?:i|my|we|our)\b/i.test(readNarration);
    const stated = POSITION.exec(readNarration) ?? AUTHOR_VIEW.exec(readNarration) ?? topicalVerdict(readNarration, questionStems);
    // "that's what I think about uniforms" points back at a view; it states none
    const hedged = HEDGE.test(readNarration) || /\bwhat i (?:think|believe|feel)\b/i.test(readNarration);
    if (stated && !hedged && !/\?["”]?$/.test(t) && !reported && !INDIRECT.test(readNarration.slice(0, stated.index))) {
      add(f.position, i, 1, [], written(stated[0]));
      // its reasons in the sentence, or in the next one of its paragraph ("…should not require uniforms. They are uncomfortable, expensive and…")
      const next = doc.sentences[i + 1];
      const after = next?.paragraph === s.paragraph ? readThrough(next.text, names) : '';
      if (s.words.length < 40 && givesReason(readNarration, after, questionStems)) add(f.precise, i, 1, [], written(stated[0]));
    }
    if (view) add(f.counter, i, 1, [], written(view[0]));
    const start = CONNECTIVE_START.exec(r.replace(/^["“]/, ''));
    if (start) {
      connectives.add(start[0].toLowerCase().replace(/\s+/g, ' '));
      add(f.connectiveHits, i, 1, [], written(start[0]));
    }
    const concluding = CONCLUSION.exec(r);
    // "Finally, a uniform builds …" brings a last point; "Finally, uniforms should stay" concludes
    const lastPoint = concluding !== null && /^finally\b/i.test(concluding[0]) && !stated;
    if (concluding && !lastPoint && (lastParagraph > 0 ? s.paragraph === lastParagraph : i >= closingFrom))
      add(f.conclusion, i, 1, [], written(concluding[0]));
    else if (concludes.has(i) && s.paragraph === lastParagraph) add(f.conclusion, i);

    // Names and dates the question does not give: what the answer knows beyond it. A run of
    // capitalised words ("Alfred Leete", "First World War") is one name; a capitalised word on
    // its own is a name only when it is not an English word ("Finland", not a table's "Blazers").
    for (const m of narration.matchAll(NAME)) {
      const name = m[0].toLowerCase().replace(/['’]s\b/g, '');
      const parts = name.split(/\s+/);
      if (parts.every((w) => questionStems.has(stem(w)))) continue;
      if (parts.length === 1 && !/^\d/.test(name) && isWord(name)) continue;
      if (!outside.has(name)) {
        outside.add(name);
        add(f.outside, i, 1, [name], m[0]);
      }
    }
    if (spoken.length > 0 && (SPEECH.test(narration) || /^["“‘']/.test(t))) {
      add(f.dialogue, i, spoken.length, [], spoken[0]);
      f.punctuatedDialogue += countOf(/[,.!?…]["”’']/g, t) > 0 ? 1 : 0;
    }
    // the tense of the words as read through slips: "sohuld" is "should", a verb in the present
    for (const w of readNarration.toLowerCase().match(/\b[a-z]+\b/g) ?? []) {
      const isPast = (w.length >= 5 && w.endsWith('ed') && !NOT_PAST.has(w)) || PAST_IRREGULAR.has(w);
      if (isPast) past++;
      if (isPast || PRESENT.has(w)) verbs++;
    }
  });
  f.replies = repliesTo(doc, f.read, f.counter, questionStems);
  f.explained = explainedSupport(doc, f);
  const judged = new Set(f.judgement.sentences);
  for (const i of f.provenance.sentences) {
    if (judged.has(i) || judged.has(i + 1)) add(f.provenanceLinked, i, 1, [], f.provenance.at.get(i));
  }
  for (const i of restatedSentences(doc, questionStems)) add(f.restated, i);

  const mean = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const variance = lengths.reduce((a, n) => a + (n - mean) ** 2, 0) / Math.max(1, lengths.length);
  f.meanSentence = mean;
  f.sentenceSpread = mean > 0 ? Math.sqrt(variance) / mean : 0;
  f.longSentences = lengths.filter((n) => n > RUN_ON_WORDS).length / Math.max(1, lengths.length);
  // Misspelt words are not vocabulary: they count as words of the text but never as words it knows.
  const tokens = doc.sentences.flatMap((s) => s.words.map((w) => (misspelt.has(w) ? undefined : w)));
  f.vocabulary = vocabularyRange(tokens);
  f.longWords = tokens.filter((w) => w !== undefined && w.length >= 7).length / Math.max(1, tokens.length);
  f.connectives = [...connectives];
  f.pastTense = verbs > 0 ? past / verbs : 0;
  return f;
}

/** Whether sentence j is in i's paragraph or the next, with no other paragraph of more than a heading between. */
function sameOrNext(doc: Doc, heads: ReadonlySet<number>, i: number, j: number): boolean {
  const [p, q] = [doc.sentences[i].paragraph, doc.sentences[j].paragraph];
  for (let k = i + 1; k < j; k++) if (!heads.has(k) && doc.sentences[k].paragraph !== p && doc.sentences[k].paragraph !== q) return false;
  return true;
}

/** Support followed by what it shows: explained in its sentence or one of the next two of its paragraph. */
function explainedSupport(doc: Doc, f: Features): Hits {
  const out = hits();
  const { heads } = sectionsOf(doc);
  const support = new Map<number, string>();
  for (const h of [f.figures, f.quotations, f.examples, f.sources, f.outside]) {
    for (const i of h.sentences) if (!support.has(i)) support.set(i, h.at.get(i) ?? '');
  }
  const explains = new Set(f.explanations.sentences);
  const analyses = new Set(f.analysis.sentences);
  // only a sentence that opens its paragraph (after its heading) reaches back: "These figures show" after a scene is that paragraph's
  const opens = (j: number) => {
    for (let k = j - 1; k >= 0 && doc.sentences[k].paragraph === doc.sentences[j].paragraph; k--) if (!heads.has(k)) return false;
    return true;
  };
  const naming = f.explanations.sentences.filter((j) => NAMED_SUPPORT.test(f.read[j]) && opens(j));
  for (const i of [...support.keys()].sort((a, b) => a - b)) {
    // "40 per cent … had been teased. When every pupil wears the same blazer, that target disappears. This shows that…"
    const near = [i, i + 1, i + 2].filter((at) => doc.sentences[at]?.paragraph === doc.sentences[i].paragraph);
    // "The results show that…" explains the results it names, in its paragraph or the one before (a heading between is no paragraph)
    const named = naming.some((j) => j > i && sameOrNext(doc, heads, i, j));
    if (named || near.some((at) => explains.has(at) || analyses.has(at))) add(out, i, 1, [], support.get(i));
  }
  return out;
}
