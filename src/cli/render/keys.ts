// How `kct keys` shows a key record: masked, never the key (the create answer's key is printed by
// `kct keys create` alone, once).
import type { KeyRecord } from '../../api/product.js';
import type { Column } from './rows.js';

/** "2026-11-24 11:41 UTC": a listing's dates, to the minute. */
export function shortDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function keyState(record: KeyRecord): string {
  return record.revoked_at ? `revoked ${shortDate(record.revoked_at)}` : 'active';
}

/** `key 7 "ci" (kct_****abcd, user scope)`, or for an organization key `(…, organization scope, Northfield Academy)`. */
export function describeKey(record: KeyRecord): string {
  const name = record.name ? ` "${record.name}"` : '';
  const organization = record.organization ? `, ${record.organization.name}` : '';
  return `key ${record.id}${name} (${record.masked_key}, ${record.scope} scope${organization})`;
}

export const KEY_COLUMNS: Column<KeyRecord>[] = [
  { name: 'id', header: 'ID', value: (k) => k.id },
  { name: 'name', header: 'Name', value: (k) => k.name ?? '', wrap: true },
  { name: 'masked_key', header: 'Key', value: (k) => k.masked_key },
  { name: 'scope', header: 'Scope', value: (k) => k.scope },
  { name: 'organization_name', header: 'Organization', value: (k) => k.organization?.name ?? '' },
  { name: 'created_at', header: 'Created', value: (k) => k.created_at, show: (k) => shortDate(k.created_at) },
  { name: 'revoked_at', header: 'State', value: (k) => k.revoked_at ?? '', show: keyState },
];

/** What a machine format prints of a key: the record as the server sent it, never a key. */
export function keyRow(record: KeyRecord): Record<string, unknown> {
  const { key: _never, ...rest } = record as KeyRecord & { key?: unknown };
  return rest;
}
