// POST /evaluations/one-pass (spec 4.8): JSON or multipart, idempotent, 202 with rule 5's fields.
import { ANSWER_MIME_TYPES } from 'kct/api/limits.js';
import { ANSWER_FILE_FIELDS, API_PREFIX, OPERATIONS, QUESTION_FILE_FIELDS, RUBRIC_FILE_FIELDS } from 'kct/api/operations.js';
import { OnePassFields, OnePassJsonRequest } from 'kct/api/schemas.js';
import { usableModel } from '../accounts/model-access.js';
import { httpError } from '../http/envelope.js';
import { defineOperation } from '../http/operation.js';
import { taskRecord } from '../http/responses.js';
import type { FileRole } from '../store/store.js';
import { answerTask, submitTask } from '../tasks/submit.js';

const ENDPOINT = `POST ${API_PREFIX}${OPERATIONS.onePass.path}`;

const EVALUATION_FILE_FIELDS: Readonly<Record<string, FileRole>> = Object.fromEntries([
  ...ANSWER_FILE_FIELDS.map((f) => [f, 'answer'] as const),
  ...RUBRIC_FILE_FIELDS.map((f) => [f, 'rubric'] as const),
  ...QUESTION_FILE_FIELDS.map((f) => [f, 'question'] as const),
]);

export const onePass = defineOperation(
  'onePass',
  {
    idempotent: true,
    body: OnePassJsonRequest,
    files: { policy: { fileFields: EVALUATION_FILE_FIELDS, acceptedMimes: ANSWER_MIME_TYPES }, fields: OnePassFields },
    check: (fields, files) => {
      if (fields.paper_content === undefined && !files.some((f) => f.role === 'answer')) {
        throw httpError(
          400,
          `The answer is missing: send paper_content, or a file in one of ${ANSWER_FILE_FIELDS.join(', ')}.`,
          'answer_missing',
        );
      }
    },
    status: 202,
  },
  (ctx, principal, { fields, files, dir, idempotencyKey, fingerprint }) =>
    submitTask(ctx, {
      endpoint: ENDPOINT,
      principal,
      idempotencyKey,
      fingerprint: fingerprint(),
      studentIds: [fields.student_id],
      received: { files, dir },
      build: (taskId, stored) => ({
        task: {
          task_id: taskId,
          kind: 'one_pass',
          ...answerTask(
            principal,
            fields,
            files.filter((f) => f.role === 'answer'),
          ),
          model_id: fields.model_id,
          input: fields,
          files: stored,
        },
      }),
      check: () => void usableModel(ctx.store, principal, fields.model_id, ENDPOINT),
      respond: taskRecord,
    }),
);
