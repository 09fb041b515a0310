// Response shapes: what a stored row looks like to a client (spec 2.1, 2.3, 2.4, 2.5).

import type { KnownTaskStatus } from 'kct/api/status.js';
import { STAGE_OF } from 'kct/api/status.js';
import type { ModelRow, Store, TaskRow, TaskStatusRow } from '../store/store.js';
import { modelRubrics } from '../store/store.js';

export function stageOf(status: string): string {
  return STAGE_OF[status as KnownTaskStatus] ?? status.toLowerCase();
}

export function modelItem(model: ModelRow) {
  return {
    model_id: model.model_id,
    assignment_name: model.assignment_name,
    assignment_desc: model.assignment_desc,
    post_status: model.post_status,
    creation_method: model.creation_method,
    total_score: model.total_score,
    cum_method: model.cum_method,
    criteria_count: modelRubrics(model).length,
    // beyond spec 2.1 (docs/sandbox.md): what each criterion is out of, for `kct models show`
    criteria: modelRubrics(model).map((rubric) => ({ item: rubric.item, max_score: rubric.max_score })),
  };
}

/**
 * The task fields of 2.3; the 202 body of rule 5 is exactly this for a new one-pass task. A
 * legacy task adds its assignment_id; a batch item names its batch and place in it.
 */
export function taskRecord(task: TaskRow) {
  return {
    task_id: task.task_id,
    status: task.status,
    stage: stageOf(task.status),
    ...(task.kind === 'legacy' ? { assignment_id: task.assignment_id } : {}),
    ...(task.kind === 'batch_item' ? { batch_id: task.parent_task_id, index: task.item_index } : {}),
    model_id: task.model_id,
    student_id: task.student_id,
    billing_mode: 'owner_user' as const,
    scope: task.scope,
    credits_charged: task.credits_charged,
    credit_cost: task.credit_cost,
    retryable: task.retryable === 1,
  };
}

/** The snapshot of 2.4, holding only the fields that apply to the task's current status. */
export function snapshot(store: Store, task: TaskStatusRow) {
  const out: Record<string, unknown> = { task_id: task.task_id, status: task.status, stage: stageOf(task.status) };
  Object.assign(out, liveFields(store, task));
  if (task.message) out.message = task.message;
  return out;
}

function liveFields(store: Store, task: TaskStatusRow): Record<string, unknown> {
  if (task.status === 'QUEUED' || task.status === 'PENDING') return store.queuePlace(task.seq);
  if (task.status === 'PROGRESS' && task.total_step !== null) {
    return { cur_step_name: task.cur_step_name, cur_step: task.cur_step, total_step: task.total_step, progress: task.progress ?? 0 };
  }
  return {};
}

/** The result record of 2.5: the task, plus the marks once SUCCESS, or the error entry on FAILURE. */
export function resultRecord(store: Store, task: TaskRow) {
  const out: Record<string, unknown> = { ...taskRecord(task) };
  const result = task.result_json ? (JSON.parse(task.result_json) as Record<string, unknown>) : {};
  if (task.status === 'SUCCESS' || task.status === 'FAILURE') Object.assign(out, result);
  else Object.assign(out, liveFields(store, task));
  if (task.message) out.message = task.message;
  return out;
}
