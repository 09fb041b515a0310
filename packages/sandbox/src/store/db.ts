// The sandbox's SQLite database: opening it durably and bringing its schema up to date.
// Every statement goes through the driver adapter (sqlite/driver.ts): node:sqlite or better-sqlite3.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Database as Db, type DriverName, openSqlite } from './sqlite/driver.js';

export type { Db };

/**
 * Each entry is applied once, in order, inside a transaction; `user_version` records how many
 * ran. Append new entries (issue 3 adds batches, uploads, callbacks); never edit old ones, since
 * users' data dirs already hold them.
 */
const MIGRATIONS: string[] = [
  `
  CREATE TABLE organizations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
  );
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    credits INTEGER NOT NULL CHECK (credits >= 0)
  );
  CREATE TABLE memberships (
    user_id INTEGER NOT NULL REFERENCES users(id),
    org_id INTEGER NOT NULL REFERENCES organizations(id),
    role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    PRIMARY KEY (user_id, org_id)
  );
  -- Keys are stored in clear: this is a local sandbox whose keys are printed at start-up anyway.
  CREATE TABLE api_keys (
    key TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    scope TEXT NOT NULL CHECK (scope IN ('user', 'organization')),
    org_id INTEGER REFERENCES organizations(id),
    label TEXT UNIQUE,
    created_at TEXT NOT NULL,
    CHECK ((scope = 'organization') = (org_id IS NOT NULL))
  );
  -- One counter for every object id created at run time (models, assignments), so a model id can
  -- never equal an assignment id: mixing the two up is the most common integration mistake.
  CREATE TABLE object_ids (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL
  );
  CREATE TABLE models (
    model_id INTEGER PRIMARY KEY,
    owner_user_id INTEGER REFERENCES users(id),
    org_id INTEGER REFERENCES organizations(id),
    assignment_name TEXT NOT NULL,
    assignment_desc TEXT NOT NULL,
    question_text TEXT,
    post_status TEXT NOT NULL,
    creation_method TEXT NOT NULL,
    total_score REAL NOT NULL,
    cum_method TEXT NOT NULL CHECK (cum_method IN ('sum', 'average')),
    rubrics_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    CHECK ((owner_user_id IS NULL) <> (org_id IS NULL))
  );
  CREATE TABLE assignments (
    assignment_id INTEGER PRIMARY KEY,
    model_id INTEGER NOT NULL REFERENCES models(model_id),
    owner_user_id INTEGER NOT NULL REFERENCES users(id),
    assignment_name TEXT NOT NULL,
    assignment_desc TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active',
    details_json TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
  );
  CREATE TABLE tasks (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    parent_task_id TEXT,
    owner_user_id INTEGER NOT NULL REFERENCES users(id),
    scope TEXT NOT NULL,
    model_id INTEGER NOT NULL,
    assignment_id INTEGER,
    student_id TEXT,
    status TEXT NOT NULL,
    credit_cost INTEGER NOT NULL CHECK (credit_cost >= 0),
    credits_charged INTEGER NOT NULL DEFAULT 0 CHECK (credits_charged IN (0, credit_cost)),
    retryable INTEGER NOT NULL DEFAULT 1,
    input_json TEXT NOT NULL,
    prepared_json TEXT,
    result_json TEXT,
    cur_step INTEGER,
    total_step INTEGER,
    cur_step_name TEXT,
    progress REAL,
    message TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    finished_at TEXT
  );
  CREATE INDEX tasks_status_seq ON tasks (status, seq);
  CREATE INDEX tasks_owner_status ON tasks (owner_user_id, status);
  CREATE TABLE task_files (
    task_id TEXT NOT NULL REFERENCES tasks(task_id),
    ord INTEGER NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('answer', 'rubric', 'question')),
    field TEXT NOT NULL,
    name TEXT NOT NULL,
    mime TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    path TEXT NOT NULL,
    PRIMARY KEY (task_id, ord)
  );
  CREATE TABLE idempotency (
    owner_user_id INTEGER NOT NULL,
    endpoint TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    task_id TEXT NOT NULL,
    response_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (owner_user_id, endpoint, key)
  );
  `,
  // Issue 3: batches (items are tasks with a parent), callbacks, uploads, sandbox-wide settings.
  `
  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  ALTER TABLE tasks ADD COLUMN item_index INTEGER;
  ALTER TABLE tasks ADD COLUMN callback_url TEXT;
  CREATE INDEX tasks_parent ON tasks (parent_task_id, item_index);
  CREATE TABLE callbacks (
    webhook_id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL UNIQUE REFERENCES tasks(task_id),
    url TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error TEXT,
    created_at TEXT NOT NULL,
    delivered_at TEXT
  );
  CREATE INDEX callbacks_due ON callbacks (status, next_attempt_at);
  CREATE TABLE uploads (
    token TEXT PRIMARY KEY,
    owner_user_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    mime TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    path TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  // Issue 5: models created with POST /models keep their confirmed questions, subject, creator,
  // and the time their training ends (docs/model-building.md).
  `
  ALTER TABLE models ADD COLUMN questions_json TEXT;
  ALTER TABLE models ADD COLUMN project_subject TEXT;
  ALTER TABLE models ADD COLUMN created_by_user_id INTEGER REFERENCES users(id);
  ALTER TABLE models ADD COLUMN ready_at INTEGER;
  `,
  // Faster queue: one small partial index of the unfinished tasks replaces the two indexes that
  // held the status of every task ever run. Each status change rewrote an entry in both; now it
  // rewrites one entry of an index that only ever holds the unfinished tasks, and the queries of
  // the queue (next tasks, queue place, reserved credits, unsettled batches) read it alone.
  // The list is ACTIVE_STATUSES of store.ts; the queries repeat it so SQLite can use the index.
  // The batch-items index keeps only batch items (every one-pass task added a NULL entry).
  `
  DROP INDEX tasks_status_seq;
  DROP INDEX tasks_owner_status;
  CREATE INDEX tasks_active ON tasks (seq, status, kind, owner_user_id, credit_cost)
    WHERE status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS');
  DROP INDEX tasks_parent;
  CREATE INDEX tasks_parent ON tasks (parent_task_id, item_index) WHERE parent_task_id IS NOT NULL;
  `,
  // Issue 12: keys are stored as hashes (sha256 of the whole key), with what a listing may show
  // (prefix and last four characters), and room for revocation. The old table keeps the clear
  // keys only until start-up has hashed them (accounts/api-keys.ts, migrateClearKeys) and drops it.
  `
  ALTER TABLE api_keys RENAME TO api_keys_clear;
  CREATE TABLE api_keys (
    id INTEGER PRIMARY KEY,
    key_hash TEXT NOT NULL UNIQUE,
    prefix TEXT NOT NULL,
    last4 TEXT NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id),
    scope TEXT NOT NULL CHECK (scope IN ('user', 'organization')),
    org_id INTEGER REFERENCES organizations(id),
    label TEXT UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    CHECK ((scope = 'organization') = (org_id IS NOT NULL))
  );
  CREATE INDEX api_keys_user ON api_keys (user_id);
  `,
  // Issue 15: the product's key routes (docs/sandbox.md, "Key routes"). A key may have a name;
  // an account has a password to sign in with, stored as a hash like the keys (accounts/accounts.ts).
  `
  ALTER TABLE api_keys ADD COLUMN name TEXT;
  ALTER TABLE users ADD COLUMN password_hash TEXT;
  `,
  // Issue 13: the credits unfinished tasks hold, per user, kept by triggers in the very statement
  // (so the very transaction) that inserts a task or moves it in or out of an unfinished status:
  // the credit check of every submission reads one row instead of summing the queue (55 ms at
  // 100,000 queued). Lists: ACTIVE_STATUSES and RESERVING_KINDS of store.ts (docs/design/sandbox-notes.md,
  // "Reserved credits").
  `
  ALTER TABLE users ADD COLUMN reserved INTEGER NOT NULL DEFAULT 0;
  UPDATE users SET reserved = (SELECT COALESCE(SUM(credit_cost), 0) FROM tasks
    WHERE owner_user_id = users.id AND kind IN ('one_pass', 'batch_item')
      AND status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS'));
  CREATE TRIGGER tasks_reserve_insert AFTER INSERT ON tasks
    WHEN NEW.kind IN ('one_pass', 'batch_item') AND NEW.status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS')
  BEGIN
    UPDATE users SET reserved = reserved + NEW.credit_cost WHERE id = NEW.owner_user_id;
  END;
  CREATE TRIGGER tasks_reserve_update AFTER UPDATE OF status, kind, owner_user_id, credit_cost ON tasks
    WHEN (OLD.kind IN ('one_pass', 'batch_item') AND OLD.status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS'))
      IS NOT (NEW.kind IN ('one_pass', 'batch_item') AND NEW.status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS'))
      OR OLD.owner_user_id IS NOT NEW.owner_user_id OR OLD.credit_cost IS NOT NEW.credit_cost
  BEGIN
    UPDATE users SET reserved = reserved - OLD.credit_cost WHERE id = OLD.owner_user_id
      AND OLD.kind IN ('one_pass', 'batch_item') AND OLD.status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS');
    UPDATE users SET reserved = reserved + NEW.credit_cost WHERE id = NEW.owner_user_id
      AND NEW.kind IN ('one_pass', 'batch_item') AND NEW.status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS');
  END;
  CREATE TRIGGER tasks_reserve_delete AFTER DELETE ON tasks
    WHEN OLD.kind IN ('one_pass', 'batch_item') AND OLD.status IN ('PENDING', 'QUEUED', 'UPLOADING', 'SUBMITTED', 'PROGRESS')
  BEGIN
    UPDATE users SET reserved = reserved - OLD.credit_cost WHERE id = OLD.owner_user_id;
  END;
  `,
];

const FIRST_RUNTIME_ID = 1001;

/** Pages of write-ahead log after which a commit copies it into the database file. */
export const CHECKPOINT_PAGES = 250;

export function openDatabase(dataDir: string, options: { driver?: DriverName } = {}): Db {
  mkdirSync(dataDir, { recursive: true });
  const db = openSqlite(join(dataDir, 'sandbox.db'), options);
  try {
    // WAL survives a killed process with every committed transaction intact; NORMAL sync only
    // risks the last commits on a power cut, which a local sandbox can accept.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // checkpoint every 250 pages (1 MB of log), not SQLite's 1,000: each one holds the committing
    // request thread, and a small one briefly (docs/design/sandbox-notes.md, "Group commit and checkpoints")
    db.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    return db;
  } catch (err) {
    // e.g. "file is not a database": the handle is not kept open by a failed start.
    db.close();
    throw err;
  }
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]);
      if (version === 0) {
        db.prepare(`INSERT INTO sqlite_sequence (name, seq) VALUES ('object_ids', ?)`).run(FIRST_RUNTIME_ID - 1);
      }
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

export function nowIso(): string {
  return new Date().toISOString();
}
