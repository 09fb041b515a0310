// What the task asks for, read from the question, the description and the rubric: the kind of
// writing, the length asked for, and the terms an answer on the topic cannot avoid.
import { contentTerms, stem, words, type Term } from './text.js';

export type Genre = 'narrative' | 'argument' | 'literature' | 'source' | 'general';

export interface Task {
  genre: Genre;
  /** Words asked for; a default range when the question names none (`stated` false). */
  length: { low: number; high: number; stated: boolean };
  /** Terms of the topic, weighted by how many of the task's texts use them and whether they are names. */
  topic: Term[];
  /** Stems of the question's words, to tell outside knowledge from words taken from the question. */
  questionStems: ReadonlySet<string>;
}

const GENRES: [Genre, RegExp][] = [
  ['narrative', /\b(?:short story|stories|story|narrative|creative writing|fiction|diary entry)\b/i],
  ['source', /\b(?:source [a-z]\b|sources?\b.*\b(?:useful|reliab|historian)|provenance)/i],
  ['literature', /\b(?:novel|novella|poem|poetry|play|playwright|the writer presents?|does [A-Z][a-z]+ present|how does [A-Z][a-z]+ (?:present|use|show)|character)/i],
  ['argument', /\b(?:persuasive|persuade|argue|argument|for or against|agree or disagree|opinion|letter to|speech|debate)\b/i],
];

/**
 * Words every school task uses: they say little about the topic. "Students", "school" and
 * "board" are in a question about uniforms and in an essay about phones alike.
 */
const GENERIC = new Set(`school schools student students pupil pupils teacher teachers class classes year years
people person time times way ways thing things life world make made write wrote written writing essay
essays word words question questions answer text reader readers refer closely study using explain own
knowledge piece pieces board addressed least two three four clear short long better good help think`.split(/\s+/));
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

export function readTask(input: { questionText?: string; assignmentDesc?: string; rubricTexts: string[] }): Task {
  const key = JSON.stringify([input.questionText, input.assignmentDesc, input.rubricTexts]);
  const known = cache.get(key);
  if (known) return known;
  const task = readTaskNow(input);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, task);
  return task;
}

function readTaskNow(input: { questionText?: string; assignmentDesc?: string; rubricTexts: string[] }): Task {
  const question = input.questionText ?? '';
  const desc = input.assignmentDesc ?? '';
  const all = `${question}\n${desc}`;
  const genre = GENRES.find(([, re]) => re.test(all))?.[0] ?? 'general';
  genericStems ??= new Set([...GENERIC].map(stem));
  const named = new Set([...names(question), ...names(desc)]);
  const sources = [question, desc, input.rubricTexts.join('\n')];
  const inSource = sources.map((s) => new Set(words(s).map(stem)));
  const topic = contentTerms([{ text: question, weight: 1 }, { text: desc, weight: 1 }])
    .filter((t) => !/^\d/.test(t.word))
    .map((t) => {
      const used = inSource.filter((s) => s.has(t.stem)).length;
      const weight = genericStems!.has(t.stem) ? 0.25 : used + (named.has(t.stem) ? 1 : 0);
      return { ...t, weight };
    });
  return { genre, length: lengthAsked(question), topic, questionStems: new Set(words(all).map(stem)) };
}
