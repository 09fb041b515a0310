// GET /evaluations/:taskId/status, GET /evaluations/:taskId, POST /evaluations/:taskId/cancel
// (spec 4.10 to 4.12). A task is visible only to its key owner; anyone else gets 404.
import type { SandboxContext } from '../context.js';
import type { Principal } from '../http/auth.js';
import { httpError } from '../http/envelope.js';
import { defineOperation } from '../http/operation.js';
import { resultRecord, snapshot, taskRecord } from '../http/responses.js';
import type { TaskRow } from '../store/store.js';
import { ACTIVE_STATUSES } from '../store/store.js';
import { batchRecord, batchSnapshot, cancelBatch } from '../tasks/batch-parents.js';
import { cancel } from '../tasks/transitions.js';

function taskNotFound(taskId: string) {
  return httpError(
    404,
    `Task ${taskId} does not exist for this key's owner. Use the task_id returned when the answer was submitted (it begins with tsk_).`,
    'task_not_found',
  );
}

function notCancellable(taskId: string, status: string) {
  return httpError(
    409,
    `Task ${taskId} cannot be cancelled: it is already ${status}. Only ${ACTIVE_STATUSES.join(', ')} tasks can be cancelled.`,
    'task_not_cancellable',
  );
}

function ownTask(ctx: SandboxContext, principal: Principal, taskId: string): TaskRow {
  const task = ctx.store.task(taskId);
  if (!task || task.owner_user_id !== principal.userId) throw taskNotFound(taskId);
  return task;
}

// Only the status columns: clients poll this route (spec 4.10).
export const getStatus = defineOperation('getStatus', {}, (ctx, principal, { params }) => {
  const task = ctx.store.taskStatus(params.taskId);
  if (!task || task.owner_user_id !== principal.userId) throw taskNotFound(params.taskId);
  return { data: task.kind === 'batch' ? batchSnapshot(ctx.store, task) : snapshot(ctx.store, task) };
});

export const getResult = defineOperation('getResult', {}, (ctx, principal, { params }) => {
  const task = ownTask(ctx, principal, params.taskId);
  return { data: task.kind === 'batch' ? batchRecord(ctx.store, task) : resultRecord(ctx.store, task) };
});

export const cancelTask = defineOperation('cancel', {}, (ctx, principal, { params }) => {
  const task = ownTask(ctx, principal, params.taskId);
  if (task.kind === 'batch') {
    const outcome = cancelBatch(ctx.store, task);
    // Either way a callback may be due: the batch was cancelled, or settled just now.
    ctx.callbacks.kick();
    if (outcome.kind === 'final') throw notCancellable(task.task_id, outcome.status);
    for (const itemId of outcome.itemIds) ctx.pool.interrupt(itemId);
    return { data: outcome.record };
  }
  const outcome = cancel(ctx.store, task.task_id, principal.userId);
  if (outcome.kind === 'not_found') throw taskNotFound(task.task_id);
  if (outcome.kind === 'final') throw notCancellable(task.task_id, outcome.status);
  ctx.pool.interrupt(task.task_id);
  ctx.taskFinished(outcome.task);
  return { data: taskRecord(outcome.task) };
});
