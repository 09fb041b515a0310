// Authentication and key scope (spec 5), run before a body is read so a stranger cannot make
// the sandbox store an upload.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { httpError } from './envelope.js';
import type { KeyScope, Store } from './store.js';

export interface Principal {
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

export function authenticate(store: Store, request: FastifyRequest): Principal {
  const key = header(request, 'x-api-key')?.trim();
  if (!key) {
    if (header(request, 'x-token-key') !== undefined) {
      throw httpError(401, 'X-TOKEN-KEY is the header of the retired integration; send your key in the X-API-Key header instead.', 'legacy_auth_header');
    }
    throw httpError(401, 'Missing X-API-Key header: send your API key (it begins with kct_) in X-API-Key.', 'unauthenticated');
  }
  if (!key.startsWith('kct_')) {
    throw httpError(401, 'The X-API-Key value is not an API key of this service: keys begin with kct_. Never send a model provider\'s key.', 'invalid_api_key');
  }
  const row = store.findKey(key);
  if (!row) throw httpError(401, 'The API key in X-API-Key is not valid: check for typos, or create a new key.', 'invalid_api_key');
  if (row.scope === 'organization' && row.org_id !== null && store.membershipRole(row.user_id, row.org_id) !== 'admin') {
    throw httpError(403, `Organization scope is no longer permitted: the key's owner is no longer an admin of ${store.organizationName(row.org_id)}. Use a user-scope key, or ask an admin for access.`, 'organization_scope_revoked');
  }
  return { userId: row.user_id, userName: row.user_name, scope: row.scope, orgId: row.org_id };
}

export function authHook(store: Store) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    request.principal = authenticate(store, request);
  };
}
