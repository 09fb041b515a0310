// Batches (spec 4.9): a parent task whose items are ordinary queued tasks. The parent's status
// follows its items while they run and is settled, once, when the last item is final.
import { isFinalStatus } from 'kct/api/status.js';
import { stageOf, taskRecord } from '../http/responses.js';
import { nowIso } from '../store/db.js';
import { newWebhookId } from '../store/ids.js';
import type { ItemStateRow, Store, TaskRow } from '../store/store.js';
import { ACTIVE_SQL, WAITING_STATUSES } from '../store/store.js';

const WAITING = new Set<string>(WAITING_STATUSES);

export interface BatchCounts {
  succeeded: number;
  failed: number;
  cancelled: number;
  unfinished: number;
}

function countItems(items: readonly Pick<TaskRow, 'status'>[]): BatchCounts {
  const counts: BatchCounts = { succeeded: 0, failed: 0, cancelled: 0, unfinished: 0 };
  for (const item of items) {
    if (item.status === 'SUCCESS') counts.succeeded++;
    else if (item.status === 'FAILURE') counts.failed++;
    else if (item.status === 'CANCEL') counts.cancelled++;
    else counts.unfinished++;
  }
  return counts;
}

/**
 * While items run: QUEUED until one starts, then PROGRESS. Once all are final: SUCCESS when at
 * least one item succeeded (each item carries its own status), FAILURE when none did, CANCEL
 * when the batch was cancelled or every item was.
 */
function batchStatus(parent: Pick<TaskRow, 'status'>, items: readonly Pick<TaskRow, 'status'>[]): string {
  if (isFinalStatus(parent.status)) return parent.status;
  const counts = countItems(items);
  if (counts.unfinished > 0) return items.every((i) => WAITING.has(i.status)) ? 'QUEUED' : 'PROGRESS';
  return finalStatusOf(counts);
}

function finalStatusOf(counts: BatchCounts): 'SUCCESS' | 'FAILURE' | 'CANCEL' {
  if (counts.succeeded > 0) return 'SUCCESS';
  return counts.failed > 0 ? 'FAILURE' : 'CANCEL';
}

function countsMessage(counts: BatchCounts, total: number): string {
  const parts = [`${counts.succeeded} of ${total} item${total === 1 ? '' : 's'} succeeded`];
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.cancelled) parts.push(`${counts.cancelled} cancelled`);
  if (counts.unfinished) parts.push(`${counts.unfinished} still running`);
  return `${parts.join('; ')}.`;
}

function batchHeader(parent: TaskRow, items: TaskRow[]) {
  const status = batchStatus(parent, items);
  return {
    task_id: parent.task_id,
    status,
    stage: stageOf(status),
    count: items.length,
    billing_mode: 'owner_user' as const,
    scope: parent.scope,
    credits_charged: items.reduce((sum, i) => sum + i.credits_charged, 0),
    credit_cost: parent.credit_cost,
    retryable: !isFinalStatus(status),
  };
}

function progressFields(store: Store, status: string, items: readonly Pick<TaskRow, 'seq' | 'status'>[]): Record<string, unknown> {
  if (status === 'QUEUED') {
    const first = items.find((i) => WAITING.has(i.status));
    return first ? store.queuePlace(first.seq) : {};
  }
  if (status !== 'PROGRESS') return {};
  const done = items.filter((i) => isFinalStatus(i.status)).length;
  return { cur_step_name: 'Marking items', cur_step: done, total_step: items.length, progress: Math.round((done / items.length) * 100) };
}

/** What an item looks like inside its batch's record: enough to act on without reading it alone. */
function itemView(item: TaskRow) {
  const out: Record<string, unknown> = { index: item.item_index, ...taskRecord(item) };
  if (item.status === 'SUCCESS' || item.status === 'FAILURE') {
    const result = JSON.parse(item.result_json ?? '{}') as Record<string, unknown>;
    for (const key of ['score', 'max_score', 'evaluation', 'graded_by']) if (key in result) out[key] = result[key];
  }
  if (item.message) out.message = item.message;
  return out;
}

/** The status snapshot of a batch; reads only the items' status columns. */
export function batchSnapshot(store: Store, parent: Pick<TaskRow, 'task_id' | 'status'>) {
  const items: ItemStateRow[] = store.batchItemStates(parent.task_id);
  const status = batchStatus(parent, items);
  const out: Record<string, unknown> = { task_id: parent.task_id, status, stage: stageOf(status) };
  Object.assign(out, progressFields(store, status, items));
  out.message = countsMessage(countItems(items), items.length);
  return out;
}

export function batchRecord(store: Store, parent: TaskRow) {
  const items = store.batchItems(parent.task_id);
  const header = batchHeader(parent, items);
  const counts = countItems(items);
  const out: Record<string, unknown> = { ...header, ...progressFields(store, header.status, items), ...counts };
  out.message = countsMessage(counts, items.length);
  if (parent.callback_url) out.callback = callbackView(store, parent);
  out.items = items.map(itemView);
  return out;
}

function callbackView(store: Store, parent: TaskRow) {
  const row = store
    .prepared('SELECT webhook_id, status, attempts, last_error, delivered_at FROM callbacks WHERE task_id = ?')
    .get(parent.task_id) as
    | { webhook_id: string; status: string; attempts: number; last_error: string | null; delivered_at: string | null }
    | undefined;
  if (!row) return { url: parent.callback_url, status: 'waiting_for_batch' };
  return {
    url: parent.callback_url,
    webhook_id: row.webhook_id,
    status: row.status,
    attempts: row.attempts,
    ...(row.last_error ? { last_error: row.last_error } : {}),
    ...(row.delivered_at ? { delivered_at: row.delivered_at } : {}),
  };
}

/**
 * Settles a batch whose items are all final: its final status, and the callback to send, in one
 * transaction. Returns true when it settled it now (false: already settled, or items still run).
 */
export function settleBatch(store: Store, parentTaskId: string): boolean {
  return store.transaction('settleBatch', settleBatchNow).immediate(store, parentTaskId);
}

function settleBatchNow(store: Store, parentTaskId: string): boolean {
  const parent = store.task(parentTaskId);
  if (!parent || isFinalStatus(parent.status)) return false;
  // Each item's end calls this: the status column only, not every item's whole row.
  const items = store.batchItemStates(parentTaskId);
  const counts = countItems(items);
  if (counts.unfinished > 0) return false;
  finalize(store, parent, finalStatusOf(counts), countsMessage(counts, items.length));
  return true;
}

export type BatchCancelOutcome =
  | { kind: 'cancelled'; record: Record<string, unknown>; itemIds: string[] }
  | { kind: 'final'; status: string };

/**
 * Cancels every unfinished item and the batch itself; finished items keep their results. A batch
 * whose items are all final is final too (its record already says so), even if it has not been
 * settled yet: it is settled now, with its own final status, and the cancel is refused like any
 * final task's.
 */
export function cancelBatch(store: Store, parent: TaskRow): BatchCancelOutcome {
  return store.db
    .transaction((): BatchCancelOutcome => {
      const current = store.task(parent.task_id)!;
      if (isFinalStatus(current.status)) return { kind: 'final', status: current.status };
      const before = store.batchItemStates(parent.task_id);
      const settled = countItems(before);
      if (settled.unfinished === 0) {
        const status = finalStatusOf(settled);
        finalize(store, current, status, countsMessage(settled, before.length));
        return { kind: 'final', status };
      }
      const now = nowIso();
      const cancelled = store
        .prepared(`UPDATE tasks SET status = 'CANCEL', retryable = 0,
        message = 'Cancelled with its batch; no credits were charged.', updated_at = ?, finished_at = ?
      WHERE parent_task_id = ? AND status IN (${ACTIVE_SQL}) RETURNING task_id, seq`)
        .all(now, now, parent.task_id) as { task_id: string; seq: number }[];
      for (const item of cancelled) store.queueLeft(item.seq);
      const counts = countItems(store.batchItemStates(parent.task_id));
      finalize(
        store,
        current,
        'CANCEL',
        `Cancelled at the caller's request. ${countsMessage(counts, counts.succeeded + counts.failed + counts.cancelled)}`,
      );
      return { kind: 'cancelled', record: batchRecord(store, store.task(parent.task_id)!), itemIds: cancelled.map((r) => r.task_id) };
    })
    .immediate();
}

function finalize(store: Store, parent: TaskRow, status: string, message: string): void {
  const now = nowIso();
  store
    .prepared(`UPDATE tasks SET status = ?, message = ?, retryable = 0, updated_at = ?, finished_at = ?
    WHERE task_id = ? AND status IN (${ACTIVE_SQL})`)
    .run(status, message, now, now, parent.task_id);
  if (!parent.callback_url) return;
  const data = batchRecord(store, store.task(parent.task_id)!);
  const payload = JSON.stringify({ type: 'batch.finished', timestamp: now, data });
  store
    .prepared(`INSERT OR IGNORE INTO callbacks (webhook_id, task_id, url, payload, next_attempt_at, created_at)
    VALUES (?, ?, ?, ?, ?, ?)`)
    .run(newWebhookId(), parent.task_id, parent.callback_url, payload, Date.now(), now);
}
