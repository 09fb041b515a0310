// What the OpenAPI document (openapi.ts) says of the API: its named schemas, each operation's
// summary, request, answer and errors, and what each error status means. openapi.ts assembles
// the document from these tables, the zod contract and the route table.

import { MAX_FILE_BYTES } from './limits.js';
import { ANSWER_FILE_FIELDS, type OperationName, QUESTION_FILE_FIELDS, RUBRIC_FILE_FIELDS } from './operations.js';
import * as P from './product.js';
import * as S from './schemas.js';
import type * as z from './zod.js';

/** Every named schema, under components.schemas; nested ones become $refs. */
export const COMPONENTS: [string, z.ZodType, string][] = [
  ['Asset', S.Asset, 'A public file by URL (spec 2.6).'],
  ['CurrentFeedback', S.CurrentFeedback, 'Existing rubric-level feedback used as a reference (spec 2.6).'],
  ['RewriteSection', S.RewriteSection, 'Feedback to rewrite (spec 2.6).'],
  ['Rubric', S.Rubric, "A rubric criterion; the spec shows only `item`, the rest is the sandbox's shape."],
  [
    'OnePassFields',
    S.OnePassFields,
    'The one-pass fields of spec 4.8. As JSON, paper_content is required; with answer files, send multipart.',
  ],
  ['BatchRequest', S.BatchRequest, 'Spec 4.9: 1 to 100 one-pass items, and an optional callback URL.'],
  ['LegacyEvaluationFields', S.LegacyEvaluationFields, 'Spec 4.7: an answer to an existing assignment.'],
  ['AssignmentRequest', S.AssignmentRequest, 'Spec 4.6.'],
  ['FeedbackRewriteRequest', S.FeedbackRewriteRequest, "Spec 4.13 (which fields are required is the sandbox's choice)."],
  ['QuestionsPreviewFields', S.QuestionsPreviewFields, 'Spec 4.4: JSON input of the questions preview.'],
  ['IngestPreviewFields', S.IngestPreviewFields, 'Spec 4.5: JSON input of the rubrics preview.'],
  ['SubQuestion', S.SubQuestion, 'A part of a question.'],
  ['Question', S.Question, "A confirmed question (the field list is kct's, docs/model-building.md)."],
  ['RubricLevel', S.RubricLevel, 'A level descriptor of a criterion.'],
  ['ModelCriterion', S.ModelCriterion, 'A criterion of a model; its maximum is required.'],
  [
    'CreateModelRequest',
    S.CreateModelRequest,
    "Spec 4.3 (the field list is kct's, docs/model-building.md). For cum_method sum, the criterion maxima must add up to total_score.",
  ],
  ['Owner', S.Owner, 'An account or organization a key belongs to.'],
  ['Credits', S.Credits, "Spec 4.1 leaves the fields open; these are the sandbox's."],
  ['Model', S.Model, 'A marking model (spec 2.1).'],
  ['Assignment', S.Assignment, 'A student assignment (spec 2.2).'],
  ['Task', S.Task, 'An evaluation task as accepted (spec 2.3).'],
  ['StatusSnapshot', S.StatusSnapshot, 'The light status snapshot (spec 2.4).'],
  ['EvaluationEntry', S.EvaluationEntry, 'One criterion of a result, or a failure entry (type "error", message in comment).'],
  ['EvaluationResult', S.EvaluationResult, 'The result record (spec 2.5); unfinished tasks show queue and progress fields.'],
  ['UploadedFile', S.UploadedFile, 'An uploaded file (spec 2.6); url is reusable in assets.'],
  ['RewriteResult', S.RewriteResult, "The rewritten sections (the shape is the sandbox's)."],
  ['ErrorBody', S.ErrorBody, "Every error answer (spec 7 leaves the shape open; this is the sandbox's)."],
  // the product's key routes (spec 5.4 shows no bodies: these are the sandbox's)
  ['SignInRequest', P.SignInRequest, 'An account of the product and its password.'],
  ['Session', P.Session, 'A signed-in session: send its token as Authorization: Bearer <session_token> to the key routes.'],
  [
    'CreateKeyRequest',
    P.CreateKeyRequest,
    'Organization scope only for an organization admin; organization_id only for an admin of several.',
  ],
  ['RevokeKeyRequest', P.RevokeKeyRequest, "The id of one of the account's keys, from the list."],
  ['KeyRecord', P.KeyRecord, 'A key as listings show it: masked, never the key.'],
  ['CreatedKey', P.CreatedKey, 'A new key: the only answer that ever holds the key itself.'],
  ['KeyList', P.KeyList, "The signed-in account's keys, revoked ones included."],
  ['RevokedKey', P.RevokedKey, 'The revoked key; revoking it again answers the same, with already_revoked true.'],
];

export interface FilePart {
  name: string;
  many: boolean;
}

export interface OperationDoc {
  summary: string;
  tag: string;
  status: number;
  /** A component name, `[name]` for a list, or undefined for an open object. */
  response?: string | [string];
  json?: string;
  /** Text fields (a component) plus file parts, as multipart/form-data. */
  multipart?: { fields?: string; files: FilePart[]; required?: string[] };
  idempotent?: boolean;
  errors: number[];
  description?: string;
}

/** Every accepted field name (spec 4.7, 4.8); the plural ones may repeat. */
const parts = (names: readonly string[]): FilePart[] => names.map((name) => ({ name, many: name.endsWith('s') }));
const ANSWER_FILES = parts(ANSWER_FILE_FIELDS);

export const DOCS: Record<OperationName, OperationDoc> = {
  getCredits: { summary: "Credits left on the key owner's account", tag: 'account', status: 200, response: 'Credits', errors: [401] },
  listModels: { summary: 'Marking models the key can use', tag: 'models', status: 200, response: ['Model'], errors: [401, 403] },
  createModel: {
    summary: 'Create (train) a marking model from confirmed previews',
    tag: 'models',
    status: 201,
    response: 'Model',
    json: 'CreateModelRequest',
    errors: [400, 401],
  },
  questionsPreview: {
    summary: 'Parse question material into an editable preview',
    tag: 'models',
    status: 200,
    json: 'QuestionsPreviewFields',
    multipart: { fields: 'QuestionsPreviewFields', files: parts(['file', 'files']) },
    errors: [400, 401, 413],
  },
  rubricsPreview: {
    summary: 'Parse rubric material into an editable preview',
    tag: 'models',
    status: 200,
    json: 'IngestPreviewFields',
    multipart: { fields: 'IngestPreviewFields', files: parts(['file', 'files']) },
    errors: [400, 401, 413],
  },
  createAssignment: {
    summary: 'Create a student assignment from a ready model',
    tag: 'assignments',
    status: 201,
    response: 'Assignment',
    json: 'AssignmentRequest',
    errors: [400, 401, 403, 404, 409],
  },
  createEvaluation: {
    summary: 'Submit one answer to an assignment (legacy path: charged at acceptance, starts PENDING)',
    tag: 'evaluations',
    status: 200,
    response: 'Task',
    json: 'LegacyEvaluationFields',
    multipart: { fields: 'LegacyEvaluationFields', files: ANSWER_FILES },
    errors: [400, 401, 402, 403, 404, 413],
    description: 'As JSON, paper_content is required; the answer may instead be up to 10 files (multipart).',
  },
  onePass: {
    summary: 'Mark one answer without an assignment',
    tag: 'evaluations',
    status: 202,
    response: 'Task',
    json: 'OnePassFields',
    multipart: { fields: 'OnePassFields', files: [...ANSWER_FILES, ...parts(RUBRIC_FILE_FIELDS), ...parts(QUESTION_FILE_FIELDS)] },
    idempotent: true,
    errors: [400, 401, 402, 403, 404, 409, 413],
    description:
      '202 means accepted, not finished: poll the status. As JSON, paper_content is required; the answer may instead be up to 10 files (multipart).',
  },
  batch: {
    summary: 'Mark 1 to 100 text answers in one task',
    tag: 'evaluations',
    status: 202,
    response: 'Task',
    json: 'BatchRequest',
    idempotent: true,
    errors: [400, 401, 402, 403, 404, 409, 413],
  },
  getStatus: {
    summary: 'Status snapshot of a task',
    tag: 'evaluations',
    status: 200,
    response: 'StatusSnapshot',
    errors: [401, 404],
    description: 'Poll every 3 s at first, backing off to at most 15 s, within an overall time limit.',
  },
  getResult: {
    summary: 'Result record of a task (for a batch, its items)',
    tag: 'evaluations',
    status: 200,
    response: 'EvaluationResult',
    errors: [401, 404],
  },
  cancel: { summary: 'Cancel a queued or running task', tag: 'evaluations', status: 200, errors: [401, 404, 409] },
  feedbackRewrite: {
    summary: 'Rewrite feedback in another style',
    tag: 'feedback',
    status: 200,
    response: 'RewriteResult',
    json: 'FeedbackRewriteRequest',
    errors: [400, 401],
  },
  uploadFile: {
    summary: 'Upload one file and get a reusable public URL',
    tag: 'files',
    status: 201,
    response: 'UploadedFile',
    multipart: { files: [{ name: 'file', many: false }], required: ['file'] },
    errors: [400, 401, 413],
  },
};

export const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request: malformed body or assets, unsupported file type, missing field',
  401: 'X-API-Key missing or invalid',
  402: 'Insufficient credits',
  403: 'No access to the model, or organization scope no longer permitted',
  404: 'The model, assignment or task does not exist',
  409: 'Model not ready, task not cancellable, or Idempotency-Key reused with a different request',
  413: `A file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB, or the body is too large`,
  429: 'Too many requests with this key: wait the seconds of Retry-After, then send it again (the kct sandbox with --rate-limit)',
};

/** Errors any /v1 operation may answer, whatever it does: a key past its rate limit. */
export const EVERY_OPERATION_ERRORS = [429] as const;

/** Response headers of an error status. */
export const ERROR_HEADERS: Record<number, Record<string, unknown>> = {
  429: {
    'Retry-After': {
      description: 'Whole seconds to wait; a request sent after them is admitted (if the key sent none meanwhile).',
      schema: { type: 'integer', minimum: 1 },
    },
  },
};

/** The product's key routes: at the product base, not under /v1, behind a signed-in session. */
export const PRODUCT_DOCS: Record<
  P.ProductOperationName,
  { summary: string; status: number; response?: string; json?: string; errors: string[] }
> = {
  signIn: {
    summary: 'Sign in with an account and password for a session',
    status: 200,
    response: 'Session',
    json: 'SignInRequest',
    errors: ['Error400', 'KeysError401'],
  },
  signOut: { summary: 'End the session', status: 200, errors: ['KeysError401'] },
  createKey: {
    summary: 'Create a key; the answer is the only one that holds it',
    status: 201,
    response: 'CreatedKey',
    json: 'CreateKeyRequest',
    errors: ['Error400', 'KeysError401', 'KeysError403', 'KeysError409'],
  },
  listKeys: { summary: "The signed-in account's keys, masked", status: 200, response: 'KeyList', errors: ['KeysError401'] },
  revokeKey: {
    summary: 'Revoke a key (again: the same answer, already_revoked true)',
    status: 200,
    response: 'RevokedKey',
    json: 'RevokeKeyRequest',
    errors: ['Error400', 'KeysError401', 'KeysError404'],
  },
};

export const KEYS_ERROR_TEXT: Record<string, string> = {
  KeysError401: 'Not signed in, the session has ended, or the account or password is wrong',
  KeysError403: 'Only an organization admin may create an organization key',
  KeysError404: 'The account has no key with this id',
  KeysError409: 'The account already holds as many keys that are not revoked as it may',
};
