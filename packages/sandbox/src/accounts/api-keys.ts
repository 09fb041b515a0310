// API keys at rest (docs/sandbox.md, "Keys"): the database holds only a hash of each key (sha256
// of the whole key: a key has 128 random bits, so no salt or slow hash is needed to make
// guessing hopeless), plus what a listing may show (prefix and last four characters), its scope,
// creation and revocation dates. A key in clear exists once, when it is made. The seeded keys
// are also kept in keys.json (0600) beside the database, so every start can print them.
import { randomBytes } from 'node:crypto';
import { nowIso } from '../store/db.js';
import { hashSecret, keepSecrets, readSecretsFile, writeSecretsFile } from '../store/secrets-file.js';
import type { KeyScope, Store } from '../store/store.js';

const KEY_PREFIX = 'kct_sbx_';
const KEYS_FILE = 'keys.json';

function newApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(16).toString('hex')}`;
}

export function hashKey(key: string): string {
  return hashSecret(key);
}

/** How a key is shown after it was made, as kct masks keys everywhere: "kct_****3f9a". */
export function maskedKey(last4: string): string {
  return `kct_****${last4}`;
}

export interface NewKey {
  userId: number;
  scope: KeyScope;
  orgId: number | null;
  /** A seeded key's name ("user", "broke", ...); null for keys made later. */
  label: string | null;
  /** The name its owner gave it (POST /public_api/keys/create). */
  name?: string | null;
}

/** Stores a new key (its hash) and returns the key itself, the only time it exists in clear, and its id. */
export function insertKey(store: Store, owner: NewKey, key = newApiKey()): { key: string; id: number } {
  const result = store
    .prepared(`INSERT INTO api_keys (key_hash, prefix, last4, user_id, scope, org_id, label, name, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(hashKey(key), KEY_PREFIX, key.slice(-4), owner.userId, owner.scope, owner.orgId, owner.label, owner.name ?? null, nowIso());
  return { key, id: Number(result.lastInsertRowid) };
}

/**
 * A data dir made before keys were hashed: its keys move from the clear table (renamed by the
 * 5th migration) to hashes, the seeded ones to keys.json first, then the clear table is dropped
 * with its pages zeroed (secure_delete) and the WAL emptied, so no copy of a key stays on disk.
 */
export function migrateClearKeys(store: Store, dataDir: string): void {
  const clearTable = store.prepared(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'api_keys_clear'`).get();
  if (clearTable === undefined) return;
  const rows = store.prepared('SELECT key, user_id, scope, org_id, label, created_at FROM api_keys_clear').all() as {
    key: string;
    user_id: number;
    scope: KeyScope;
    org_id: number | null;
    label: string | null;
    created_at: string;
  }[];
  const seeded = Object.fromEntries(rows.filter((r) => r.label !== null).map((r) => [r.label!, r.key]));
  if (Object.keys(seeded).length > 0) writeKeysFile(dataDir, { ...readSecretsFile(dataDir, KEYS_FILE), ...seeded });
  store.db.exec('PRAGMA secure_delete = ON');
  store
    .transaction('migrateClearKeys', (s: Store, clear: typeof rows) => {
      for (const r of clear) {
        s.prepared(`INSERT OR IGNORE INTO api_keys (key_hash, prefix, last4, user_id, scope, org_id, label, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
          hashKey(r.key),
          KEY_PREFIX,
          r.key.slice(-4),
          r.user_id,
          r.scope,
          r.org_id,
          r.label,
          r.created_at,
        );
      }
      s.db.exec('DROP TABLE api_keys_clear');
    })
    .immediate(store, rows);
  store.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
}

/**
 * The seeded keys, from keys.json, each checked against its hash. A seeded key missing from the
 * file (deleted, edited) cannot be recovered from its hash: a new one is issued in its place
 * (the old one stops working) and the file is written again. Returns the keys and the names of
 * those reissued.
 */
export function seededKeys(store: Store, dataDir: string, labels: readonly string[]): { keys: Record<string, string>; reissued: string[] } {
  const rowOf = (label: string) => {
    const row = store.prepared('SELECT id, key_hash FROM api_keys WHERE label = ?').get(label) as
      | { id: number; key_hash: string }
      | undefined;
    if (!row) throw new Error(`the sandbox database has no seeded key "${label}"; start with a new data dir`);
    return row;
  };
  const { secrets, reissued } = keepSecrets(
    dataDir,
    KEYS_FILE,
    labels,
    (label) => rowOf(label).key_hash,
    (label) => {
      const key = newApiKey();
      store
        .prepared('UPDATE api_keys SET key_hash = ?, last4 = ?, created_at = ?, revoked_at = NULL WHERE id = ?')
        .run(hashKey(key), key.slice(-4), nowIso(), rowOf(label).id);
      return key;
    },
  );
  return { keys: secrets, reissued };
}

/** keys.json, created 0600 (never chmod-ed after), replaced in one rename. */
export function writeKeysFile(dataDir: string, keys: Record<string, string>): void {
  writeSecretsFile(dataDir, KEYS_FILE, keys);
}
