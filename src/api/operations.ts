// Every route of the v1 API, named once. The client builds its requests from this table and the
// sandbox registers its routes from it, so a path can only be spelled one way.

import { UsageError } from './errors.js';

export const API_PREFIX = '/v1';

export const OPERATIONS = {
  getCredits: { method: 'GET', path: '/credits' },
  listModels: { method: 'GET', path: '/models' },
  createModel: { method: 'POST', path: '/models' },
  questionsPreview: { method: 'POST', path: '/questions-ingest-preview' },
  rubricsPreview: { method: 'POST', path: '/rubrics-ingest-preview' },
  createAssignment: { method: 'POST', path: '/assignments' },
  createEvaluation: { method: 'POST', path: '/evaluations' },
  onePass: { method: 'POST', path: '/evaluations/one-pass' },
  batch: { method: 'POST', path: '/evaluations/batch' },
  getStatus: { method: 'GET', path: '/evaluations/:taskId/status' },
  getResult: { method: 'GET', path: '/evaluations/:taskId' },
  cancel: { method: 'POST', path: '/evaluations/:taskId/cancel' },
  feedbackRewrite: { method: 'POST', path: '/feedback-rewrite' },
  uploadFile: { method: 'POST', path: '/uploads/file' },
} as const;

export type OperationName = keyof typeof OPERATIONS;

/** Fills `:param` placeholders, URL-encoding each value. */
export function operationPath(name: OperationName, params: Record<string, string> = {}): string {
  return OPERATIONS[name].path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params[key];
    if (typeof value !== 'string' || value === '')
      throw new UsageError(`no ${key} given for ${name} (${value === undefined ? 'undefined' : JSON.stringify(value)})`, {
        suggestion: `Pass the ${key} as a string, e.g. "tsk_…" for a task.`,
      });
    return encodeURIComponent(value);
  });
}

/** Multipart field names the server accepts for answer files (4.7, 4.8). */
export const ANSWER_FILE_FIELDS = [
  'answer_file',
  'answer_files',
  'paper_file',
  'paper_files',
  'response_file',
  'response_files',
  'file',
  'files',
] as const;
export const RUBRIC_FILE_FIELDS = ['rubric_file', 'rubric_files'] as const;
export const QUESTION_FILE_FIELDS = ['question_file', 'question_files'] as const;

/** Multipart text fields that must hold a JSON array (spec 4). */
export const JSON_ARRAY_FIELDS = ['assets', 'rubrics', 'current_feedbacks'] as const;
