// The sandbox's marker. It is deterministic and says what it is: it reads the answer's structure
// (paragraphs, sentences), measures what can be measured without understanding it (support,
// explanation, links, slips, register, dialogue...), weighs those against each criterion's
// wording, and makes one judgement per criterion (grading/judgement.ts) from which every sentence
// of feedback is written. It does not understand the argument. docs/sandbox.md ("The grader").
import { feedback } from './grading/feedback.js';
import { type Judgement, judge } from './grading/judgement.js';
import { clamp, roundHalf } from './grading/text.js';

export { readRubricText, rubricsFromText } from './grading/rubric-text.js';

export interface GradeRubric {
  item: string;
  max_score: number;
  description?: string;
  levels?: { score: number; descriptor: string }[];
}
export interface GradeInput {
  answerText: string;
  questionText?: string;
  assignmentDesc?: string;
  rubrics: GradeRubric[];
  cumMethod: 'sum' | 'average';
  totalScore: number;
  style: 'Bullet' | 'Short' | 'Long';
  currentFeedbacks?: { item: string; comment: string; score: number }[];
}
/** What a result marked by this grader says marked it (`graded_by`): never to be taken for the service. */
export const GRADED_BY = "the sandbox's offline grader";

export interface GradeOutput {
  score: number;
  evaluation: { item: string; score: number; max_score: number; feedback: string }[];
  /** Why this grader could not mark the answer at all (one not in English): the task fails, uncharged, rather than hand back a 0. */
  unmarkable?: string;
}

const finite = (n: number, fallback: number) => (Number.isFinite(n) ? n : fallback);

/** The rubric a task is marked on: maxima made finite and non-negative; an empty rubric is one "Overall" criterion. */
export function markedRubrics(input: Pick<GradeInput, 'rubrics' | 'totalScore'>): GradeRubric[] {
  const totalScore = finite(input.totalScore, 0);
  const rubrics = input.rubrics.length > 0 ? input.rubrics : [{ item: 'Overall', max_score: Math.max(totalScore, 0) }];
  return rubrics.map((r) => ({ ...r, max_score: Math.max(0, finite(r.max_score, 0)) }));
}

/** The judgement behind each criterion's score and feedback (the same for every style). */
export function judgements(input: GradeInput): Judgement[] {
  return judge({ ...input, rubrics: markedRubrics(input) });
}

/**
 * Marks an answer against a rubric. Each criterion is scored in [0, max_score] in steps of 0.5.
 * Total: see `totalScore`. An empty rubric is marked as one criterion, "Overall", worth
 * `totalScore`. A `currentFeedbacks` entry for a criterion (matched by name, ignoring case) is
 * averaged with the sandbox's own score for it and quoted in its feedback. An empty answer, or one
 * that only copies the question, scores 0 everywhere.
 */
export function grade(input: GradeInput): GradeOutput {
  const js = judgements(input);
  const evaluation = js.map((j) => ({ item: j.item, score: j.score, max_score: j.max, feedback: feedback(j, input.style) }));
  const foreign = js[0]?.empty?.notEnglish;
  return {
    score: totalScore(evaluation, input.cumMethod, finite(input.totalScore, 0)),
    evaluation,
    ...(foreign
      ? {
          unmarkable: `The answer does not read as English: ${foreign.foreign} of its ${foreign.words} words are neither English words nor one slip from one (such as ${foreign.examples.map((w) => `“${w}”`).join(', ')}). The sandbox's offline grader marks English only, so it did not mark it, and charged nothing: have a teacher who reads its language mark it, or start the sandbox with --grader openai to mark it with a language model.`,
        }
      : {}),
  };
}

/**
 * The total of criterion scores, computed the same way whoever marked them (this grader or a
 * language model): `sum` adds the scores, scaled to `total` when the maxima add up to something
 * else; `average` is the mean of score/max times `total`. In steps of 0.5, within [0, total].
 */
export function totalScore(evaluation: { score: number; max_score: number }[], method: 'sum' | 'average', total: number): number {
  const maxSum = evaluation.reduce((n, e) => n + e.max_score, 0);
  const target = total > 0 ? total : maxSum;
  let value: number;
  if (method === 'average') {
    const scored = evaluation.filter((e) => e.max_score > 0);
    const mean = scored.reduce((n, e) => n + e.score / e.max_score, 0) / Math.max(1, scored.length);
    value = mean * target;
  } else {
    const sum = evaluation.reduce((n, e) => n + e.score, 0);
    value = maxSum > 0 && Math.abs(maxSum - target) > 1e-9 ? (sum / maxSum) * target : sum;
  }
  return clamp(roundHalf(value), 0, target);
}

/**
 * Credits a one-pass or batch item costs, quoted when the request is accepted, before any file is
 * read. Rule: 1 credit per started 2 MiB of each answer file, and of the answer's text when it is
 * pasted (its UTF-8 bytes): the same answer costs the same sent as a file or as text (so a typed
 * essay costs 1, and a 20 MB file 10); at least 1 in all.
 */
export function creditCost(input: { textBytes?: number; fileBytes?: number[] }): number {
  const perPart = (bytes: number) => Math.max(1, Math.ceil(Math.max(0, finite(bytes, 0)) / (2 * 1024 * 1024)));
  const text = input.textBytes === undefined ? 0 : perPart(input.textBytes);
  const files = (input.fileBytes ?? []).reduce((n, b) => n + perPart(b), 0);
  return Math.max(1, text + files);
}
