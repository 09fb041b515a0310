// Fills a new data dir with the documented accounts, keys and models (docs/sandbox.md).
import { randomBytes } from 'node:crypto';
import type { SandboxKeys } from 'kct/api/sandbox.js';
import { insertKey, migrateClearKeys, seededKeys, writeKeysFile } from '../accounts/api-keys.js';
import type { Db } from './db.js';
import { nowIso } from './db.js';
import { SEED_MODELS, SEED_ORGANIZATION } from './seed-models.js';
import type { Store } from './store.js';

export type { SandboxKeys };

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

/**
 * Seeds an empty database and returns the seeded keys: the same ones on every later start, from
 * keys.json (accounts/api-keys.ts). Clear keys of a data dir made by an older sandbox are hashed first.
 */
export function seedIfEmpty(store: Store, dataDir: string, log?: (line: string) => void): SandboxKeys {
  migrateClearKeys(store, dataDir);
  const seeded = store.prepared('SELECT COUNT(*) AS n FROM users').get() as { n: number };
  if (seeded.n === 0) {
    const keys = store.transaction('seed', seed).immediate(store);
    writeKeysFile(dataDir, keys);
  }
  const { keys, reissued } = seededKeys(
    store,
    dataDir,
    USERS.map((u) => u.name),
  );
  if (reissued.length > 0)
    log?.(`keys.json did not hold the seeded keys ${reissued.join(', ')}: new keys were issued for them (the old ones no longer work).`);
  return keys as unknown as SandboxKeys;
}

function seed(store: Store): Record<string, string> {
  const now = nowIso();
  const keys: Record<string, string> = {};
  const orgId = Number(store.prepared('INSERT INTO organizations (name) VALUES (?)').run(SEED_ORGANIZATION).lastInsertRowid);
  const userIds = new Map<string, number>();
  for (const u of USERS) {
    const id = Number(store.prepared('INSERT INTO users (name, credits) VALUES (?, ?)').run(u.name, u.credits).lastInsertRowid);
    userIds.set(u.name, id);
    if (u.role) store.prepared('INSERT INTO memberships (user_id, org_id, role) VALUES (?, ?, ?)').run(id, orgId, u.role);
    keys[u.name] = insertKey(store, { userId: id, scope: u.scope, orgId: u.scope === 'organization' ? orgId : null, label: u.name }).key;
  }
  const insertModel = store.prepared(`INSERT INTO models (model_id, owner_user_id, org_id, assignment_name, assignment_desc,
    question_text, post_status, creation_method, total_score, cum_method, rubrics_json, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, 'custom', ?, ?, ?, ?)`);
  for (const m of SEED_MODELS) {
    insertModel.run(
      m.model_id,
      m.owner ? userIds.get(m.owner) : null,
      m.org ? orgId : null,
      m.assignment_name,
      m.assignment_desc,
      m.question_text,
      m.post_status,
      m.total_score,
      m.cum_method,
      JSON.stringify(m.rubrics),
      now,
    );
  }
  return keys;
}

/**
 * The secret that signs batch callbacks (Standard Webhooks, `whsec_` + base64). One per data
 * dir, created on first use and kept, so receivers configured once keep verifying.
 */
export function webhookSecret(db: Db): string {
  db.prepare(`INSERT OR IGNORE INTO meta (key, value) VALUES ('webhook_secret', ?)`).run(`whsec_${randomBytes(24).toString('base64')}`);
  return (db.prepare(`SELECT value FROM meta WHERE key = 'webhook_secret'`).get() as { value: string }).value;
}
