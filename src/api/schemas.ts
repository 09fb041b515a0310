// The API contract of the Public Evaluation API v1, in one place.
//
// Two families of schemas live here:
//  - Requests are strict (`z.strictObject`): the client validates what it is about to send, and
//    the sandbox validates what it receives, with the same schema.
//  - Responses are loose (`z.looseObject`): unknown fields are kept, and only what a client truly
//    needs is required, so a newer or slightly different server still works.
import { MAX_BATCH_ITEMS } from './limits.js';
import * as z from './zod.js';

// ---------- shared vocabulary ----------

export const Style = z.enum(['Bullet', 'Short', 'Long']);
export type Style = z.infer<typeof Style>;
export const CumMethod = z.enum(['sum', 'average']);
export type CumMethod = z.infer<typeof CumMethod>;
export const RewriteStyle = z.enum(['bullet_points', 'paragraph', 'short_sentences']);
export type RewriteStyle = z.infer<typeof RewriteStyle>;
export const FileType = z.enum(['word', 'pdf', 'image', 'text']);
export const Scope = z.enum(['user', 'organization']);

const Id = z.number().int().positive();
/** Liberal id on the way in from a server: some send integers as strings. */
const LooseId = z.union([z.number(), z.string()]);
const IsoDateTime = z.iso.datetime({ offset: true });

// ---------- supporting shapes (2.6) ----------

export const Asset = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  mime_type: z.string().min(1).optional(),
  name: z.string().min(1).optional(),
});
export type Asset = z.infer<typeof Asset>;

export const CurrentFeedback = z.strictObject({
  item: z.string().min(1),
  comment: z.string(),
  score: z.number(),
});
export type CurrentFeedback = z.infer<typeof CurrentFeedback>;

export const RewriteSection = z.strictObject({
  item: z.string().min(1),
  comment: z.string(),
  score: z.number(),
  max_score: z.number(),
});
export type RewriteSection = z.infer<typeof RewriteSection>;

/** A rubric criterion. The spec shows only `item`; the rest is the sandbox's documented shape. */
export const Rubric = z.strictObject({
  item: z.string().min(1),
  max_score: z.number().nonnegative().optional(),
  description: z.string().optional(),
  levels: z.array(z.strictObject({ score: z.number(), descriptor: z.string() })).optional(),
});
export type Rubric = z.infer<typeof Rubric>;

// ---------- requests ----------

/** The one-pass fields of 4.8 that travel as text (JSON body, or multipart text fields). */
export const OnePassFields = z.strictObject({
  model_id: Id,
  paper_content: z.string().min(1).optional(),
  rubrics: z.array(Rubric).optional(),
  rubric_text: z.string().min(1).optional(),
  question_text: z.string().min(1).optional(),
  assignment_name: z.string().min(1).optional(),
  assignment_desc: z.string().min(1).optional(),
  cum_method: CumMethod.optional(),
  total_score: z.number().positive().optional(),
  specification: z.string().min(1).optional(),
  style: Style.optional(),
  student_id: z.string().min(1).max(200).optional(),
  current_feedbacks: z.array(CurrentFeedback).optional(),
});
export type OnePassFields = z.infer<typeof OnePassFields>;

/** A JSON one-pass request must carry the answer as text (files need multipart). */
export const OnePassJsonRequest = OnePassFields.refine((v) => v.paper_content !== undefined, {
  message: 'paper_content is required when no answer file is sent',
  path: ['paper_content'],
});

export const BatchRequest = z.strictObject({
  evaluations: z.array(OnePassFields).min(1).max(MAX_BATCH_ITEMS),
  callback_url: z.url().optional(),
});
export type BatchRequest = z.infer<typeof BatchRequest>;

export const LegacyEvaluationFields = z.strictObject({
  assignment_id: Id,
  paper_content: z.string().min(1).optional(),
  current_feedbacks: z.array(CurrentFeedback).optional(),
  style: Style.optional(),
  student_id: z.string().min(1).max(200).optional(),
});
export type LegacyEvaluationFields = z.infer<typeof LegacyEvaluationFields>;

export const AssignmentRequest = z.strictObject({
  model_id: Id,
  assignment_name: z.string().min(1),
  assignment_desc: z.string().min(1),
  deadline_time: IsoDateTime,
  expected_number: z.number().int().positive(),
  project_subject: z.string().min(1).optional(),
  start_time: IsoDateTime.optional(),
  file_type: FileType.optional(),
});
export type AssignmentRequest = z.infer<typeof AssignmentRequest>;

export const FeedbackRewriteRequest = z.strictObject({
  style: RewriteStyle,
  instruction: z.string().min(1).optional(),
  target_item: z.string().min(1).optional(),
  sections: z.array(RewriteSection).min(1),
});
export type FeedbackRewriteRequest = z.infer<typeof FeedbackRewriteRequest>;

export const IngestPreviewFields = z.strictObject({
  assets: z.array(Asset).optional(),
  specification: z.string().min(1).optional(),
  assignment_name: z.string().min(1).optional(),
  assignment_desc: z.string().min(1).optional(),
  total_score: z.number().positive().optional(),
  cum_method: CumMethod.optional(),
});
export type IngestPreviewFields = z.infer<typeof IngestPreviewFields>;

/** The questions preview takes no scoring fields (they belong to the rubrics preview, 4.5). */
export const QuestionsPreviewFields = IngestPreviewFields.omit({ total_score: true, cum_method: true });

// ---------- model building: POST /models (4.3; the field list is kct's, see docs/model-building.md) ----------

const QuestionNumber = z.string().trim().min(1, 'must not be empty').max(20, 'is longer than 20 characters');

export const SubQuestion = z.strictObject({
  number: QuestionNumber,
  text: z.string().trim().min(1, 'must not be empty'),
  marks: z.number().positive().optional(),
});
export type SubQuestion = z.infer<typeof SubQuestion>;

export const Question = z
  .strictObject({
    number: QuestionNumber,
    /** May be empty when the question is only its parts. */
    text: z.string().trim(),
    marks: z.number().positive().optional(),
    sub_questions: z.array(SubQuestion).min(1, 'must list at least one part, or be left out').optional(),
  })
  .refine((q) => q.text !== '' || (q.sub_questions?.length ?? 0) > 0, {
    message: 'is empty: write the question, or list its sub_questions',
    path: ['text'],
  });
export type Question = z.infer<typeof Question>;

export const RubricLevel = z.strictObject({
  score: z.number().nonnegative(),
  descriptor: z.string().trim().min(1, 'must not be empty'),
});

/** A criterion of a model: like `Rubric` (one-pass), but its maximum is required. */
export const ModelCriterion = z.strictObject({
  item: z.string().trim().min(1, 'must not be empty').max(200, 'is longer than 200 characters'),
  max_score: z.number().positive(),
  description: z.string().trim().optional(),
  levels: z.array(RubricLevel).optional(),
});
export type ModelCriterion = z.infer<typeof ModelCriterion>;

export const MAX_MODEL_QUESTIONS = 100;
export const MAX_MODEL_CRITERIA = 50;

/**
 * For `sum`, the criterion maxima must add up to the total score. Returns what is wrong, in
 * words that say which way and by how much, or undefined.
 */
export function criteriaTotalProblem(maxima: readonly number[], totalScore: number, cumMethod: CumMethod): string | undefined {
  if (cumMethod !== 'sum') return undefined;
  const sum = Math.round(maxima.reduce((n, m) => n + m, 0) * 1e6) / 1e6;
  const diff = Math.round((sum - totalScore) * 1e6) / 1e6;
  if (diff === 0) return undefined;
  const by = Math.abs(diff);
  return diff < 0
    ? `the criterion maxima add up to ${sum}, ${by} less than total_score ${totalScore} (cum_method sum): raise the max_score values by ${by} in all, or set total_score to ${sum}`
    : `the criterion maxima add up to ${sum}, ${by} more than total_score ${totalScore} (cum_method sum): lower the max_score values by ${by} in all, or set total_score to ${sum}`;
}

/** Checks across fields shared by the sandbox (POST /models) and `kct models create`. */
export function modelConsistencyIssues(value: {
  questions: readonly Question[];
  rubrics: readonly ModelCriterion[];
  total_score: number;
  cum_method: CumMethod;
}): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const total = criteriaTotalProblem(
    value.rubrics.map((r) => r.max_score),
    value.total_score,
    value.cum_method,
  );
  if (total) issues.push({ path: ['total_score'], message: total });
  const items = new Map<string, number>();
  value.rubrics.forEach((r, i) => {
    const key = r.item.trim().toLowerCase();
    const first = items.get(key);
    if (first !== undefined)
      issues.push({
        path: ['rubrics', i, 'item'],
        message: `"${r.item}" is also the name of criterion ${first + 1}: criterion names must be unique`,
      });
    else items.set(key, i);
    r.levels?.forEach((level, j) => {
      if (level.score > r.max_score)
        issues.push({
          path: ['rubrics', i, 'levels', j, 'score'],
          message: `${level.score} is above the criterion's max_score ${r.max_score}`,
        });
    });
  });
  const numbers = new Map<string, number>();
  value.questions.forEach((q, i) => {
    const first = numbers.get(q.number);
    if (first !== undefined)
      issues.push({
        path: ['questions', i, 'number'],
        message: `"${q.number}" is also the number of question ${first + 1}: question numbers must be unique`,
      });
    else numbers.set(q.number, i);
  });
  return issues;
}

export const CreateModelRequest = z
  .strictObject({
    assignment_name: z.string().trim().min(1, 'must not be empty').max(200, 'is longer than 200 characters'),
    assignment_desc: z.string().trim().min(1, 'must not be empty').max(5000, 'is longer than 5000 characters'),
    project_subject: z.string().trim().min(1, 'must not be empty').max(200).optional(),
    questions: z.array(Question).min(1, 'must hold at least one question').max(MAX_MODEL_QUESTIONS),
    rubrics: z.array(ModelCriterion).min(1, 'must hold at least one criterion').max(MAX_MODEL_CRITERIA),
    total_score: z.number().positive(),
    cum_method: CumMethod,
  })
  .superRefine((value, ctx) => {
    for (const issue of modelConsistencyIssues(value)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
export type CreateModelRequest = z.infer<typeof CreateModelRequest>;

// ---------- responses (loose) ----------

/** Who a key belongs to (GET /credits in the sandbox; the spec leaves the fields open). */
export const Owner = z.looseObject({
  id: LooseId.optional(),
  name: z.string().optional(),
});

export const Credits = z.looseObject({
  credits: z.number().optional(),
  // The sandbox's further fields (docs/sandbox.md); a server may send others, or none.
  reserved: z.number().optional(),
  available: z.number().optional(),
  billing_mode: z.string().optional(),
  scope: z.string().optional(),
  account: Owner.optional(),
  organization: Owner.optional(),
});
export type Credits = z.infer<typeof Credits>;

export const Model = z.looseObject({
  model_id: LooseId,
  assignment_name: z.string().optional(),
  assignment_desc: z.string().optional(),
  post_status: z.string().optional(),
  creation_method: z.string().optional(),
  total_score: z.number().optional(),
});
export type Model = z.infer<typeof Model>;
export const ModelList = z.array(Model);

export const Assignment = z.looseObject({
  assignment_id: LooseId,
  model_id: LooseId.optional(),
  assignment_name: z.string().optional(),
  status: z.string().optional(),
});
export type Assignment = z.infer<typeof Assignment>;

export const Task = z.looseObject({
  task_id: z.string().min(1),
  status: z.string().optional(),
  stage: z.string().optional(),
  assignment_id: LooseId.optional(),
  model_id: LooseId.optional(),
  student_id: z.string().nullable().optional(),
  billing_mode: z.string().optional(),
  scope: z.string().optional(),
  credits_charged: z.number().optional(),
  credit_cost: z.number().optional(),
  retryable: z.boolean().optional(),
  count: z.number().optional(),
});
export type Task = z.infer<typeof Task>;

export const StatusSnapshot = z.looseObject({
  task_id: z.string().optional(),
  status: z.string().optional(),
  stage: z.string().optional(),
  position: z.number().nullable().optional(),
  length: z.number().nullable().optional(),
  cur_step_name: z.string().nullable().optional(),
  cur_step: z.number().nullable().optional(),
  total_step: z.number().nullable().optional(),
  progress: z.number().nullable().optional(),
  message: z.string().nullable().optional(),
});
export type StatusSnapshot = z.infer<typeof StatusSnapshot>;

export const EvaluationEntry = z.looseObject({
  item: z.string().optional(),
  score: z.number().nullable().optional(),
  max_score: z.number().nullable().optional(),
  feedback: z.string().nullable().optional(),
  type: z.string().optional(),
  comment: z.string().nullable().optional(),
});
export type EvaluationEntry = z.infer<typeof EvaluationEntry>;

export const EvaluationResult = StatusSnapshot.extend({
  task_id: z.string().min(1),
  score: z.number().nullable().optional(),
  max_score: z.number().nullable().optional(),
  evaluation: z.array(EvaluationEntry).nullable().optional(),
  rubrics: z
    .array(z.looseObject({ item: z.string().optional() }))
    .nullable()
    .optional(),
  // Beyond the spec: the sandbox names who marked a result; the service does not send it, and a value that is not text is ignored.
  graded_by: z.string().optional().catch(undefined),
});
export type EvaluationResult = z.infer<typeof EvaluationResult>;

export const UploadedFile = z.looseObject({
  name: z.string().optional(),
  mime_type: z.string().optional(),
  size: z.number().optional(),
  path: z.string().optional(),
  url: z.string(),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

export const RewriteResult = z.looseObject({
  sections: z.array(z.looseObject({ item: z.string().optional(), comment: z.string().optional() })).optional(),
});
export type RewriteResult = z.infer<typeof RewriteResult>;

/** The error body the sandbox sends (spec 7 leaves it open; see docs/sandbox.md). */
export const ErrorBody = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    status: z.number().int(),
    details: z.unknown().optional(),
  }),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Machine-readable error codes the sandbox uses in `error.code`. */
export const ERROR_CODES = {
  400: 'invalid_request',
  401: 'unauthenticated',
  402: 'insufficient_credits',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'file_too_large',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'unavailable',
} as const;
