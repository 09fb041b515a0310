// Every change of a task's status: one statement or transaction each, guarded by a
// compare-and-swap on the status the caller last saw. A worker that lost a race (the task was
// cancelled, or another worker got there first) changes nothing and learns so from `false`.
import { nowIso } from '../store/db.js';
import type { Store, TaskRow } from '../store/store.js';
import { ACTIVE_SQL } from '../store/store.js';

export interface TaskPatch {
  cur_step?: number | null;
  total_step?: number | null;
  cur_step_name?: string | null;
  progress?: number | null;
  message?: string | null;
  prepared_json?: string | null;
}

const PATCHABLE = new Set<keyof TaskPatch>(['cur_step', 'total_step', 'cur_step_name', 'progress', 'message', 'prepared_json']);

/** The UPDATE of advance() for each set of patched columns (and status change or not), built once. */
const advanceSql = new Map<string, { sql: string; keys: (keyof TaskPatch)[] }>();

function advanceStatement(patch: TaskPatch, statusChanges: boolean): { sql: string; keys: (keyof TaskPatch)[] } {
  const shape = `${statusChanges ? 'to' : 'same'}:${Object.keys(patch).join(',')}`;
  let entry = advanceSql.get(shape);
  if (entry === undefined) {
    const { sets: patched, keys } = patchSql(patch);
    // A progress step keeps the status: not naming it in SET spares SQLite rewriting the
    // entries of every index that holds the status, for a value that stays the same.
    const sets = `${statusChanges ? 'status = @to, ' : ''}updated_at = @now${patched}`;
    // a status change returns the seq, for the queue's index (queue-places.ts)
    entry = { sql: `UPDATE tasks SET ${sets} WHERE task_id = @taskId AND status = @from${statusChanges ? ' RETURNING seq' : ''}`, keys };
    advanceSql.set(shape, entry);
  }
  return entry;
}

/** Moves `from` → `to` (they may be equal, to update progress) and applies the patch. */
export function advance(store: Store, taskId: string, from: string, to: string, patch: TaskPatch = {}): boolean {
  const statusChanges = from !== to;
  const { sql, keys } = advanceStatement(patch, statusChanges);
  const params: Record<string, unknown> = { from, taskId, now: nowIso() };
  if (statusChanges) params.to = to;
  withPatch(params, keys, patch);
  if (!statusChanges) return store.prepared(sql).run(params).changes === 1;
  const row = store.prepared(sql).get(params) as { seq: number } | undefined;
  if (row) store.queueLeft(row.seq, from);
  return row !== undefined;
}

export interface SuccessResult {
  score: number;
  max_score: number;
  evaluation: { item: string; score: number; max_score: number; feedback: string }[];
  rubrics: { item: string; max_score: number; description?: string }[];
  /** What of the answer was left out of the marking on purpose, each named (extract/marked.ts). */
  not_marked?: { kind: string; text: string; count?: number }[];
  /** Who marked it (docs/sandbox.md): the sandbox's offline grader or its language model. Absent in results stored before it existed. */
  graded_by?: string;
}

export type CompleteOutcome = 'charged' | 'lost_race' | 'insufficient_credits';

/**
 * `from` (PROGRESS, or QUEUED for a task done at once) → SUCCESS and the charge, in one
 * transaction: either both happen or neither. The `credits_charged = 0` guard and the status
 * swap make a second attempt a no-op, and the balance guard (backed by a CHECK constraint) keeps
 * a balance from going negative. `patch` sets the columns the skipped stages would have.
 */
export function completeAndCharge(
  store: Store,
  taskId: string,
  result: SuccessResult,
  from = 'PROGRESS',
  patch: TaskPatch = {},
): CompleteOutcome {
  try {
    return store.transaction('completeAndCharge', completeAndChargeNow).immediate(store, taskId, JSON.stringify(result), from, patch);
  } catch (err) {
    if (err instanceof InsufficientAtCompletion) return 'insufficient_credits';
    throw err;
  }
}

function completeAndChargeNow(store: Store, taskId: string, resultJson: string, from: string, patch: TaskPatch): CompleteOutcome {
  const { sets, keys } = patchSql(patch);
  const params = withPatch({ resultJson, now: nowIso(), taskId, from }, keys, patch);
  const task = store
    .prepared(`UPDATE tasks SET status = 'SUCCESS', credits_charged = credit_cost, result_json = @resultJson,
      retryable = 0, message = NULL, updated_at = @now, finished_at = @now${sets}
    WHERE task_id = @taskId AND status = @from AND credits_charged = 0
    RETURNING seq, owner_user_id, credit_cost`)
    .get(params) as Pick<TaskRow, 'seq' | 'owner_user_id' | 'credit_cost'> | undefined;
  if (!task) return 'lost_race';
  const charged = store
    .prepared('UPDATE users SET credits = credits - ? WHERE id = ? AND credits >= ?')
    .run(task.credit_cost, task.owner_user_id, task.credit_cost);
  if (charged.changes !== 1) throw new InsufficientAtCompletion();
  store.queueLeft(task.seq, from);
  return 'charged';
}

/** `, col = @col` for each patched column, in a fixed order (one prepared statement per shape). */
function patchSql(patch: TaskPatch): { sets: string; keys: (keyof TaskPatch)[] } {
  const keys = (Object.keys(patch) as (keyof TaskPatch)[]).filter((k) => PATCHABLE.has(k)).sort();
  return { sets: keys.map((k) => `, ${k} = @${k}`).join(''), keys };
}

/** The patched columns' values added to a statement's parameters (null for one left undefined). */
function withPatch(params: Record<string, unknown>, keys: (keyof TaskPatch)[], patch: TaskPatch): Record<string, unknown> {
  for (const k of keys) params[k] = patch[k] ?? null;
  return params;
}

class InsufficientAtCompletion extends Error {}

/** PROGRESS → SUCCESS for a task paid when it was accepted (the legacy path): no charge here. */
export function completePrepaid(store: Store, taskId: string, result: SuccessResult): boolean {
  const now = nowIso();
  return (
    store
      .prepared(`UPDATE tasks SET status = 'SUCCESS', result_json = ?, retryable = 0, message = NULL, updated_at = ?,
      finished_at = ? WHERE task_id = ? AND status = 'PROGRESS' AND credits_charged = credit_cost`)
      .run(JSON.stringify(result), now, now, taskId).changes === 1
  );
}

/** Any unfinished status (`from`) → FAILURE, with the spec's error entry in the result (and `patch`, as completeAndCharge). */
export function fail(store: Store, taskId: string, from: string, reason: string, retryable: boolean, patch: TaskPatch = {}): boolean {
  const { sets, keys } = patchSql(patch);
  const params: Record<string, unknown> = {
    reason,
    now: nowIso(),
    taskId,
    from,
    retryable: retryable ? 1 : 0,
    result: JSON.stringify({ evaluation: [{ type: 'error', item: 'error', comment: reason }] }),
  };
  withPatch(params, keys, patch);
  const row = store
    .prepared(`UPDATE tasks SET status = 'FAILURE', message = @reason, result_json = @result, retryable = @retryable,
      updated_at = @now, finished_at = @now${sets} WHERE task_id = @taskId AND status = @from RETURNING seq`)
    .get(params) as { seq: number } | undefined;
  if (row) store.queueLeft(row.seq, from);
  return row !== undefined;
}

export type CancelOutcome = { kind: 'cancelled'; task: TaskRow } | { kind: 'not_found' } | { kind: 'final'; status: string };

/**
 * Cancels the owner's task if it is still unfinished, whatever stage a worker has it in. A
 * legacy task keeps the credits it paid at acceptance (spec 4.7: charged when accepted).
 */
export function cancel(store: Store, taskId: string, ownerUserId: number): CancelOutcome {
  const now = nowIso();
  const task = store
    .prepared(`UPDATE tasks SET status = 'CANCEL', retryable = 0,
      message = CASE WHEN credits_charged > 0
        THEN 'Cancelled at the caller''s request; the legacy path charged at acceptance and does not refund.'
        ELSE 'Cancelled at the caller''s request; no credits were charged.' END,
      updated_at = ?, finished_at = ?
    WHERE task_id = ? AND owner_user_id = ? AND status IN (${ACTIVE_SQL}) RETURNING *`)
    .get(now, now, taskId, ownerUserId) as TaskRow | undefined;
  if (task) {
    store.queueLeft(task.seq);
    return { kind: 'cancelled', task };
  }
  const existing = store.task(taskId);
  if (!existing || existing.owner_user_id !== ownerUserId) return { kind: 'not_found' };
  return { kind: 'final', status: existing.status };
}
