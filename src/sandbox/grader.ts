// The sandbox's marker. It is deterministic and says what it is: it compares an answer with each
// criterion's key terms and the question, and measures plain signals of the writing (length,
// paragraphs, sentence variety, support markers). It does not understand the argument; the
// feedback it writes only claims what it checked.
import { analyze } from './grading/analyze.js';
import { scoreCriterion, type CriterionResult } from './grading/criterion.js';
import { feedback } from './grading/feedback.js';
import { clamp, contentTerms, roundHalf } from './grading/text.js';

export { rubricsFromText } from './grading/rubric-text.js';

export interface GradeRubric { item: string; max_score: number; description?: string; levels?: { score: number; descriptor: string }[] }
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
export interface GradeOutput { score: number; evaluation: { item: string; score: number; max_score: number; feedback: string }[] }

const finite = (n: number, fallback: number) => (Number.isFinite(n) ? n : fallback);

function nearestLevel(levels: GradeRubric['levels'], score: number) {
  if (!levels || levels.length === 0) return undefined;
  // The highest level the score reaches; the lowest level when it reaches none.
  const sorted = [...levels].sort((a, b) => b.score - a.score);
  return sorted.find((l) => score >= l.score) ?? sorted[sorted.length - 1];
}

/**
 * Marks an answer against a rubric. Each criterion is scored in [0, max_score] in steps of 0.5.
 * Total: `sum` adds the criterion scores, scaled to `totalScore` when the maxima add up to
 * something else; `average` is the mean of score/max times `totalScore`. An empty rubric is
 * marked as one criterion, "Overall", worth `totalScore`. A `currentFeedbacks` entry for a
 * criterion (matched by name, ignoring case) is averaged with the sandbox's own score for it and
 * quoted in its feedback. An empty answer scores 0 everywhere.
 */
export function grade(input: GradeInput): GradeOutput {
  const totalScore = finite(input.totalScore, 0);
  const rubrics: GradeRubric[] = input.rubrics.length > 0 ? input.rubrics : [{ item: 'Overall', max_score: Math.max(totalScore, 0) }];
  const answer = input.answerText.trim() === '' ? undefined : analyze(input.answerText);
  const questionTerms = contentTerms([
    { text: input.questionText, weight: 1 },
    { text: input.assignmentDesc, weight: 1 },
  ]);
  const priors = new Map((input.currentFeedbacks ?? []).map((f) => [f.item.trim().toLowerCase(), f]));

  const evaluation = rubrics.map((r) => {
    const max = Math.max(0, finite(r.max_score, 0));
    let result: CriterionResult | undefined;
    let score = 0;
    const prior = priors.get(r.item.trim().toLowerCase());
    if (answer) {
      result = scoreCriterion({ ...r, max_score: max }, answer, questionTerms);
      score = roundHalf(result.fraction * max);
      if (prior && Number.isFinite(prior.score)) score = roundHalf((score + clamp(prior.score, 0, max)) / 2);
    }
    score = clamp(score, 0, max);
    const text = feedback({
      item: r.item,
      score,
      max,
      style: input.style,
      result,
      level: nearestLevel(r.levels, score),
      prior: answer && prior ? { comment: prior.comment, score: prior.score } : undefined,
    });
    return { item: r.item, score, max_score: max, feedback: text };
  });

  return { score: total(evaluation, input.cumMethod, totalScore), evaluation };
}

function total(evaluation: { score: number; max_score: number }[], method: 'sum' | 'average', totalScore: number): number {
  const maxSum = evaluation.reduce((n, e) => n + e.max_score, 0);
  const target = totalScore > 0 ? totalScore : maxSum;
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
 * read. Rule: 1 credit per started 2,000 characters of answer text, plus, for each answer file,
 * 1 credit per started 2 MiB (so every file costs at least 1 and a 20 MB file 10); at least 1 in all.
 */
export function creditCost(input: { textLength?: number; fileBytes?: number[] }): number {
  const text = Math.ceil(Math.max(0, finite(input.textLength ?? 0, 0)) / 2000);
  const files = (input.fileBytes ?? []).reduce((n, b) => n + Math.max(1, Math.ceil(Math.max(0, finite(b, 0)) / (2 * 1024 * 1024))), 0);
  return Math.max(1, text + files);
}
