// Who a key belongs to, as far as the server says: GET /credits' fields are left open by the spec
// (4.1), so scope, account and organization are read liberally and are absent when not sent.
import { isPlainObject } from '../../client/envelope.js';

export interface KeyOwner {
  scope?: string;
  account?: string;
  organization?: string;
}

function named(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number') return String(value);
  if (!isPlainObject(value)) return undefined;
  const name = [value.name, value.login, value.email, value.username].find(
    (candidate) => typeof candidate === 'string' && candidate.trim() !== '',
  ) as string | undefined;
  const id = value.id ?? value.user_id ?? value.org_id;
  if (name && (typeof id === 'number' || typeof id === 'string')) return `${name} (id ${id})`;
  return name ?? (typeof id === 'number' || typeof id === 'string' ? `id ${id}` : undefined);
}

export function keyOwner(credits: Record<string, unknown>): KeyOwner {
  const scope = typeof credits.scope === 'string' ? credits.scope : undefined;
  const account = named(credits.account ?? credits.user ?? credits.owner);
  const organization = named(credits.organization ?? credits.org);
  return { ...(scope ? { scope } : {}), ...(account ? { account } : {}), ...(organization ? { organization } : {}) };
}

/** "scope user, account user (id 1)" */
export function describeOwner(owner: KeyOwner): string {
  const parts = [
    owner.scope ? `scope ${owner.scope}` : undefined,
    owner.account ? `account ${owner.account}` : undefined,
    owner.organization ? `organization ${owner.organization}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'the server does not say which account';
}
