// The product's key routes (spec 5.4): created, listed and revoked after a user signs in, at
// {product_base}/public_api/..., outside the v1 API. The spec shows no bodies: these are the
// sandbox's (docs/sandbox.md, "Key routes"), shared by the client, the sandbox and the OpenAPI
// document as the v1 contract is (schemas.ts: strict requests, loose responses).
import { Scope } from './schemas.js';
import * as z from './zod.js';

export const PRODUCT_OPERATIONS = {
  signIn: { method: 'POST', path: '/public_api/auth/sign-in' },
  signOut: { method: 'POST', path: '/public_api/auth/sign-out' },
  createKey: { method: 'POST', path: '/public_api/keys/create' },
  listKeys: { method: 'GET', path: '/public_api/keys/list' },
  revokeKey: { method: 'POST', path: '/public_api/keys/revoke' },
} as const;

export type ProductOperationName = keyof typeof PRODUCT_OPERATIONS;

/** A key name: shown in listings, so one line of ordinary text. */
export const KEY_NAME_MAX = 100;
/** Keys not revoked that one account may hold at once. */
export const MAX_ACTIVE_KEYS = 100;

// ---------- requests ----------

export const SignInRequest = z.strictObject({
  account: z.string().min(1).max(200),
  password: z.string().min(1).max(1000),
});
export type SignInRequest = z.infer<typeof SignInRequest>;

export const CreateKeyRequest = z.strictObject({
  scope: Scope,
  name: z
    .string()
    .trim()
    .min(1)
    .max(KEY_NAME_MAX)
    .regex(/^[^\p{Cc}]*$/u, 'must not hold control characters')
    .optional(),
  /** Which organization an organization key is for; needed only by an admin of several. */
  organization_id: z.number().int().positive().optional(),
});
export type CreateKeyRequest = z.infer<typeof CreateKeyRequest>;

export const RevokeKeyRequest = z.strictObject({
  id: z.number().int().positive(),
});
export type RevokeKeyRequest = z.infer<typeof RevokeKeyRequest>;

// ---------- responses ----------

const NamedId = z.looseObject({ id: z.number(), name: z.string() });

export const Session = z.looseObject({
  session_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_at: z.string().optional(),
  account: NamedId.optional(),
  organizations: z.array(NamedId.extend({ role: z.string() })).optional(),
});
export type Session = z.infer<typeof Session>;

/** A key as listings show it: never the key itself. */
export const KeyRecord = z.looseObject({
  id: z.number(),
  name: z.string().nullable().optional(),
  scope: z.string(),
  organization: NamedId.nullable().optional(),
  masked_key: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable().optional(),
});
export type KeyRecord = z.infer<typeof KeyRecord>;

/** The answer to create: the only answer that ever holds the key. */
export const CreatedKey = KeyRecord.extend({ key: z.string().regex(/^kct_/) });
export type CreatedKey = z.infer<typeof CreatedKey>;

export const KeyList = z.looseObject({ keys: z.array(KeyRecord) });
export type KeyList = z.infer<typeof KeyList>;

export const RevokedKey = KeyRecord.extend({ already_revoked: z.boolean().optional() });
export type RevokedKey = z.infer<typeof RevokedKey>;

/** The product base of a v1 base URL: the URL without its trailing /v1; undefined when it has none. */
export function productBaseOf(baseUrl: string): string | undefined {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return /\/v1$/.test(trimmed) ? trimmed.slice(0, -3) : undefined;
}
