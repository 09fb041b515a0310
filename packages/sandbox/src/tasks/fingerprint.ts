// The request fingerprint of idempotency (spec 4.8 rule 6): what tells "the same request again"
// from "the same key on a changed request". Pure, so a worker thread can compute it beside a big
// body's parse (http/json-body.ts).

import { createHash } from 'node:crypto';
import { canonicalJson } from 'kct/api/canonical.js';

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
