// A JSON request body read from its bytes: parsed with fastify's guard against prototype
// poisoning (secure-json-parse, as fastify's own parser), and fingerprinted for idempotency. A
// job of the request threads (engines/jobs.ts) for a big body, so the request thread only sends
// the bytes and receives the value; run inline for a small one (json-parser.ts).
import secureJson from 'secure-json-parse';
import { fingerprint } from '../tasks/fingerprint.js';

export type JsonBody =
  /** Nothing but white space: no body. */
  | { kind: 'empty' }
  /** Not JSON, or a `__proto__` / `constructor.prototype` key. */
  | { kind: 'invalid' }
  /** `fingerprint`: of the value as a submission's fields (tasks/fingerprint.ts), for an object only. */
  | { kind: 'parsed'; value: unknown; fingerprint?: string };

const GUARD = { protoAction: 'error', constructorAction: 'error' } as const;

export function readJsonBody(bytes: Uint8Array, withFingerprint: boolean): JsonBody {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.trim() === '') return { kind: 'empty' };
  let value: unknown;
  try {
    value = secureJson.parse(text, null, GUARD);
  } catch {
    return { kind: 'invalid' };
  }
  if (!withFingerprint || value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'parsed', value };
  return { kind: 'parsed', value, fingerprint: fingerprint(value, []) };
}
