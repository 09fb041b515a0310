// The last PROGRESS step's work: choose the rubric and question (grade-plan.ts), mark (the grader) and
// check the result before anything is charged (spec 4.8 rule 7). A job of the worker-thread
// pool (engines/jobs.ts): rubric text is parsed and the answer marked here, off the request thread.
import { LegacyEvaluationFields, MAX_MODEL_CRITERIA, OnePassFields } from 'kct/api/schemas.js';
import type { ModelRow, TaskKind } from '../../store/store.js';
import type { SuccessResult } from '../../tasks/transitions.js';
import type { Exclusion } from '../extract/marked.js';
import type { PreparedText, RubricSource } from '../grade-plan.js';
import { planGrading, rubricsUsed } from '../grade-plan.js';
import type { GradeInput, GradeOutput } from '../grader.js';
import { GRADED_BY, grade } from '../grader.js';
import { readPrepared } from './prepare.js';

/** Criteria a task may be marked against: as many as a model may hold (POST /models). */
export const MAX_CRITERIA = MAX_MODEL_CRITERIA;

export interface MarkInput {
  kind: TaskKind;
  modelId: number;
  /** The task's stored request fields. */
  inputJson: string;
  model: ModelRow;
  /** What the UPLOADING stage read (null for a task prepared before it existed), or the name of its file. */
  preparedJson: string | null;
  /** The task's folder, where a long prepared text is kept. */
  taskDir: string;
}

export type MarkOutput = { ok: true; result: SuccessResult } | { ok: false; reason: string; retryable: boolean };

const RUBRIC_WORDS: Record<RubricSource, string> = {
  request_rubrics: 'The rubrics sent',
  request_rubric_text: 'The rubric read from rubric_text and the rubric files',
  model: "The model's rubric",
};

export type PlanOutput = { ok: true; gradeInput: GradeInput; notMarked: Exclusion[] } | { ok: false; reason: string; retryable: boolean };

export function markTask(input: MarkInput): MarkOutput {
  const planned = planMark(input);
  return planned.ok ? checkMarked(grade(planned.gradeInput), planned.gradeInput, GRADED_BY, planned.notMarked) : planned;
}

/** What the grader is given: the rubric and question chosen (rubric text parsed), the criteria counted. */
export function planMark(input: MarkInput): PlanOutput {
  const fields = gradingFields(input.kind, input.modelId, JSON.parse(input.inputJson) as Record<string, unknown>);
  const prepared: PreparedText = input.preparedJson !== null ? readPrepared(input.preparedJson, input.taskDir) : { answerText: '' };
  const { input: gradeInput, rubricSource } = planGrading(fields, input.model, prepared);
  const criteria = gradeInput.rubrics.length;
  if (criteria > MAX_CRITERIA) {
    return {
      ok: false,
      retryable: false,
      reason: `${RUBRIC_WORDS[rubricSource]} has ${criteria.toLocaleString('en-US')} criteria; at most ${MAX_CRITERIA} can be marked. Send a rubric with fewer criteria (one line per criterion, e.g. "Evidence (6 marks)").`,
    };
  }
  return { ok: true, gradeInput, notMarked: prepared.notMarked ?? [] };
}

/** A grader's output checked before anything is charged, as the stored result, naming who marked it and what was left out. */
export function checkMarked(output: GradeOutput, gradeInput: GradeInput, gradedBy: string, notMarked: Exclusion[] = []): MarkOutput {
  // an answer the grader cannot read is a task that did not mark it (spec 3: FAILURE, credits_charged 0), not a score of 0
  if (output.unmarkable) return { ok: false, retryable: false, reason: output.unmarkable };
  const problem = invalidResult(output, gradeInput.rubrics.length);
  if (problem) {
    return {
      ok: false,
      retryable: true,
      reason: `The marking result did not pass validation (${problem}); no credits were charged. Submit again.`,
    };
  }
  return {
    ok: true,
    result: {
      score: output.score,
      max_score: gradeInput.totalScore,
      evaluation: output.evaluation.map((e) => ({ item: e.item, score: e.score, max_score: e.max_score, feedback: e.feedback })),
      rubrics: rubricsUsed(gradeInput.rubrics),
      not_marked: notMarked,
      graded_by: gradedBy,
    },
  };
}

/** The one-pass fields a task is marked with; a legacy task uses its assignment's model as saved. */
function gradingFields(kind: TaskKind, modelId: number, input: Record<string, unknown>): OnePassFields {
  if (kind !== 'legacy') return OnePassFields.parse(input);
  const legacy = LegacyEvaluationFields.parse(input);
  return {
    model_id: modelId,
    ...(legacy.paper_content !== undefined ? { paper_content: legacy.paper_content } : {}),
    ...(legacy.style !== undefined ? { style: legacy.style } : {}),
    ...(legacy.current_feedbacks !== undefined ? { current_feedbacks: legacy.current_feedbacks } : {}),
  };
}

/** "Credits are charged only after a complete result is validated" (spec 4.8 rule 7). */
function invalidResult(output: GradeOutput, criteria: number): string | undefined {
  if (!Number.isFinite(output.score)) return 'the total is not a number';
  if (output.evaluation.length !== criteria) return `${output.evaluation.length} criteria marked, ${criteria} expected`;
  for (const e of output.evaluation) {
    if (!Number.isFinite(e.score) || e.score < 0 || e.score > e.max_score)
      return `criterion "${e.item}" scored ${e.score} of ${e.max_score}`;
    if (typeof e.feedback !== 'string' || e.feedback.trim() === '') return `criterion "${e.item}" has no feedback`;
  }
  return undefined;
}
