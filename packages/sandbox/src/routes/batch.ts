// POST /evaluations/batch (spec 4.9): 1 to 100 one-pass items in one JSON request, each its own
// task in the queue, with the idempotency and charge-after-success rules of one-pass per item.
import { MAX_BATCH_ITEMS } from 'kct/api/limits.js';
import { API_PREFIX, OPERATIONS } from 'kct/api/operations.js';
import { BatchRequest } from 'kct/api/schemas.js';
import { usableModel } from '../accounts/model-access.js';
import type { SandboxContext } from '../context.js';
import type { Principal } from '../http/auth.js';
import { HttpError, httpError } from '../http/envelope.js';
import { defineOperation } from '../http/operation.js';
import { assertPublicUrl, BlockedAddressError } from '../net/public-address.js';
import { newTaskId } from '../store/ids.js';
import type { TaskRow } from '../store/store.js';
import type { NewTask } from '../tasks/accept.js';
import { answerTask, submitTask } from '../tasks/submit.js';

const ENDPOINT = `POST ${API_PREFIX}${OPERATIONS.batch.path}`;

function acceptedBatch(count: number) {
  return (parent: TaskRow) => ({
    task_id: parent.task_id,
    status: parent.status,
    stage: 'queued',
    count,
    billing_mode: 'owner_user' as const,
    scope: parent.scope,
    credits_charged: 0,
    credit_cost: parent.credit_cost,
    retryable: true,
  });
}

export const batch = defineOperation(
  'batch',
  {
    idempotent: true,
    body: BatchRequest,
    beforeBody: (raw) => {
      if (Array.isArray(raw.evaluations) && (raw.evaluations.length === 0 || raw.evaluations.length > MAX_BATCH_ITEMS)) {
        throw httpError(
          400,
          `A batch holds 1 to ${MAX_BATCH_ITEMS} items; this one has ${raw.evaluations.length}. Split larger sets into several batches.`,
          'invalid_batch_size',
          [{ path: 'evaluations', message: `must hold 1 to ${MAX_BATCH_ITEMS} items` }],
        );
      }
    },
    check: ({ evaluations }) => {
      const missing = evaluations.findIndex((item) => item.paper_content === undefined);
      if (missing >= 0) {
        throw httpError(
          400,
          `evaluations[${missing}] has no paper_content: every batch item carries its answer as text (files go to POST /evaluations/one-pass).`,
          'answer_missing',
          [{ path: `evaluations[${missing}].paper_content`, message: 'required' }],
        );
      }
    },
    status: 202,
    // Up to 100 answers in one JSON body.
    bodyLimit: (ctx) => ctx.settings.bodyLimit,
  },
  async (ctx, principal, { fields, idempotencyKey, fingerprint }) => {
    const { evaluations, callback_url } = fields;
    const callbackUrl = callback_url === undefined ? null : await acceptableCallback(callback_url, ctx.settings.allowPrivateCallbacks);
    return submitTask(ctx, {
      endpoint: ENDPOINT,
      principal,
      idempotencyKey,
      fingerprint: fingerprint(),
      studentIds: evaluations.map((item) => item.student_id),
      build: (parentId) => {
        const children: NewTask[] = evaluations.map((item, index) => ({
          task_id: newTaskId(),
          kind: 'batch_item',
          parent_task_id: parentId,
          item_index: index,
          ...answerTask(principal, item, []),
          model_id: item.model_id,
          input: item,
          files: [],
        }));
        return {
          task: {
            task_id: parentId,
            kind: 'batch',
            owner_user_id: principal.userId,
            scope: principal.scope,
            model_id: evaluations[0].model_id,
            student_id: null,
            credit_cost: children.reduce((sum, c) => sum + c.credit_cost, 0),
            input: { count: evaluations.length, ...(callbackUrl ? { callback_url: callbackUrl } : {}) },
            files: [],
            callback_url: callbackUrl,
          },
          children,
        };
      },
      check: () =>
        checkItemModels(
          ctx,
          principal,
          evaluations.map((e) => e.model_id),
        ),
      respond: acceptedBatch(evaluations.length),
    });
  },
);

/** Spec 4.9: "a public HTTPS URL"; checked again on the connected address at delivery. */
async function acceptableCallback(raw: string, allowPrivate: boolean): Promise<string> {
  try {
    return (await assertPublicUrl(raw, { allowPrivate })).toString();
  } catch (err) {
    if (!(err instanceof BlockedAddressError)) throw err;
    throw httpError(400, `callback_url is refused: ${err.message}. Callbacks go only to public https addresses.`, 'invalid_callback_url', [
      { path: 'callback_url', message: err.message },
    ]);
  }
}

/** Each distinct model once; the error names the first item that uses a model it cannot. */
function checkItemModels(ctx: SandboxContext, principal: Principal, modelIds: number[]): void {
  const checked = new Set<number>();
  modelIds.forEach((modelId, index) => {
    if (checked.has(modelId)) return;
    checked.add(modelId);
    try {
      usableModel(ctx.store, principal, modelId, ENDPOINT);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      throw new HttpError(err.status, err.code, `evaluations[${index}]: ${err.message}`, [
        { path: `evaluations[${index}].model_id`, message: err.code },
      ]);
    }
  });
}
