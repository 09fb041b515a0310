import type { AnswerProfile } from './analyze.js';
import { clamp, contentTerms, type Term } from './text.js';

/** What a criterion is mostly about, read from its wording; decides which signals count most. */
export type Focus = 'evidence' | 'organisation' | 'language' | 'position' | 'content';

const FOCUS_WORDS: [Focus, RegExp][] = [
  ['evidence', /\b(?:evidence|example|examples|support|supporting|reasoning|reasons|justif\w*|analysis|analys\w*|source|sources|detail|details|argument)\b/i],
  ['organisation', /\b(?:organi[sz]\w*|structure\w*|coheren\w*|paragraph\w*|flow|sequenc\w*|transition\w*|introduction|conclusion)\b/i],
  ['language', /\b(?:language|grammar|spelling|punctuation|vocabulary|style|expression|mechanics|conventions|sentence\w*|fluency|tone|register|word choice)\b/i],
  ['position', /\b(?:thesis|position|claim|stance|opinion|point of view|main idea|purpose)\b/i],
];

export function focusOf(text: string): Focus {
  for (const [focus, re] of FOCUS_WORDS) if (re.test(text)) return focus;
  return 'content';
}

export interface CriterionInput {
  item: string;
  max_score: number;
  description?: string;
  levels?: { score: number; descriptor: string }[];
}

/** A measured signal in [0, 1], with what the feedback may say it found and what it lacks. */
export interface Signal { name: string; value: number; found?: string; lacking?: string }

export interface CriterionResult {
  fraction: number;
  focus: Focus;
  matched: string[];
  missing: string[];
  /** Signals that moved this criterion, for the feedback to name. */
  signals: Signal[];
  /** Share of the question's key terms the answer uses, or undefined when there is no question. */
  relevance: number | undefined;
}

/**
 * Key terms of a criterion: from its name and description, and from level descriptors only when
 * they recur across levels or belong to the question. Descriptors are mostly grading language
 * ("vague", "sustained", "bolted on"), and a student is not missing those words.
 */
export function criterionTerms(c: CriterionInput, questionStems: ReadonlySet<string>): Term[] {
  const own = contentTerms([{ text: c.item, weight: 3 }, { text: c.description, weight: 2 }]);
  const known = new Set(own.map((t) => t.stem));
  const seen = new Map<string, { term: Term; levels: number }>();
  for (const level of c.levels ?? []) {
    for (const term of contentTerms([{ text: level.descriptor, weight: 1 }])) {
      const entry = seen.get(term.stem) ?? { term, levels: 0 };
      entry.levels++;
      seen.set(term.stem, entry);
    }
  }
  const fromLevels = [...seen.values()]
    .filter(({ term, levels }) => !known.has(term.stem) && (levels >= 2 || questionStems.has(term.stem)))
    .map(({ term }) => term);
  return [...own, ...fromLevels];
}

const quoted = (xs: string[]) => xs.slice(0, 3).map((x) => `“${x}”`).join(', ');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Per-signal scores in [0, 1], with the words the feedback uses for them. */
function signals(a: AnswerProfile): Record<string, Signal> {
  const evidenceCount = a.evidenceMarkers.length + Math.min(a.figures, 3) + Math.min(a.quotations, 3);
  const length = clamp((a.wordCount - 30) / 370, 0, 1);
  const variety = a.sentences < 3 ? 0 : clamp(a.sentenceVariety / 0.45, 0, 1) * (a.meanSentenceWords >= 8 && a.meanSentenceWords <= 30 ? 1 : 0.6);
  const vocabulary = a.wordCount < 60 ? 0.3 : clamp((a.vocabulary - 0.3) / 0.3, 0, 1);
  return {
    length: {
      name: 'length', value: length,
      found: length >= 0.5 ? plural(a.wordCount, 'word') : undefined,
      lacking: length < 0.5 ? `enough development (only ${plural(a.wordCount, 'word')})` : undefined,
    },
    paragraphs: {
      name: 'paragraphs', value: clamp((a.paragraphs - 1) / 4, 0, 1),
      found: a.paragraphs > 1 ? plural(a.paragraphs, 'paragraph') : undefined,
      lacking: a.paragraphs < 3 ? `separate paragraphs (${plural(a.paragraphs, 'paragraph')} found)` : undefined,
    },
    evidence: {
      name: 'evidence', value: clamp(evidenceCount / 6, 0, 1),
      found: [
        a.evidenceMarkers.length > 0 ? `support markers ${quoted(a.evidenceMarkers)}` : '',
        a.figures > 0 ? plural(a.figures, 'figure') : '',
        a.quotations > 0 ? plural(a.quotations, 'quotation') : '',
      ].filter(Boolean).join(', ') || undefined,
      lacking: [
        a.evidenceMarkers.length === 0 ? 'examples or reasons (“for example”, “because”)' : '',
        a.figures === 0 ? 'figures' : '',
        a.quotations === 0 ? 'quotations' : '',
      ].filter(Boolean).join(', ') || undefined,
    },
    connectives: {
      name: 'connectives', value: clamp(a.connectives.length / 6, 0, 1),
      found: a.connectives.length > 0 ? `linking words ${quoted(a.connectives)}` : undefined,
      lacking: a.connectives.length < 3 ? 'linking words between points (“however”, “therefore”)' : undefined,
    },
    variety: {
      name: 'variety', value: variety,
      found: a.sentences > 0 ? `${plural(a.sentences, 'sentence')} averaging ${Math.round(a.meanSentenceWords)} words` : undefined,
      lacking: variety < 0.5 ? 'varied sentence lengths' : undefined,
    },
    vocabulary: {
      name: 'vocabulary', value: vocabulary,
      found: a.wordCount >= 60 ? `${Math.round(a.vocabulary * 100)}% distinct words` : undefined,
      lacking: vocabulary < 0.5 ? 'a wider range of words' : undefined,
    },
    position: {
      name: 'position', value: a.position ? 1 : 0,
      found: a.position ? 'a stated position' : undefined,
      lacking: a.position ? undefined : 'a clearly stated position (“I believe”, “should”)',
    },
    counter: {
      name: 'counter', value: a.counterArgument ? 1 : 0,
      found: a.counterArgument ? 'an opposing view' : undefined,
      lacking: a.counterArgument ? undefined : 'an opposing view and a reply to it',
    },
  };
}

/** Which signals matter for each focus, with their weights (each row sums to 1). */
const MIX: Record<Focus, [string, number][]> = {
  evidence: [['evidence', 0.6], ['length', 0.2], ['counter', 0.2]],
  organisation: [['paragraphs', 0.45], ['connectives', 0.35], ['length', 0.2]],
  language: [['variety', 0.4], ['vocabulary', 0.35], ['length', 0.25]],
  position: [['position', 0.5], ['counter', 0.2], ['length', 0.3]],
  content: [['length', 0.4], ['evidence', 0.3], ['paragraphs', 0.3]],
};

/** Full marks need judgement this grader does not have: it leaves the last 10% to a person. */
export const CEILING = 0.9;

/**
 * How well an answer meets one criterion, in [0, CEILING]: the writing signals that suit the
 * criterion and the share of its key terms found in the answer, held down for a short answer
 * (20 words cannot fully meet any criterion) and for one that shares little with the question.
 */
export function scoreCriterion(c: CriterionInput, a: AnswerProfile, questionTerms: Term[]): CriterionResult {
  const focus = focusOf(`${c.item} ${c.description ?? ''}`);
  const terms = criterionTerms(c, new Set(questionTerms.map((t) => t.stem)));
  const matched: Term[] = [];
  const missing: Term[] = [];
  for (const t of terms) (a.stems.has(t.stem) ? matched : missing).push(t);
  const totalWeight = terms.reduce((n, t) => n + t.weight, 0);
  const coverage = totalWeight === 0 ? undefined : matched.reduce((n, t) => n + t.weight, 0) / totalWeight;

  const questionHits = questionTerms.filter((t) => a.stems.has(t.stem)).length;
  const relevance = questionTerms.length === 0 ? undefined : questionHits / questionTerms.length;

  const all = signals(a);
  const mix = MIX[focus];
  const signalScore = mix.reduce((n, [name, w]) => n + all[name].value * w, 0);

  // Coverage counts for more the more key terms there are (one stray term decides little), and it
  // saturates: an answer need not use every word of a criterion.
  const confidence = Math.min(1, totalWeight / 6);
  const termWeight = coverage === undefined ? 0 : (focus === 'language' ? 0.2 : 0.45) * confidence;
  const raw = (signalScore * (1 - termWeight)) + clamp((coverage ?? 0) / 0.6, 0, 1) * termWeight;
  const lengthFactor = Math.min(1, Math.sqrt(a.wordCount / 150));
  // Fluent writing on another topic is still off task: it keeps at most 35% of what it would get.
  const topicFactor = relevance === undefined ? 1 : 0.35 + 0.65 * clamp(relevance / 0.5, 0, 1);

  const quote = (t: Term) => a.stems.get(t.stem) ?? t.word;
  const byWeight = (x: Term, y: Term) => y.weight - x.weight;
  return {
    fraction: clamp(raw * lengthFactor * topicFactor * CEILING, 0, CEILING),
    focus,
    matched: [...matched].sort(byWeight).map(quote),
    missing: [...missing].sort(byWeight).map((t) => t.word),
    signals: mix.map(([name]) => all[name]),
    relevance,
  };
}
