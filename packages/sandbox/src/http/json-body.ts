// A JSON request body read from its bytes: parsed with fastify's guard against prototype
// poisoning (secure-json-parse, as fastify's own parser), and fingerprinted for idempotency. A
// job of the request threads (engines/jobs.ts) for a big body, so the request thread only sends
// the bytes and receives the value (or, for a body nested too deep, its refusal); run inline for a
// small one (json-parser.ts).
import secureJson from 'secure-json-parse';
import { fingerprint } from '../tasks/fingerprint.js';
import { tooDeep } from './field-limits.js';

export type JsonBody =
  /** Nothing but white space: no body. */
  | { kind: 'empty' }
  /** Not JSON, or a `__proto__` / `constructor.prototype` key. */
  | { kind: 'invalid' }
  /** `fingerprint`: of the value as a submission's fields (tasks/fingerprint.ts), for an object only. */
  | { kind: 'parsed'; value: unknown; fingerprint?: string }
  /** Read on a request thread and nested past any field's depth (at `path`): refused, not sent back. */
  | { kind: 'too_deep'; path: string };

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
  if (!withFingerprint) return { kind: 'parsed', value };
  // refused for its depth (400 too_deep) before anything recurses through it: the fingerprint, the copy back to the request thread
  const deep = tooDeep(value);
  if (deep !== undefined) return { kind: 'too_deep', path: deep };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'parsed', value };
  return { kind: 'parsed', value, fingerprint: fingerprint(value, []) };
}
