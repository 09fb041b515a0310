// GET /evaluations/:taskId/status, GET /evaluations/:taskId, POST /evaluations/:taskId/cancel
// (spec 4.10 to 4.12). A task is visible only to its key owner; anyone else gets 404.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX, OPERATIONS } from '../../api/operations.js';
import { principalOf } from '../http/auth.js';
import type { SandboxContext } from '../context.js';
import { httpError, sendData } from '../http/envelope.js';
import type { TaskRow } from '../store/store.js';
import { ACTIVE_STATUSES } from '../store/store.js';
import { batchRecord, batchSnapshot, cancelBatch } from '../tasks/batch-parents.js';
import { cancel } from '../tasks/transitions.js';
import { resultRecord, snapshot, taskRecord } from '../http/responses.js';

function taskNotFound(taskId: string) {
  return httpError(404, `Task ${taskId} does not exist for this key's owner. Use the task_id returned when the answer was submitted (it begins with tsk_).`, 'task_not_found');
}

function notCancellable(taskId: string, status: string) {
  return httpError(409, `Task ${taskId} cannot be cancelled: it is already ${status}. Only ${ACTIVE_STATUSES.join(', ')} tasks can be cancelled.`, 'task_not_cancellable');
}

function taskIdOf(request: FastifyRequest): string {
  return (request.params as { taskId: string }).taskId;
}

function ownTask(ctx: SandboxContext, request: FastifyRequest): TaskRow {
  const taskId = taskIdOf(request);
  const task = ctx.store.task(taskId);
  if (!task || task.owner_user_id !== principalOf(request).userId) throw taskNotFound(taskId);
  return task;
}

export function taskRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.route({
    ...OPERATIONS.getStatus,
    url: API_PREFIX + OPERATIONS.getStatus.path,
    // Synchronous, and only the status columns: clients poll this route (spec 4.10).
    handler: (request, reply) => {
      const taskId = taskIdOf(request);
      const task = ctx.store.taskStatus(taskId);
      if (!task || task.owner_user_id !== principalOf(request).userId) throw taskNotFound(taskId);
      sendData(reply, task.kind === 'batch' ? batchSnapshot(ctx.store, task) : snapshot(ctx.store, task));
    },
  });

  app.route({
    ...OPERATIONS.getResult,
    url: API_PREFIX + OPERATIONS.getResult.path,
    handler: async (request, reply) => {
      const task = ownTask(ctx, request);
      return sendData(reply, task.kind === 'batch' ? batchRecord(ctx.store, task) : resultRecord(ctx.store, task));
    },
  });

  app.route({
    ...OPERATIONS.cancel,
    url: API_PREFIX + OPERATIONS.cancel.path,
    handler: async (request, reply) => {
      const task = ownTask(ctx, request);
      if (task.kind === 'batch') {
        const outcome = cancelBatch(ctx.store, task);
        // Either way a callback may be due: the batch was cancelled, or settled just now.
        ctx.callbacks.kick();
        if (outcome.kind === 'final') throw notCancellable(task.task_id, outcome.status);
        for (const itemId of outcome.itemIds) ctx.pool.interrupt(itemId);
        return sendData(reply, outcome.record);
      }
      const outcome = cancel(ctx.store, task.task_id, principalOf(request).userId);
      if (outcome.kind === 'not_found') throw taskNotFound(task.task_id);
      if (outcome.kind === 'final') throw notCancellable(task.task_id, outcome.status);
      ctx.pool.interrupt(task.task_id);
      ctx.taskFinished(outcome.task);
      return sendData(reply, taskRecord(outcome.task));
    },
  });
}
