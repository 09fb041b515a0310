// What the product's key routes do to the api_keys table (docs/sandbox.md, "Key routes"): list an
// account's keys (masked), create one (organization scope for admins only), revoke one. Each
// change is one transaction; revoking twice leaves the first revocation as it was.
import { type CreatedKey, type CreateKeyRequest, type KeyRecord, MAX_ACTIVE_KEYS } from 'kct/api/product.js';
import { httpError } from '../http/envelope.js';
import { nowIso } from '../store/db.js';
import type { KeyScope, Store } from '../store/store.js';
import type { Account } from './accounts.js';
import { insertKey, maskedKey } from './api-keys.js';

interface KeyRecordRow {
  id: number;
  name: string | null;
  label: string | null;
  scope: KeyScope;
  org_id: number | null;
  org_name: string | null;
  last4: string;
  key_hash: string;
  created_at: string;
  revoked_at: string | null;
}

const SELECT_KEYS = `SELECT k.id, k.name, k.label, k.scope, k.org_id, o.name AS org_name, k.last4, k.key_hash, k.created_at, k.revoked_at
  FROM api_keys k LEFT JOIN organizations o ON o.id = k.org_id`;

/** A key as listings show it: masked, never the key. A seeded key is named after its account. */
function view(row: KeyRecordRow): KeyRecord {
  return {
    id: row.id,
    name: row.name ?? row.label,
    scope: row.scope,
    organization: row.org_id === null ? null : { id: row.org_id, name: row.org_name ?? `organization ${row.org_id}` },
    masked_key: maskedKey(row.last4),
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

export function listKeys(store: Store, account: Account): KeyRecord[] {
  return (store.prepared(`${SELECT_KEYS} WHERE k.user_id = ? ORDER BY k.id`).all(account.id) as KeyRecordRow[]).map(view);
}

export function createKey(store: Store, account: Account, request: CreateKeyRequest): CreatedKey {
  return store.db
    .transaction(() => {
      const orgId = request.scope === 'organization' ? adminOrganization(store, account, request.organization_id) : null;
      const { active } = store
        .prepared('SELECT COUNT(*) AS active FROM api_keys WHERE user_id = ? AND revoked_at IS NULL')
        .get(account.id) as { active: number };
      if (active >= MAX_ACTIVE_KEYS) {
        throw httpError(
          409,
          `The account ${account.name} already has ${active} keys that are not revoked, the most one account may hold. Revoke keys it no longer uses, then create this one.`,
          'too_many_keys',
        );
      }
      const { key, id } = insertKey(store, { userId: account.id, scope: request.scope, orgId, label: null, name: request.name ?? null });
      return { ...view(store.prepared(`${SELECT_KEYS} WHERE k.id = ?`).get(id) as KeyRecordRow), key };
    })
    .immediate();
}

export interface Revocation {
  record: KeyRecord;
  alreadyRevoked: boolean;
  /** For the key cache: the revoked key is refused from the next request on. */
  keyHash: string;
}

/** Another account's key is answered exactly as a key that does not exist, so ids cannot be probed. */
export function revokeKey(store: Store, account: Account, id: number): Revocation {
  return store.db
    .transaction(() => {
      const before = store.prepared(`${SELECT_KEYS} WHERE k.id = ? AND k.user_id = ?`).get(id, account.id) as KeyRecordRow | undefined;
      if (before === undefined) {
        throw httpError(
          404,
          `The account ${account.name} has no key ${id}. List its keys with GET /public_api/keys/list.`,
          'key_not_found',
        );
      }
      if (before.revoked_at !== null) return { record: view(before), alreadyRevoked: true, keyHash: before.key_hash };
      const revokedAt = nowIso();
      store.prepared('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(revokedAt, id);
      return { record: view({ ...before, revoked_at: revokedAt }), alreadyRevoked: false, keyHash: before.key_hash };
    })
    .immediate();
}

/** The organization an organization key is for: one where the account is an admin (spec 5), or the 403 that says why not. */
function adminOrganization(store: Store, account: Account, wanted: number | undefined): number {
  const memberships = store
    .prepared(`SELECT m.org_id, m.role, o.name FROM memberships m JOIN organizations o ON o.id = m.org_id
    WHERE m.user_id = ? ORDER BY o.id`)
    .all(account.id) as { org_id: number; role: string; name: string }[];
  const refuse = (why: string) =>
    httpError(
      403,
      `Only an organization admin may create an organization key: ${why}. Create a user-scope key instead, or ask an admin of the organization.`,
      'not_organization_admin',
    );
  if (wanted !== undefined) {
    const membership = memberships.find((m) => m.org_id === wanted);
    if (membership === undefined) throw refuse(`the account ${account.name} is not a member of organization ${wanted}`);
    if (membership.role !== 'admin')
      throw refuse(`the account ${account.name} is a ${membership.role}, not an admin, of ${membership.name}`);
    return membership.org_id;
  }
  const admin = memberships.filter((m) => m.role === 'admin');
  if (admin.length === 1) return admin[0].org_id;
  if (admin.length > 1) {
    throw httpError(
      400,
      `The account ${account.name} is an admin of ${admin.length} organizations: say which one the key is for with organization_id (${admin.map((m) => `${m.org_id} for ${m.name}`).join(', ')}).`,
      'invalid_request',
    );
  }
  if (memberships.length === 0) throw refuse(`the account ${account.name} belongs to no organization`);
  throw refuse(`the account ${account.name} is a ${memberships[0].role}, not an admin, of ${memberships[0].name}`);
}
