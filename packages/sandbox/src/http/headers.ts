// Headers that hold one value: sent twice, Node would join most of them ("a, b") or keep the
// first, and the request would be read differently from what the client meant. 400 instead.
import { type HttpError, httpError } from './envelope.js';

const SINGLE_VALUED = ['content-type', 'content-length', 'host', 'authorization', 'x-api-key', 'x-token-key', 'idempotency-key'] as const;
const SINGLE = new Set<string>(SINGLE_VALUED);
const DISPLAY: Record<string, string> = {
  'content-type': 'Content-Type',
  'content-length': 'Content-Length',
  host: 'Host',
  authorization: 'Authorization',
  'x-api-key': 'X-API-Key',
  'x-token-key': 'X-TOKEN-KEY',
  'idempotency-key': 'Idempotency-Key',
};

/** A 400 naming the first single-valued header sent more than once, from Node's raw [name, value, ...] list. */
export function duplicatedHeader(rawHeaders: readonly string[]): HttpError | undefined {
  let seen: Set<string> | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i].toLowerCase();
    if (!SINGLE.has(name)) continue;
    seen ??= new Set();
    if (seen.has(name)) {
      const count = rawHeaders.filter((h, j) => j % 2 === 0 && h.toLowerCase() === name).length;
      return httpError(
        400,
        `The ${DISPLAY[name]} header was sent ${count} times; it holds one value, so send it once.`,
        'duplicate_header',
        [{ path: DISPLAY[name], message: `sent ${count} times` }],
      );
    }
    seen.add(name);
  }
  return undefined;
}
