// Accepting a submission: idempotency lookup, the caller's checks, the credit reservation and
// the insert, in ONE synchronous immediate transaction. Concurrent identical requests therefore
// serialise here and exactly one creates a task; the idempotency table's primary key backs it.

import { type HttpError, httpError } from '../http/envelope.js';
import { nowIso } from '../store/db.js';
import type { KeyScope, Store, TaskFileRow, TaskKind, TaskRow } from '../store/store.js';

/** A file of a task being accepted: its row before it has a task id and a place. */
export type NewTaskFile = Omit<TaskFileRow, 'task_id' | 'ord'>;

export interface NewTask {
  task_id: string;
  kind: TaskKind;
  parent_task_id?: string | null;
  owner_user_id: number;
  scope: KeyScope;
  model_id: number;
  assignment_id?: number | null;
  student_id: string | null;
  credit_cost: number;
  input: unknown;
  /** The row's input_json when it is not `input` as JSON: a long input's file (store/spilled.ts, submit.ts). */
  inputJson?: string;
  files: NewTaskFile[];
  /** QUEUED (one-pass, batch) or PENDING (legacy path). */
  status?: 'QUEUED' | 'PENDING';
  /** The legacy path charges when it accepts (spec 4.7); the others after success. */
  chargeAtAcceptance?: boolean;
  item_index?: number | null;
  callback_url?: string | null;
}

export interface Submission {
  endpoint: string;
  idempotencyKey?: string;
  fingerprint: string;
  task: NewTask;
  /** Batch items, inserted with the parent; their costs are what is reserved. */
  children?: NewTask[];
  /** Checks that read the database (model visibility, readiness); throw an HttpError to refuse. */
  check?: () => void;
  /** The body of the acceptance response, stored for replays. */
  respond: (task: TaskRow) => unknown;
}

export type AcceptOutcome = { kind: 'created'; task: TaskRow; body: unknown } | { kind: 'replayed'; taskId: string; body: unknown };

export function accept(store: Store, submission: Submission): AcceptOutcome {
  const inserted: TaskRow[] = [];
  const outcome = store.transaction('accept', acceptNow).immediate(store, submission, inserted);
  // committed now: the new tasks take their places in the queue (a rollback leaves none)
  for (const row of inserted) store.queueJoined(row.seq, row.status, row.kind);
  return outcome;
}

function acceptNow(store: Store, submission: Submission, inserted: TaskRow[]): AcceptOutcome {
  const { task } = submission;
  if (submission.idempotencyKey !== undefined) {
    const previous = acceptedBefore(store, task.owner_user_id, submission.endpoint, submission.idempotencyKey);
    if (previous) {
      if (previous.fingerprint !== submission.fingerprint) throw keyReused(previous.task_id);
      return { kind: 'replayed', taskId: previous.task_id, body: JSON.parse(previous.response_json) };
    }
  }
  submission.check?.();
  const children = submission.children ?? [];
  const cost = children.length > 0 ? children.reduce((sum, c) => sum + c.credit_cost, 0) : task.credit_cost;
  reserveCredits(store, task.owner_user_id, cost);
  if (task.chargeAtAcceptance) chargeNow(store, task.owner_user_id, task.credit_cost);
  const row = insertTask(store, task);
  inserted.push(row);
  for (const child of children) inserted.push(insertTask(store, child));
  const body = submission.respond(row);
  if (submission.idempotencyKey !== undefined) {
    store
      .prepared(`INSERT INTO idempotency (owner_user_id, endpoint, key, fingerprint, task_id, response_json, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(
        task.owner_user_id,
        submission.endpoint,
        submission.idempotencyKey,
        submission.fingerprint,
        task.task_id,
        JSON.stringify(body),
        nowIso(),
      );
  }
  return { kind: 'created', task: row, body };
}

/** The submission accepted earlier under this Idempotency-Key, if any (kept for ever). */
export function acceptedBefore(store: Store, ownerUserId: number, endpoint: string, idempotencyKey: string) {
  return store
    .prepared(`SELECT fingerprint, task_id, response_json FROM idempotency
      WHERE owner_user_id = ? AND endpoint = ? AND key = ?`)
    .get(ownerUserId, endpoint, idempotencyKey) as { fingerprint: string; task_id: string; response_json: string } | undefined;
}

function keyReused(taskId: string): HttpError {
  return httpError(
    409,
    `This Idempotency-Key was already used for task ${taskId} with a different request: the text or files changed. Send a changed request with a new Idempotency-Key, or resend the original request unchanged.`,
    'idempotency_key_reused',
  );
}

/** Refuses (402) unless the cost fits in the balance minus what unfinished tasks have reserved. */
function reserveCredits(store: Store, userId: number, cost: number): void {
  const { credits, reserved } = store.balance(userId);
  const available = credits - reserved;
  if (cost > available) {
    const held = reserved > 0 ? ` (balance ${credits}, of which ${reserved} reserved by unfinished tasks)` : '';
    throw httpError(
      402,
      `Insufficient credits: this submission costs ${cost} credit${cost === 1 ? '' : 's'} and ${Math.max(0, available)} ${available === 1 ? 'is' : 'are'} available${held}. Add credits to the key owner's account, or wait for running tasks to finish.`,
      'insufficient_credits',
    );
  }
}

function chargeNow(store: Store, userId: number, cost: number): void {
  const charged = store.prepared('UPDATE users SET credits = credits - ? WHERE id = ? AND credits >= ?').run(cost, userId, cost);
  if (charged.changes !== 1) throw httpError(402, 'Insufficient credits for this submission.', 'insufficient_credits');
}

function insertTask(store: Store, task: NewTask): TaskRow {
  const now = nowIso();
  const prepaid = task.chargeAtAcceptance === true;
  const row = store
    .prepared(`INSERT INTO tasks (task_id, kind, parent_task_id, owner_user_id, scope, model_id, assignment_id,
      student_id, status, credit_cost, credits_charged, retryable, input_json, created_at, updated_at, item_index, callback_url)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`)
    .get(
      task.task_id,
      task.kind,
      task.parent_task_id ?? null,
      task.owner_user_id,
      task.scope,
      task.model_id,
      task.assignment_id ?? null,
      task.student_id,
      task.status ?? 'QUEUED',
      task.credit_cost,
      prepaid ? task.credit_cost : 0,
      prepaid ? 0 : 1,
      task.inputJson ?? JSON.stringify(task.input),
      now,
      now,
      task.item_index ?? null,
      task.callback_url ?? null,
    ) as TaskRow;
  const insertFile = store.prepared(`INSERT INTO task_files (task_id, ord, role, field, name, mime, size, sha256, path)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const [ord, f] of task.files.entries()) insertFile.run(task.task_id, ord, f.role, f.field, f.name, f.mime, f.size, f.sha256, f.path);
  return row;
}
