// Idempotency-Key handling (spec 4.8 rule 6): the key's syntax, and the fingerprint that tells
// "the same request again" from "the same key on a changed request".

import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { canonicalJson } from 'kct/api/canonical.js';
import { httpError } from '../http/envelope.js';

/** 1 to 255 printable ASCII characters, as most payment APIs accept. */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw httpError(400, 'Send the Idempotency-Key header once.', 'invalid_idempotency_key');
  if (!KEY_PATTERN.test(raw) || raw.trim() === '') {
    throw httpError(
      400,
      'The Idempotency-Key header must be 1 to 255 printable ASCII characters (a UUID is a good choice).',
      'invalid_idempotency_key',
    );
  }
  return raw;
}

export interface FingerprintFile {
  field: string;
  name: string;
  mime: string;
  sha256: string;
}

/**
 * sha256 of a canonical form of the text fields (keys sorted at every depth) and, per file in
 * the order sent, its field, name, type and content hash. Field order, whitespace and JSON vs
 * multipart do not change it; any changed value or byte does.
 */
export function fingerprint(fields: unknown, files: readonly FingerprintFile[]): string {
  const canonical = canonicalJson({ fields, files: files.map((f) => [f.field, f.name, f.mime, f.sha256]) });
  return createHash('sha256').update(canonical).digest('hex');
}
