// POST /evaluations/batch (spec 4.9): 1 to 100 one-pass items in one JSON request, each its own
// task in the queue, with the idempotency and charge-after-success rules of one-pass per item.
import type { FastifyInstance } from 'fastify';
import { MAX_BATCH_ITEMS } from '../../api/limits.js';
import { API_PREFIX, OPERATIONS } from '../../api/operations.js';
import { BatchRequest } from '../../api/schemas.js';
import { accept } from '../tasks/accept.js';
import type { NewTask } from '../tasks/accept.js';
import { usableModel } from '../accounts/model-access.js';
import { principalOf } from '../http/auth.js';
import type { SandboxContext } from '../context.js';
import { creditCost } from '../engines/jobs.js';
import { HttpError, httpError, sendData, validationError } from '../http/envelope.js';
import { fingerprint, idempotencyKeyOf } from '../tasks/idempotency-keys.js';
import { assertPublicUrl, BlockedAddressError } from '../net/public-address.js';
import type { TaskRow } from '../store/store.js';
import { jsonObjectBody } from '../http/body.js';
import { newTaskId } from './one-pass.js';

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

export function batchRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.route({
    ...OPERATIONS.batch,
    url: API_PREFIX + OPERATIONS.batch.path,
    // Up to 100 answers in one JSON body.
    bodyLimit: ctx.settings.bodyLimit,
    handler: async (request, reply) => {
      const principal = principalOf(request);
      const idempotencyKey = idempotencyKeyOf(request);
      const body = jsonObjectBody(request);
      if (Array.isArray(body.evaluations) && (body.evaluations.length === 0 || body.evaluations.length > MAX_BATCH_ITEMS)) {
        throw httpError(400, `A batch holds 1 to ${MAX_BATCH_ITEMS} items; this one has ${body.evaluations.length}. Split larger sets into several batches.`, 'invalid_batch_size',
          [{ path: 'evaluations', message: `must hold 1 to ${MAX_BATCH_ITEMS} items` }]);
      }
      const parsed = BatchRequest.safeParse(body);
      if (!parsed.success) throw validationError(parsed.error);
      const { evaluations, callback_url } = parsed.data;
      const missing = evaluations.findIndex((item) => item.paper_content === undefined);
      if (missing >= 0) {
        throw httpError(400, `evaluations[${missing}] has no paper_content: every batch item carries its answer as text (files go to POST /evaluations/one-pass).`, 'answer_missing',
          [{ path: `evaluations[${missing}].paper_content`, message: 'required' }]);
      }
      const callbackUrl = callback_url === undefined ? null : await acceptableCallback(callback_url, ctx.settings.allowPrivateCallbacks);
      const print = fingerprint(parsed.data, []);
      const submissionId = `${principal.userId}\u0000${ENDPOINT}\u0000${idempotencyKey ?? `fp:${print}`}`;
      for (const item of evaluations) ctx.faults.check(item.student_id, submissionId);

      const parentId = newTaskId();
      const children: NewTask[] = evaluations.map((item, index) => ({
        task_id: newTaskId(),
        kind: 'batch_item',
        parent_task_id: parentId,
        item_index: index,
        owner_user_id: principal.userId,
        scope: principal.scope,
        model_id: item.model_id,
        student_id: item.student_id ?? null,
        credit_cost: creditCost({ textLength: item.paper_content!.length }),
        input: item,
        files: [],
      }));
      const outcome = accept(ctx.store, {
        endpoint: ENDPOINT,
        idempotencyKey,
        fingerprint: print,
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
        check: () => checkItemModels(ctx, principal, evaluations.map((e) => e.model_id)),
        respond: acceptedBatch(evaluations.length),
      });
      if (outcome.kind === 'replayed') reply.header('idempotent-replayed', 'true');
      else ctx.pool.kick();
      return sendData(reply, outcome.body, 202);
    },
  });
}

/** Spec 4.9: "a public HTTPS URL"; checked again on the connected address at delivery. */
async function acceptableCallback(raw: string, allowPrivate: boolean): Promise<string> {
  try {
    return (await assertPublicUrl(raw, { allowPrivate })).toString();
  } catch (err) {
    if (!(err instanceof BlockedAddressError)) throw err;
    throw httpError(400, `callback_url is refused: ${err.message}. Callbacks go only to public https addresses.`, 'invalid_callback_url',
      [{ path: 'callback_url', message: err.message }]);
  }
}

/** Each distinct model once; the error names the first item that uses a model it cannot. */
function checkItemModels(ctx: SandboxContext, principal: ReturnType<typeof principalOf>, modelIds: number[]): void {
  const checked = new Set<number>();
  modelIds.forEach((modelId, index) => {
    if (checked.has(modelId)) return;
    checked.add(modelId);
    try {
      usableModel(ctx.store, principal, modelId, ENDPOINT);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      throw new HttpError(err.status, err.code, `evaluations[${index}]: ${err.message}`, [{ path: `evaluations[${index}].model_id`, message: err.code }]);
    }
  });
}
