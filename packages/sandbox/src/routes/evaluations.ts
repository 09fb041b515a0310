// POST /evaluations (spec 4.7): the legacy assignment path. It starts PENDING, is charged at
// acceptance, has no idempotency, and then runs through the same queue as one-pass tasks.
import { ANSWER_MIME_TYPES } from 'kct/api/limits.js';
import { ANSWER_FILE_FIELDS, API_PREFIX, OPERATIONS } from 'kct/api/operations.js';
import { LegacyEvaluationFields } from 'kct/api/schemas.js';
import { canSee, usableModel } from '../accounts/model-access.js';
import type { SandboxContext } from '../context.js';
import type { Principal } from '../http/auth.js';
import { httpError } from '../http/envelope.js';
import { defineOperation } from '../http/operation.js';
import { taskRecord } from '../http/responses.js';
import type { AssignmentRow } from '../store/store.js';
import { answerTask, submitTask } from '../tasks/submit.js';

const ENDPOINT = `POST ${API_PREFIX}${OPERATIONS.createEvaluation.path}`;

export const createEvaluation = defineOperation(
  'createEvaluation',
  {
    body: LegacyEvaluationFields,
    files: {
      policy: { fileFields: Object.fromEntries(ANSWER_FILE_FIELDS.map((f) => [f, 'answer' as const])), acceptedMimes: ANSWER_MIME_TYPES },
    },
    check: (fields, files) => {
      if (fields.paper_content === undefined && files.length === 0) {
        throw httpError(
          400,
          `The answer is missing: send paper_content, or a file in one of ${ANSWER_FILE_FIELDS.join(', ')} (multipart).`,
          'answer_missing',
        );
      }
    },
  },
  (ctx, principal, { fields, files, dir, fingerprint }) =>
    submitTask(ctx, {
      endpoint: ENDPOINT,
      principal,
      // No idempotency on this path (spec 4.7): the fingerprint only names the submission to the fault injector.
      fingerprint: fingerprint(),
      studentIds: [fields.student_id],
      received: { files, dir },
      build: (taskId, stored) => {
        // Assignments are never changed once created, so this check needs no transaction.
        const assignment = usableAssignment(ctx, principal, fields.assignment_id);
        return {
          task: {
            task_id: taskId,
            kind: 'legacy',
            status: 'PENDING',
            chargeAtAcceptance: true,
            ...answerTask(principal, fields, files),
            model_id: assignment.model_id,
            assignment_id: fields.assignment_id,
            input: fields,
            files: stored,
          },
        };
      },
      check: (task) => void usableModel(ctx.store, principal, task.model_id, ENDPOINT),
      respond: taskRecord,
    }),
);

/**
 * The assignment a legacy submission names. Another account's assignment is answered exactly
 * as an unknown one, so ids cannot be probed (the spec names no 403 for assignments). A model
 * id sent by mistake gets a 404 that says so (spec 1, 9: the most common integration mistake),
 * when the key can see that model.
 */
function usableAssignment(ctx: SandboxContext, principal: Principal, assignmentId: number): AssignmentRow {
  const assignment = ctx.store.assignment(assignmentId);
  const model = assignment ? ctx.store.modelAccess(assignment.model_id) : undefined;
  const visible =
    assignment !== undefined &&
    (assignment.owner_user_id === principal.userId ||
      (model !== undefined && principal.scope === 'organization' && canSee(principal, model)));
  if (visible) return assignment;
  const sameIdModel = ctx.store.modelAccess(assignmentId);
  if (sameIdModel && canSee(principal, sameIdModel)) {
    throw httpError(
      404,
      `There is no assignment ${assignmentId}, but there is a model ${assignmentId}: ${assignmentId} is a model_id. POST /evaluations needs an assignment_id from POST /assignments; to mark with a model directly, use POST /evaluations/one-pass.`,
      'assignment_not_found',
    );
  }
  throw httpError(
    404,
    `Assignment ${assignmentId} does not exist. Create one with POST /assignments and use the assignment_id it returns.`,
    'assignment_not_found',
  );
}
