// Idempotency-Key handling (spec 4.8 rule 6): the key's syntax. The fingerprint that tells "the
// same request again" from "the same key on a changed request" is fingerprint.ts.

import type { FastifyRequest } from 'fastify';
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
