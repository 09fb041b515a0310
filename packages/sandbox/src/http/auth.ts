// Authentication and key scope (spec 5), run before a body is read (admission.ts) so a stranger
// cannot make the sandbox store an upload.
import type { FastifyRequest } from 'fastify';
import { hashKey } from '../accounts/api-keys.js';
import type { KeyRow, KeyScope, Store } from '../store/store.js';
import { httpError } from './envelope.js';

export interface Principal {
  /** The API key's own id: what its rate limit and its connections are counted by. */
  keyId: number;
  userId: number;
  userName: string;
  scope: KeyScope;
  orgId: number | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route registered without authentication');
  return request.principal;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Key rows seen recently, by key hash, so a request does not read `api_keys` and `users` again.
 * A key's owner, owner name, scope and organization are fixed when it is created; what can
 * change (a key revoked, deleted or edited in sandbox.db by hand) takes effect within
 * KEY_TTL_MS, after which an entry is read again. Unknown keys are never kept. Whether the owner
 * of an organization key is still an admin there (spec 5) is NOT cached: it is read on every
 * request of such a key, so a demotion gives 403 `organization_scope_revoked` on the very next
 * request.
 */
export class KeyCache {
  /** By key hash: the clear key is not kept in memory longer than its request. */
  private readonly entries = new Map<string, { row: KeyRow; until: number }>();

  constructor(
    private readonly store: Store,
    private readonly ttlMs = KEY_TTL_MS,
    private readonly maxEntries = KEY_CACHE_MAX,
  ) {}

  find(keyHash: string): KeyRow | undefined {
    const now = Date.now();
    const hit = this.entries.get(keyHash);
    if (hit !== undefined && hit.until > now) return hit.row;
    const row = this.store.findKey(keyHash);
    if (row === undefined) {
      if (hit !== undefined) this.entries.delete(keyHash);
      return undefined;
    }
    // Bounded: the sandbox has a handful of keys; a flood of distinct valid keys only refills.
    if (hit === undefined && this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(keyHash, { row, until: now + this.ttlMs });
    return row;
  }

  /** A key revoked through the key routes is refused from its next request, not a second later. */
  forget(keyHash: string): void {
    this.entries.delete(keyHash);
  }
}

export const KEY_TTL_MS = 1000;
const KEY_CACHE_MAX = 1024;

export function authenticate(store: Store, request: FastifyRequest, keys?: KeyCache): Principal {
  const key = header(request, 'x-api-key')?.trim();
  if (!key) {
    if (header(request, 'x-token-key') !== undefined) {
      throw httpError(
        401,
        'X-TOKEN-KEY is the header of the retired integration; send your key in the X-API-Key header instead.',
        'legacy_auth_header',
      );
    }
    throw httpError(401, 'Missing X-API-Key header: send your API key (it begins with kct_) in X-API-Key.', 'unauthenticated');
  }
  if (!key.startsWith('kct_')) {
    throw httpError(
      401,
      "The X-API-Key value is not an API key of this service: keys begin with kct_. Never send a model provider's key.",
      'invalid_api_key',
    );
  }
  const keyHash = hashKey(key);
  const row = keys ? keys.find(keyHash) : store.findKey(keyHash);
  if (!row) throw httpError(401, 'The API key in X-API-Key is not valid: check for typos, or create a new key.', 'invalid_api_key');
  if (row.revoked_at !== null) {
    throw httpError(
      401,
      `The API key in X-API-Key was revoked on ${row.revoked_at.slice(0, 10)}: use another key, or create a new one.`,
      'revoked_api_key',
    );
  }
  // Never cached: a demoted admin's organization key is refused from the next request on.
  if (row.scope === 'organization' && row.org_id !== null && store.membershipRole(row.user_id, row.org_id) !== 'admin') {
    throw httpError(
      403,
      `Organization scope is no longer permitted: the key's owner is no longer an admin of ${store.organizationName(row.org_id)}. Use a user-scope key, or ask an admin for access.`,
      'organization_scope_revoked',
    );
  }
  return { keyId: row.id, userId: row.user_id, userName: row.user_name, scope: row.scope, orgId: row.org_id };
}
