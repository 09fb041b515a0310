// What can be measured in an answer without understanding it: how it is built (paragraphs,
// sentences, links), what supports its points (figures, quotations, named sources, explanations),
// how it is written (accuracy, register, vocabulary) and, for stories, dialogue and detail.
// Every count keeps the sentences it came from, so feedback can quote the answer.
import type { Doc } from './document.js';
import { stem } from './text.js';

/**
 * How many times something was found, in which sentences (indexes into Doc.sentences), and how
 * many different things: a formula repeated ("Steinbeck presents... Steinbeck presents...") counts
 * once in `distinct`.
 */
export interface Hits {
  count: number;
  sentences: number[];
  distinct: Set<string>;
}

export interface Features {
  words: number;
  paragraphs: number;
  /** Mean and spread (coefficient of variation) of sentence lengths in words. */
  meanSentence: number;
  sentenceSpread: number;
  /** Share of sentences over 40 words: run-ons, in school writing. */
  longSentences: number;
  /** Moving-average type-token ratio over 50-word windows: vocabulary range, whatever the length. */
  vocabulary: number;
  /** Share of words of seven letters or more. */
  longWords: number;
  errors: Hits & { kinds: string[] };
  informal: Hits & { kinds: string[] };
  figures: Hits;
  quotations: Hits;
  examples: Hits;
  sources: Hits;
  explanations: Hits;
  analysis: Hits;
  terminology: Hits;
  counter: Hits;
  /** A counter-argument answered within two sentences. */
  rebuttals: Hits;
  /** Words of the paragraphs that state and answer a counter-argument: a sentence, or a developed reply. */
  counterWords: number;
  /** Sentences with support (a figure, quotation, example, source or name) explained there or in the next sentence. */
  explained: Hits;
  /** Sentences that tie the source's origin or purpose to what it can show. */
  provenanceLinked: Hits;
  position: Hits;
  /** Distinct linking words at the start of sentences. */
  connectives: string[];
  connectiveHits: Hits;
  conclusion: Hits;
  judgement: Hits;
  provenance: Hits;
  /** Names, dates and figures that are not in the question: knowledge the answer brings. */
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

const hits = (): Hits => ({ count: 0, sentences: [], distinct: new Set() });
function add(h: Hits, sentence: number, n = 1, keys: string[] = []): void {
  if (n <= 0) return;
  h.count += n;
  for (const k of keys) h.distinct.add(k);
  if (h.sentences[h.sentences.length - 1] !== sentence) h.sentences.push(sentence);
}
const countOf = (re: RegExp, s: string) => (s.match(re) ?? []).length;
/** Every match of a global pattern, counted and remembered by its stemmed words. */
function addMatches(h: Hits, sentence: number, re: RegExp, text: string): void {
  const found = text.match(re) ?? [];
  add(
    h,
    sentence,
    found.length,
    found.map((m) => m.toLowerCase().split(/\s+/).map(stem).join(' ')),
  );
}

const EXAMPLE =
  /\b(?:for example|for instance|such as|e\.g\.|to illustrate|a case in point|in particular|at my (?:old |primary |last |previous )?school|my (?:cousin|friend|brother|sister)(?:['’]s)?|when i was|i have seen|in my experience)\b/gi;
const SOURCE =
  /\b(?:according to|a (?:study|survey|report|poll)|studies|surveys|research(?:ers)?|evidence from|statistics|figures show|found that|reported that|estimated that|historians? (?:have|argue|show)|experts?)\b/gi;
const EXPLAIN =
  /\b(?:this (?:shows|means|suggests|proves|matters|is because|is why|makes|tells|implies|reveals|leads to)|which (?:means|shows|suggests|makes|tells|leads to)|that means|because|therefore|as a result|so that|in other words|this is important|that is why|consequently|thus|it follows that|explains why|for this reason|in turn|means that)\b|, so (?=\w)/gi;
const ANALYSIS =
  /\b(?:suggests?|implies|implying|conveys?|emphasi[sz]es|symboli[sz]es|represents|reveals|portrays|presents|depicts|reflects|foreshadows|highlights|reinforces|evokes|creates? a sense|stresses|mirrors|exposes|signals|underlines)\b/gi;
const TERMS =
  /\b(?:metaphors?|similes?|imagery|symbol(?:s|ism|ic)?|foreshadow(?:s|ing)?|dialogue|setting|structur(?:e|al|ally)|cyclical|narrat(?:ive|or)|juxtapos\w*|pathetic fallacy|dialect|motifs?|tone|characteri[sz]ation|repetition|repeated|monosyllabic|verbs?|adjectives?|nouns?|pronouns?|tragedy|tragic|irony|ironic|contrast(?:s|ed)?|personification|alliteration|rhetorical|chapter|opening|ending|propaganda|provenance|bias(?:ed)?|purpose|audience|context)\b/gi;
const COUNTER =
  /\b(?:critics|opponents|some (?:\w+ ){0,2}(?:say|argue|think|believe|claim|feel|insist|point out|worry|may|might|would|will|could)\b|many (?:people|parents|teachers|students) (?:say|argue|think|believe|claim|feel)|others (?:argue|say|claim|believe|think)|people who (?:like|support|oppose|disagree|want)|(?:it|this) (?:could|might|may) be argued|it is (?:often )?(?:said|argued|claimed) that|on the other hand|admittedly|(?:supporters|defenders|fans|advocates) of|the other side|some argue|those who|you (?:might|may|could) (?:think|say|argue)|one argument (?:for|against)|the (?:main|strongest|usual) argument (?:for|against))/i;
const REBUT =
  /\b(?:however|but|yet|still|even so|nevertheless|nonetheless|this ignores|this overlooks|this is not|does not mean|while this|although this|i (?:disagree|do not agree|don['’]t agree|understand|accept|see why|can see|would (?:answer|reply|argue|say))|in reply|the answer (?:is|to this)|(?:this|that) (?:may|might|could) be (?:true|so)|(?:this|that|their) (?:argument|view|point|claim|worry) (?:ignores|overlooks|misses|forgets|fails)|what they (?:forget|ignore|miss)|the real (?:solution|answer|problem)|in fact|moreover|instead|on the contrary|even if)\b/i;
const POSITION =
  /\b(?:i (?:strongly |firmly |really |do )?(?:believe|think|argue|feel|am convinced|would argue|urge|ask|recommend|agree|disagree|support|oppose)|i (?:am|['’]m) (?:strongly |firmly )?(?:for|against|in favour of|opposed to|convinced)|i (?:do not|don['’]t|cannot|can['’]t) (?:think|believe|agree|support)|in my (?:view|opinion)|(?:should|must|ought to)(?:n['’]t| not| never| definitely| certainly| all| be allowed to| no longer)? (?!i\b|we\b|you\b|they\b|he\b|she\b|it\b)[a-z]+|i am writing to (?:urge|ask|argue|say|request|propose)|this essay (?:argues|will argue)|is (?:useful|not useful|limited)|(?:presents|portrays|shows|uses) [\w\s'’]{0,40}\bas\b)/i;
const CONCLUSION =
  /^(?:in conclusion|to conclude|to sum up|in summary|overall|ultimately|all in all|to summari[sz]e|therefore|so overall|in the end|finally|for (?:all )?(?:these|this|those) reasons?|that is why|this is why)\b/i;
const JUDGEMENT =
  /\b(?:useful|usefulness|reliable|reliability|valuable|value|limited|limitations?|limits?|to (?:some|a certain|a large) extent|partly|up to a point|only shows|does not (?:show|tell|explain)|cannot tell|on balance|depends on)\b/gi;
const PROVENANCE =
  /\b(?:propaganda|purpose|published|produced|designed|made by|created by|commissioned|government|official|audience|origin|provenance|bias(?:ed)?|one-sided|primary source|at the time|intended to|aim was|was made to|reproduced)\b/gi;
const CHANGE =
  /\b(?:suddenly|for the first time|at last|realis(?:e|ed)|realiz(?:e|ed)|decided|changed|never again|from then on|from that day|ever since|after that|turning point|everything changed|instead|for a long moment|for a moment|this time|learn(?:ed|t) (?:that|how|to)|promised (?:myself|her|him)|no longer|made up (?:my|his|her) mind)\b/gi;
const SENSES =
  /\b(?:smell(?:ed|s)?|scent|taste(?:d)?|sound(?:ed)?|silence|hum(?:med)?|whisper(?:ed)?|crackl\w*|flicker\w*|glow\w*|bright|dark|cold|warm|wet|rough|soft|sharp|dust|rain|light|shadow|purple|orange|brown|grey|gray|yellow|white|black|green|blue|red|squeak\w*|thud\w*|trembl\w*|hiss\w*)\b/gi;
const SIMILE = /\b(?:like a|like the|as if|as though|as \w+ as)\b/gi;
const SPEECH = /\b(?:said|asked|replied|whispered|shouted|muttered|called|cried|answered|began|laughed|sighed|snapped|yelled)\b/i;

const CONNECTIVES = [
  'first',
  'firstly',
  'second',
  'secondly',
  'third',
  'thirdly',
  'finally',
  'however',
  'furthermore',
  'moreover',
  'in addition',
  'on the other hand',
  'therefore',
  'in conclusion',
  'to conclude',
  'overall',
  'although',
  'consequently',
  'as a result',
  'similarly',
  'by contrast',
  'in contrast',
  'nevertheless',
  'meanwhile',
  'later',
  'afterwards',
  'the next day',
  'that night',
  'then',
  'structurally',
  'by the end',
  'from the opening',
  'at first',
  'to begin with',
  'another',
  'also',
  'additionally',
  'likewise',
  'despite',
  'while',
  'whereas',
  'my first',
  'my second',
  'my third',
  'my final',
  'my last',
  'the first',
  'the second',
  'the third',
  'for these reasons',
  'for this reason',
  'above all',
  'what is more',
  'besides',
  'in short',
  'still',
  'even so',
  'on top of that',
  'for example',
  'for instance',
  'as well as this',
];
const CONNECTIVE_START = new RegExp(`^(?:${CONNECTIVES.map((c) => c.replace(/ /g, '\\s+')).join('|')})\\b`, 'i');

const MISSPELT =
  /\b(?:alot|becuase|beacuse|becasue|definately|definatly|thier|recieve|recieved|wich|untill|seperate|seperately|arguement|arguements|beleive|belive|goverment|enviroment|tommorow|tomorow|realy|wierd|truely|begining|noone|alright|alowed|countrys|anoying|comfy|diffrent|diffrence|opinon|opinons|becomeing|bullyed|bulling|comfterble|comfortible|neccessary|necesary|occured|occassion|wether|whith|beutiful|peice|freind|freinds|famly|familys|intrested|intresting|probaly|probly|finaly|basicly|acheive|acheived|begginning|happend|happyness|knowlege|libary|lonley|lonliness|relevent|similiar|sucess|sucessful|suprise|suprised|tounge|truley|unfourtunately|usefull|woudl|writting|there own|to hot|to cold|to much|to many|does'nt|should of|could of|would of|we was|they was|are own|me and my \w+ (?:went|was|were))\b/gi;
const NO_APOSTROPHE =
  /\b(?:dont|cant|wont|didnt|isnt|wasnt|doesnt|couldnt|shouldnt|wouldnt|im|ive|thats|theres|whats|hes|shes|theyre|youre|arent|havent|hasnt|curleys|lennies|georges)\b/gi;
const SLANG =
  /\b(?:stuff|loads|kinda|gonna|wanna|gotta|lol|tbh|cos|coz|cuz|u|ur|ok|okay|yeah|awesome|cool|super|basically|literally|kids|mum says|my mum|hoodies|comfy)\b/gi;
const CONTRACTION = /\b\w+['’](?:t|re|ve|ll|d|m)\b/gi;

const PAST_IRREGULAR = new Set(
  `was were had did said went came saw took got made knew thought told felt left stood sat
ran found gave kept held heard brought began became caught drove fell threw wore won lost met paid sent spent`.split(/\s+/),
);
const PRESENT = new Set(
  'is are am has have do does can will shall may must should need needs get gets goes says makes takes gives helps means'.split(' '),
);
/** Words ending in "ed" that are not past tenses. */
const NOT_PAST = new Set(
  'need indeed speed seed feed bleed breed weed embed exceed proceed succeed red bed shed shred hundred sacred naked wicked'.split(' '),
);

const STOPS = new Set(
  'that this with they them their there then than when what which while have were been from your into also just like more most much some such very would could should will because about after before being other these those only even really'.split(
    ' ',
  ),
);
/** Type-token ratio averaged over every window of 50 words: a long essay is not punished for repeating "the". */
function mattr(tokens: string[]): number {
  const size = 50;
  if (tokens.length === 0) return 0;
  if (tokens.length <= size) return new Set(tokens).size / tokens.length;
  const counts = new Map<string, number>();
  let distinct = 0;
  let total = 0;
  let windows = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    counts.set(t, (counts.get(t) ?? 0) + 1);
    if (counts.get(t) === 1) distinct++;
    if (i >= size) {
      const old = tokens[i - size];
      counts.set(old, counts.get(old)! - 1);
      if (counts.get(old) === 0) distinct--;
    }
    if (i >= size - 1) {
      total += distinct / size;
      windows++;
    }
  }
  return total / windows;
}

/** Quoted spans, with whether each is speech (a story) or a quotation (an essay). */
function quoted(text: string): string[] {
  return [...text.matchAll(/["“]([^"”\n]{2,400})["”]/g)].map((m) => m[1]);
}

export function measure(doc: Doc, questionStems: ReadonlySet<string>): Features {
  const f: Features = {
    words: doc.wordCount,
    paragraphs: doc.paragraphs.length,
    meanSentence: 0,
    sentenceSpread: 0,
    longSentences: 0,
    vocabulary: 0,
    longWords: 0,
    errors: { ...hits(), kinds: [] },
    informal: { ...hits(), kinds: [] },
    figures: hits(),
    quotations: hits(),
    examples: hits(),
    sources: hits(),
    explanations: hits(),
    analysis: hits(),
    terminology: hits(),
    counter: hits(),
    rebuttals: hits(),
    counterWords: 0,
    explained: hits(),
    provenanceLinked: hits(),
    position: hits(),
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
  const all: string[] = [];
  const lengths: number[] = [];
  const connectives = new Set<string>();
  const outside = new Set<string>();
  let past = 0;
  let verbs = 0;
  const lastParagraph = doc.paragraphs.length - 1;
  doc.sentences.forEach((s, i) => {
    const t = s.text;
    all.push(...s.words);
    lengths.push(s.words.length);
    // Speech is the story's, not the writer's register: informal words inside quotation marks are not errors.
    const spoken = quoted(t);
    const narration = t.replace(/["“][^"”\n]*["”]/g, '""');

    const errorKinds: string[] = [];
    const misspelt = countOf(MISSPELT, narration);
    if (misspelt) errorKinds.push('spelling');
    const apostrophes = countOf(NO_APOSTROPHE, narration);
    if (apostrophes) errorKinds.push('apostrophes');
    const lowerI = countOf(/(?:^|\s)i(?=\s|['’])/g, narration);
    if (lowerI) errorKinds.push('capital I');
    const lowerStart = /^["“]?[a-z]/.test(t) ? 1 : 0;
    if (lowerStart) errorKinds.push('capital letters');
    const doubled = countOf(/\b(\w+)\s+\1\b/gi, narration) - countOf(/\b(?:had had|that that)\b/gi, narration);
    if (doubled > 0) errorKinds.push('repeated words');
    const runOn = s.words.length > 45 && countOf(/[,;:]/g, t) < s.words.length / 15 ? 1 : 0;
    if (runOn) errorKinds.push('run-on sentences');
    add(f.errors, i, misspelt + apostrophes + lowerI + lowerStart + Math.max(0, doubled) + runOn);
    for (const k of errorKinds) if (!f.errors.kinds.includes(k)) f.errors.kinds.push(k);

    const slang = countOf(SLANG, narration);
    const contractions = countOf(CONTRACTION, narration);
    const exclaims = countOf(/!{2,}|\?{2,}/g, t);
    add(f.informal, i, slang + contractions * 0.5 + exclaims);
    if (slang && !f.informal.kinds.includes('casual words')) f.informal.kinds.push('casual words');
    if (contractions && !f.informal.kinds.includes('contractions')) f.informal.kinds.push('contractions');

    add(
      f.figures,
      i,
      countOf(
        /(?:[£$€]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:%|per ?cent|pounds|dollars|million|thousand|hundred))|\b(?:1[5-9]|20)\d\d\b|\b\d{2,}(?:,\d{3})*\b/g,
        narration,
      ),
    );
    const essayQuotes = spoken.filter((q) => q.split(/\s+/).length <= 40);
    add(
      f.quotations,
      i,
      essayQuotes.length,
      essayQuotes.map((q) => q.toLowerCase()),
    );
    addMatches(f.examples, i, EXAMPLE, t);
    addMatches(f.sources, i, SOURCE, t);
    addMatches(f.explanations, i, EXPLAIN, narration);
    addMatches(f.analysis, i, ANALYSIS, narration);
    addMatches(f.terminology, i, TERMS, narration);
    addMatches(f.judgement, i, JUDGEMENT, narration);
    addMatches(f.provenance, i, PROVENANCE, narration);
    addMatches(f.change, i, CHANGE, narration);
    add(f.description, i, countOf(SENSES, narration) + countOf(SIMILE, narration));
    // The writer's own view: not a question, and not the other side's view reported ("Some people say uniforms should...").
    const reported = COUNTER.test(narration) && !/\b(?:i|my|we|our)\b/i.test(narration);
    if (POSITION.test(narration) && !/\?["”]?$/.test(t) && !reported) add(f.position, i);
    if (COUNTER.test(narration)) {
      add(f.counter, i);
      const next = doc.sentences
        .slice(i, i + 3)
        .map((x) => x.text.replace(COUNTER, ''))
        .join(' ');
      if (REBUT.test(next)) add(f.rebuttals, i);
    }
    const start = CONNECTIVE_START.exec(t.replace(/^["“]/, ''));
    if (start) {
      connectives.add(start[0].toLowerCase().replace(/\s+/g, ' '));
      add(f.connectiveHits, i);
    }
    if (s.paragraph === lastParagraph && lastParagraph > 0 && CONCLUSION.test(t)) add(f.conclusion, i);

    // Names and dates the question does not give: what the answer knows beyond it. A run of
    // capitalised words ("Alfred Leete", "First World War") is one name.
    for (const m of narration.matchAll(
      /(?<=\S\s+)\p{Lu}[\p{Ll}'’]{2,}(?:\s+(?:of\s+|the\s+)?\p{Lu}[\p{Ll}'’]+)*|\b(?:1[5-9]\d\d|20\d\d)\b/gu,
    )) {
      const name = m[0].toLowerCase().replace(/['’]s\b/g, '');
      if (name.split(/\s+/).every((w) => questionStems.has(stem(w)))) continue;
      if (!outside.has(name)) {
        outside.add(name);
        add(f.outside, i, 1, [name]);
      }
    }
    if (spoken.length > 0 && (SPEECH.test(narration) || /^["“]/.test(t))) {
      add(f.dialogue, i, spoken.length);
      f.punctuatedDialogue += countOf(/[,.!?…]["”]/g, t) > 0 ? 1 : 0;
    }
    for (const w of narration.toLowerCase().match(/\b[a-z]+\b/g) ?? []) {
      const isPast = (w.length >= 5 && w.endsWith('ed') && !NOT_PAST.has(w)) || PAST_IRREGULAR.has(w);
      if (isPast) past++;
      if (isPast || PRESENT.has(w)) verbs++;
    }
  });
  const supported = new Set([
    ...f.figures.sentences,
    ...f.quotations.sentences,
    ...f.examples.sentences,
    ...f.sources.sentences,
    ...f.outside.sentences,
  ]);
  const explains = new Set(f.explanations.sentences);
  const analyses = new Set(f.analysis.sentences);
  for (const i of [...supported].sort((a, b) => a - b)) {
    const next = doc.sentences[i + 1]?.paragraph === doc.sentences[i].paragraph ? i + 1 : -1;
    if (explains.has(i) || explains.has(next) || analyses.has(i) || analyses.has(next)) add(f.explained, i);
  }
  const judged = new Set(f.judgement.sentences);
  for (const i of f.provenance.sentences) if (judged.has(i) || judged.has(i + 1)) add(f.provenanceLinked, i);
  // Restatement: a sentence whose content words mostly appeared together in one earlier sentence
  // (among the previous 100: an essay restates its own recent points, and the cost stays linear).
  // Found through an index of which sentences used each stem, so unrelated sentences cost nothing.
  const usedIn = new Map<string, number[]>();
  const sizes: number[] = [];
  doc.sentences.forEach((s, i) => {
    const own = new Set(s.words.filter((w) => w.length > 3 && !STOPS.has(w)).map(stem));
    sizes.push(own.size);
    if (own.size >= 4) {
      const shared = new Map<number, number>();
      for (const w of own) {
        const list = usedIn.get(w) ?? [];
        for (let k = list.length - 1; k >= 0 && list[k] >= i - 100; k--) shared.set(list[k], (shared.get(list[k]) ?? 0) + 1);
      }
      for (const [j, n] of shared) {
        if (n / Math.min(own.size, Math.max(1, sizes[j])) >= 0.5) {
          add(f.restated, i);
          break;
        }
      }
    }
    for (const w of own) {
      const list = usedIn.get(w);
      if (list) list.push(i);
      else usedIn.set(w, [i]);
    }
  });
  const counterParagraphs = new Set(f.counter.sentences.map((i) => doc.sentences[i].paragraph));
  f.counterWords = doc.sentences.filter((s) => counterParagraphs.has(s.paragraph)).reduce((n, s) => n + s.words.length, 0);

  const mean = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length);
  const variance = lengths.reduce((a, n) => a + (n - mean) ** 2, 0) / Math.max(1, lengths.length);
  f.meanSentence = mean;
  f.sentenceSpread = mean > 0 ? Math.sqrt(variance) / mean : 0;
  f.longSentences = lengths.filter((n) => n > 40).length / Math.max(1, lengths.length);
  f.vocabulary = mattr(all);
  f.longWords = all.filter((w) => w.length >= 7).length / Math.max(1, all.length);
  f.connectives = [...connectives];
  f.pastTense = verbs > 0 ? past / verbs : 0;
  return f;
}
