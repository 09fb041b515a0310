// What the task asks for, read from the question, the description and the rubric: the kind of
// writing, the length asked for, and the terms an answer on the topic cannot avoid.
import { contentTerms, stem, type Term, words } from './text.js';
import { INSTRUCTION, SYNONYMS } from './vocabulary.js';

type Genre = 'narrative' | 'argument' | 'literature' | 'source' | 'general';

/** A key term and the other words that say the same (each as the stems of its words: "dress code"). */
export interface TopicTerm extends Term {
  also: string[][];
}

export interface Task {
  genre: Genre;
  /** Words asked for; a default range when the question names none (`stated` false). */
  length: { low: number; high: number; stated: boolean };
  /** Terms of the topic, weighted by where they appear (question and rubric most) and whether they are names. */
  topic: TopicTerm[];
  /** Stems of the question's words, to tell outside knowledge from words taken from the question. */
  questionStems: ReadonlySet<string>;
}

const GENRES: [Genre, RegExp][] = [
  ['narrative', /\b(?:short story|stories|story|narrative|creative writing|fiction|diary entry)\b/i],
  ['source', /\b(?:source [a-z]\b|sources?\b.*\b(?:useful|reliab|historian)|provenance)/i],
  [
    'literature',
    /\b(?:novel|novella|poem|poetry|play|playwright|the writer presents?|does [A-Z][a-z]+ present|how does [A-Z][a-z]+ (?:present|use|show)|character)/i,
  ],
  ['argument', /\b(?:persuasive|persuade|argue|argument|for or against|agree or disagree|opinion|letter to|speech|debate)\b/i],
];

/**
 * Words every school task uses: they say little about the topic. "Students", "school" and
 * "board" are in a question about uniforms and in an essay about phones alike.
 */
const GENERIC = new Set(
  `school schools student students pupil pupils teacher teachers class classes year years
people person time times way ways thing things life world make made write wrote written writing essay
essays word words question questions answer text reader readers refer closely study using explain own
knowledge piece pieces board addressed least two three four clear short long better good help think`.split(/\s+/),
);
let genericStems: Set<string> | undefined;

/** Capitalised words that do not start a sentence: names of people, places, works. */
function names(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<![.!?]\s|^)(?<=\s|["“(])(\p{Lu}[\p{Ll}'’]+)/gmu)) {
    if (m[1] !== 'I') out.add(stem(m[1].toLowerCase().replace(/['’]s$/, '')));
  }
  return out;
}

const DEFAULT_LENGTH = { low: 300, high: 800, stated: false };

function lengthAsked(question: string): Task['length'] {
  const range = /\b(\d{2,4})\s*(?:to|-|–|and)\s*(\d{2,4})\s*words\b/i.exec(question);
  if (range) return { low: Number(range[1]), high: Math.max(Number(range[1]), Number(range[2])), stated: true };
  const about = /\b(?:about|around|at least|roughly|up to|no more than|maximum of|max(?:imum)?)\s*(\d{2,4})\s*words\b/i.exec(question);
  if (about) return { low: Math.round(Number(about[1]) * 0.75), high: Math.round(Number(about[1]) * 1.25), stated: true };
  return DEFAULT_LENGTH;
}

// A model's tasks are marked again and again: what the task asks is read once per distinct text.
const cache = new Map<string, Task>();
const CACHE_SIZE = 64;

/** `rubricTexts`: each criterion's text (name, description and level descriptors). */
export function readTask(input: { questionText?: string; assignmentDesc?: string; rubricTexts: string[] }): Task {
  const key = JSON.stringify([input.questionText, input.assignmentDesc, input.rubricTexts]);
  const known = cache.get(key);
  if (known) return known;
  const task = readTaskNow(input);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, task);
  return task;
}

/** Stems of each word of a synonym group, by the stem of each single-word member. */
let synonymsByStem: Map<string, string[][]> | undefined;
export function synonymsOf(termStem: string): string[][] {
  if (!synonymsByStem) {
    synonymsByStem = new Map();
    for (const group of SYNONYMS) {
      const stems = group.map((w) => words(w).map(stem));
      // Each other word once: "volunteered" and "volunteering" are one stem, counted once.
      const distinct = [...new Map(stems.map((x) => [x.join(' '), x])).values()];
      for (const s of stems)
        if (s.length === 1)
          synonymsByStem.set(
            s[0],
            distinct.filter((x) => !(x.length === 1 && x[0] === s[0])),
          );
    }
  }
  return synonymsByStem.get(termStem) ?? [];
}

/**
 * How much a term says about the topic: a term of the question that the rubric's criteria use too
 * is the topic itself ("homework", "source"), the more so the more criteria use it; one of the
 * question alone counts less; one only in the rubric or the description (a school's name, "Spring
 * Term") little. Names in the question count more.
 */
function topicWeight(inQuestion: boolean, criteria: number, inDesc: boolean, named: boolean): number {
  if (inQuestion) return 2 + Math.min(criteria, 2) + (inDesc ? 0.5 : 0) + (named ? 1 : 0);
  if (criteria > 0 && inDesc) return 1.5;
  return 0.5;
}

function readTaskNow(input: { questionText?: string; assignmentDesc?: string; rubricTexts: string[] }): Task {
  const question = input.questionText ?? '';
  const desc = input.assignmentDesc ?? '';
  const rubric = input.rubricTexts.join('\n');
  const byCriterion = input.rubricTexts.map((t) => new Set(words(t).map(stem)));
  const all = `${question}\n${desc}`;
  const genre = GENRES.find(([, re]) => re.test(all))?.[0] ?? 'general';
  genericStems ??= new Set([...GENERIC].map(stem));
  const instructionStems = new Set([...INSTRUCTION].map(stem));
  const named = names(question);
  const [inQuestion, inDesc] = [question, desc].map((s) => new Set(words(s).map(stem)));
  // Key terms come from the question and the rubric; the description adds weight, not terms, when
  // there is a question (a model's description is often the paper's rubric: "Time allowed: 60 minutes").
  const sources = question.trim() !== '' ? [question, rubric] : [desc, rubric];
  const topic = contentTerms(sources.map((text) => ({ text, weight: 1 })))
    .filter((t) => !/^\d/.test(t.word) && !instructionStems.has(t.stem) && !INSTRUCTION.has(t.word))
    .map((t) => {
      const weight = genericStems!.has(t.stem)
        ? 0.25
        : topicWeight(
            inQuestion.has(t.stem) || (question.trim() === '' && inDesc.has(t.stem)),
            byCriterion.filter((c) => c.has(t.stem)).length,
            inDesc.has(t.stem),
            named.has(t.stem),
          );
      return { ...t, weight, also: synonymsOf(t.stem) };
    });
  return { genre, length: lengthAsked(question), topic, questionStems: new Set(words(all).map(stem)) };
}
