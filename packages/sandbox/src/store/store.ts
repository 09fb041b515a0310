// Reads of the sandbox database, typed. State changes live in transitions.ts and acceptance
// (idempotency + reservation + insert) in accept.ts, so each can be tested on its own.

import type { GradeRubric } from '../engines/jobs.js';
import type { Db } from './db.js';
import { QueuePlaces } from './queue-places.js';
import type { Statement, Transaction } from './sqlite/driver.js';

export type KeyScope = 'user' | 'organization';

export interface KeyRow {
  id: number;
  user_id: number;
  user_name: string;
  scope: KeyScope;
  org_id: number | null;
  /** When the key was revoked (ISO), or null. */
  revoked_at: string | null;
}

export interface ModelRow {
  model_id: number;
  owner_user_id: number | null;
  org_id: number | null;
  assignment_name: string;
  assignment_desc: string;
  question_text: string | null;
  post_status: string;
  creation_method: string;
  total_score: number;
  cum_method: 'sum' | 'average';
  rubrics_json: string;
  /** Models created with POST /models (issue 5); null for seeded ones. */
  questions_json?: string | null;
  project_subject?: string | null;
  created_by_user_id?: number | null;
  /** When a `training` model becomes ready, in ms since the epoch. */
  ready_at?: number | null;
}

/** What decides whether a key may mark with a model (accounts/model-access.ts). */
export type ModelAccessRow = Pick<ModelRow, 'model_id' | 'owner_user_id' | 'org_id' | 'post_status'>;

export interface TaskRow {
  seq: number;
  task_id: string;
  kind: TaskKind;
  parent_task_id: string | null;
  owner_user_id: number;
  scope: KeyScope;
  model_id: number;
  assignment_id: number | null;
  student_id: string | null;
  status: string;
  credit_cost: number;
  credits_charged: number;
  retryable: number;
  input_json: string;
  prepared_json: string | null;
  result_json: string | null;
  cur_step: number | null;
  total_step: number | null;
  cur_step_name: string | null;
  progress: number | null;
  message: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  item_index: number | null;
  callback_url: string | null;
}

/** What a status snapshot (spec 2.4) reads of a task: no input, prepared text or result. */
export type TaskStatusRow = Pick<
  TaskRow,
  'seq' | 'task_id' | 'kind' | 'owner_user_id' | 'status' | 'message' | 'cur_step' | 'total_step' | 'cur_step_name' | 'progress'
>;

/** What a batch's status snapshot reads of each item. */
export type ItemStateRow = Pick<TaskRow, 'seq' | 'status' | 'credits_charged'>;

export interface AssignmentRow {
  assignment_id: number;
  model_id: number;
  owner_user_id: number;
  assignment_name: string;
  assignment_desc: string;
  status: string;
  details_json: string;
  created_at: string;
}

export interface UploadRow {
  token: string;
  owner_user_id: number;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  /** Relative to the data dir. */
  path: string;
  created_at: string;
}

export interface TaskFileRow {
  task_id: string;
  ord: number;
  role: FileRole;
  field: string;
  name: string;
  mime: string;
  size: number;
  sha256: string;
  /** Relative to the data dir, so a data dir can be moved. */
  path: string;
}

export type FileRole = 'answer' | 'rubric' | 'question';

/**
 * one_pass: POST /evaluations/one-pass. batch: the parent of a POST /evaluations/batch, whose
 * items are batch_item tasks. legacy: POST /evaluations (assignment path, charged at acceptance).
 */
export type TaskKind = 'one_pass' | 'batch' | 'batch_item' | 'legacy';

/** PENDING is where the legacy path starts (spec 3); it waits in the same queue as QUEUED. */
export const WAITING_STATUSES = ['PENDING', 'QUEUED'] as const;
/**
 * The partial index `tasks_active` (db.ts, 4th migration) holds the tasks in exactly these
 * statuses, listed in this order: changing the list needs a migration that rebuilds it (the
 * queries that name the index with INDEXED BY would otherwise fail to prepare), and the
 * triggers that keep users.reserved.
 */
export const ACTIVE_STATUSES = ['PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS'] as const;
// Kinds whose unfinished tasks hold a credit reservation (one_pass, batch_item; spec 4.8) are listed in the triggers of users.reserved (db.ts).
/** Kinds the worker loop runs (a batch parent only follows its items). */
const RUNNABLE_KINDS: readonly TaskKind[] = ['one_pass', 'batch_item', 'legacy'];

const inList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');
export const ACTIVE_SQL = inList(ACTIVE_STATUSES);
const WAITING_SQL = inList(WAITING_STATUSES);
const WAITING = new Set<string>(WAITING_STATUSES);
const RUNNABLE = new Set<string>(RUNNABLE_KINDS);
const RUNNABLE_SQL = inList(RUNNABLE_KINDS);

export class Store {
  private readonly statements = new Map<string, Statement>();
  private readonly transactions = new Map<string, Transaction<(...args: never[]) => unknown>>();
  /** The waiting tasks' places, built from the database on first use (queue-places.ts). */
  private places: QueuePlaces | undefined;

  constructor(readonly db: Db) {}

  /** A prepared statement, compiled once: status polling runs these many times a second. */
  prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** A transaction function built once per name (docs/benchmarks.md, "Measured choices that still stand"); `fn` takes what varies as arguments, never from a closure. */
  transaction<F extends (...args: never[]) => unknown>(name: string, fn: F): Transaction<F> {
    let transaction = this.transactions.get(name);
    if (!transaction) {
      transaction = this.db.transaction(fn);
      this.transactions.set(name, transaction);
    }
    return transaction as unknown as Transaction<F>;
  }

  /** The key whose hash this is (keys.ts: keys are stored only as hashes). */
  findKey(keyHash: string): KeyRow | undefined {
    return this.prepared(`SELECT k.id, k.user_id, u.name AS user_name, k.scope, k.org_id, k.revoked_at
      FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ?`).get(keyHash) as KeyRow | undefined;
  }

  membershipRole(userId: number, orgId: number): string | undefined {
    const row = this.prepared('SELECT role FROM memberships WHERE user_id = ? AND org_id = ?').get(userId, orgId) as
      | { role: string }
      | undefined;
    return row?.role;
  }

  organizationName(orgId: number): string {
    const row = this.prepared('SELECT name FROM organizations WHERE id = ?').get(orgId) as { name: string } | undefined;
    return row?.name ?? `organization ${orgId}`;
  }

  /** The balance and what unfinished tasks hold of it: one row, kept by triggers (db.ts, 7th migration). */
  balance(userId: number): { credits: number; reserved: number } {
    return this.prepared('SELECT credits, reserved FROM users WHERE id = ?').get(userId) as { credits: number; reserved: number };
  }

  visibleModels(key: Pick<KeyRow, 'user_id' | 'scope' | 'org_id'>): ModelRow[] {
    return key.scope === 'organization'
      ? (this.prepared('SELECT * FROM models WHERE org_id = ? ORDER BY model_id').all(key.org_id) as ModelRow[])
      : (this.prepared('SELECT * FROM models WHERE owner_user_id = ? ORDER BY model_id').all(key.user_id) as ModelRow[]);
  }

  model(modelId: number): ModelRow | undefined {
    return this.prepared('SELECT * FROM models WHERE model_id = ?').get(modelId) as ModelRow | undefined;
  }

  modelAccess(modelId: number): ModelAccessRow | undefined {
    return this.prepared('SELECT model_id, owner_user_id, org_id, post_status FROM models WHERE model_id = ?').get(modelId) as
      | ModelAccessRow
      | undefined;
  }

  /** The user who created an assignment, or undefined when there is none with this id. */
  assignmentOwner(assignmentId: number): number | undefined {
    const row = this.prepared('SELECT owner_user_id FROM assignments WHERE assignment_id = ?').get(assignmentId) as
      | { owner_user_id: number }
      | undefined;
    return row?.owner_user_id;
  }

  assignment(assignmentId: number): AssignmentRow | undefined {
    return this.prepared('SELECT * FROM assignments WHERE assignment_id = ?').get(assignmentId) as AssignmentRow | undefined;
  }

  /** A new id for a model or an assignment, from the one counter both share. */
  nextObjectId(kind: 'model' | 'assignment'): number {
    return Number(this.prepared('INSERT INTO object_ids (kind) VALUES (?)').run(kind).lastInsertRowid);
  }

  batchItems(parentTaskId: string): TaskRow[] {
    return this.prepared('SELECT * FROM tasks WHERE parent_task_id = ? ORDER BY item_index').all(parentTaskId) as TaskRow[];
  }

  /** Batches not yet settled: after a crash, their items may all be final already. */
  unsettledBatchIds(): string[] {
    return (
      this.prepared(`SELECT task_id FROM tasks INDEXED BY tasks_active WHERE status IN (${ACTIVE_SQL}) AND kind = 'batch'`).all() as {
        task_id: string;
      }[]
    ).map((r) => r.task_id);
  }

  upload(token: string): UploadRow | undefined {
    return this.prepared('SELECT * FROM uploads WHERE token = ?').get(token) as UploadRow | undefined;
  }

  task(taskId: string): TaskRow | undefined {
    return this.prepared('SELECT * FROM tasks WHERE task_id = ?').get(taskId) as TaskRow | undefined;
  }

  /** Only the columns a status snapshot needs, read as an array (docs/benchmarks.md, "Measured choices that still stand"). */
  taskStatus(taskId: string): TaskStatusRow | undefined {
    const row = this.prepared(`SELECT seq, kind, owner_user_id, status, message, cur_step, total_step, cur_step_name, progress
      FROM tasks WHERE task_id = ?`)
      .raw(true)
      .get(taskId) as
      | [number, TaskKind, number, string, string | null, number | null, number | null, string | null, number | null]
      | undefined;
    if (row === undefined) return undefined;
    return {
      seq: row[0],
      task_id: taskId,
      kind: row[1],
      owner_user_id: row[2],
      status: row[3],
      message: row[4],
      cur_step: row[5],
      total_step: row[6],
      cur_step_name: row[7],
      progress: row[8],
    };
  }

  /** The items of a batch as its status snapshot needs them, in order. */
  batchItemStates(parentTaskId: string): ItemStateRow[] {
    return this.prepared('SELECT seq, status, credits_charged FROM tasks WHERE parent_task_id = ? ORDER BY item_index').all(
      parentTaskId,
    ) as ItemStateRow[];
  }

  taskFiles(taskId: string): TaskFileRow[] {
    return this.prepared('SELECT * FROM task_files WHERE task_id = ? ORDER BY ord').all(taskId) as TaskFileRow[];
  }

  taskExists(taskId: string): boolean {
    return this.prepared('SELECT 1 FROM tasks WHERE task_id = ?').get(taskId) !== undefined;
  }

  /**
   * 1-based place of a waiting task in the one global queue, and the queue's length, in
   * O(log n) from memory. A waiting task the index misses (a join it was not told of) joins it now.
   */
  queuePlace(seq: number): { position: number; length: number } {
    const places = this.queuePlaces();
    places.add(seq);
    return places.place(seq);
  }

  /** A task was stored in `status`: it joins the queue if it waits there. Call once it is committed. */
  queueJoined(seq: number, status: string, kind: string): void {
    if (WAITING.has(status) && RUNNABLE.has(kind)) this.queuePlaces().add(seq);
  }

  /** A task left `from` (committed): it leaves the queue if it waited there. */
  queueLeft(seq: number, from?: string): void {
    if (from === undefined || WAITING.has(from)) this.places?.remove(seq);
  }

  /** Whether a status is one of the queue's (PENDING, QUEUED). */
  static waits(status: string): boolean {
    return WAITING.has(status);
  }

  private queuePlaces(): QueuePlaces {
    if (this.places === undefined) {
      const rows = this.prepared(`SELECT seq FROM tasks INDEXED BY tasks_active
        WHERE status IN (${ACTIVE_SQL}) AND status IN (${WAITING_SQL}) AND kind IN (${RUNNABLE_SQL}) ORDER BY seq`)
        .raw(true)
        .all() as [number][];
      this.places = new QueuePlaces(rows.map((r) => r[0]));
    }
    return this.places;
  }

  /** Unfinished runnable tasks, oldest first: queued ones and those a stopped process left mid-way. */
  runnableTaskIds(limit: number): string[] {
    return this.runnableTasks(0, limit).map((r) => r[1]);
  }

  /** The same past `afterSeq`, as [seq, task id] (the pool reads ahead a few dozen at a time). */
  runnableTasks(afterSeq: number, limit: number): [number, string][] {
    return this.prepared(`SELECT seq, task_id FROM tasks INDEXED BY tasks_active WHERE status IN (${ACTIVE_SQL}) AND kind IN (${RUNNABLE_SQL})
      AND seq > ? ORDER BY seq LIMIT ?`)
      .raw(true)
      .all(afterSeq, limit) as [number, string][];
  }
}

export function modelRubrics(model: ModelRow): GradeRubric[] {
  return JSON.parse(model.rubrics_json) as GradeRubric[];
}
