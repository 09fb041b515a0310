// Fills a new data dir with the documented accounts, keys and models (docs/sandbox.md).
import { randomBytes } from 'node:crypto';
import type { Db } from './db.js';
import { nowIso } from './db.js';
import { SEED_MODELS, SEED_ORGANIZATION } from './seed-models.js';

export interface SandboxKeys {
  user: string;
  broke: string;
  org_admin: string;
  org_member: string;
  former_admin: string;
}

type KeyName = keyof SandboxKeys;

interface SeedUser {
  name: KeyName;
  credits: number;
  role: 'admin' | 'member' | null;
  scope: 'user' | 'organization';
}

// former_admin is still a member (demoted), so the 403 message can name the organization.
const USERS: SeedUser[] = [
  { name: 'user', credits: 1000, role: null, scope: 'user' },
  { name: 'broke', credits: 0, role: null, scope: 'user' },
  { name: 'org_admin', credits: 500, role: 'admin', scope: 'organization' },
  { name: 'org_member', credits: 200, role: 'member', scope: 'user' },
  { name: 'former_admin', credits: 100, role: 'member', scope: 'organization' },
];

export function newApiKey(): string {
  return `kct_sbx_${randomBytes(16).toString('hex')}`;
}

/** Seeds an empty database; returns the seeded keys (the same ones on every later start). */
export function seedIfEmpty(db: Db): SandboxKeys {
  const seeded = db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number };
  if (seeded.n === 0) db.transaction(() => seed(db))();
  return readSeedKeys(db);
}

function seed(db: Db): void {
  const now = nowIso();
  const orgId = Number(db.prepare('INSERT INTO organizations (name) VALUES (?)').run(SEED_ORGANIZATION).lastInsertRowid);
  const userIds = new Map<string, number>();
  for (const u of USERS) {
    const id = Number(db.prepare('INSERT INTO users (name, credits) VALUES (?, ?)').run(u.name, u.credits).lastInsertRowid);
    userIds.set(u.name, id);
    if (u.role) db.prepare('INSERT INTO memberships (user_id, org_id, role) VALUES (?, ?, ?)').run(id, orgId, u.role);
    db.prepare('INSERT INTO api_keys (key, user_id, scope, org_id, label, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(newApiKey(), id, u.scope, u.scope === 'organization' ? orgId : null, u.name, now);
  }
  const insertModel = db.prepare(`INSERT INTO models (model_id, owner_user_id, org_id, assignment_name, assignment_desc,
    question_text, post_status, creation_method, total_score, cum_method, rubrics_json, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'custom', ?, ?, ?, ?)`);
  for (const m of SEED_MODELS) {
    insertModel.run(m.model_id, m.owner ? userIds.get(m.owner) : null, m.org ? orgId : null, m.assignment_name,
      m.assignment_desc, m.question_text, m.post_status, m.total_score, m.cum_method, JSON.stringify(m.rubrics), now);
  }
}

function readSeedKeys(db: Db): SandboxKeys {
  const rows = db.prepare('SELECT label, key FROM api_keys WHERE label IS NOT NULL').all() as { label: string; key: string }[];
  const byLabel = new Map(rows.map((r) => [r.label, r.key]));
  const keys = {} as SandboxKeys;
  for (const u of USERS) {
    const key = byLabel.get(u.name);
    if (!key) throw new Error(`the sandbox database has no seeded key "${u.name}"; start with a new data dir`);
    keys[u.name] = key;
  }
  return keys;
}

/**
 * The secret that signs batch callbacks (Standard Webhooks, `whsec_` + base64). One per data
 * dir, created on first use and kept, so receivers configured once keep verifying.
 */
export function webhookSecret(db: Db): string {
  db.prepare(`INSERT OR IGNORE INTO meta (key, value) VALUES ('webhook_secret', ?)`)
    .run(`whsec_${randomBytes(24).toString('base64')}`);
  return (db.prepare(`SELECT value FROM meta WHERE key = 'webhook_secret'`).get() as { value: string }).value;
}
