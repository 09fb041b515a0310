// Whether a /v1 request is served, decided once its headers are in and before any body is read:
// its key (auth.ts), the connections that key holds (connection-caps.ts) and its request rate
// (rate-limit.ts), in that order. Only then is "Expect: 100-continue" answered, so a refused
// upload is never sent at all.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../store/store.js';
import type { KeyCache } from './auth.js';
import { authenticate } from './auth.js';
import type { ConnectionCaps } from './connection-caps.js';
import { HttpError } from './envelope.js';
import type { TokenBuckets } from './rate-limit.js';

export interface Admission {
  store: Store;
  keys: KeyCache;
  caps: ConnectionCaps;
  /** Absent: no rate limit (the default). */
  rateLimit?: TokenBuckets | undefined;
}

/** The onRequest hook of /v1. Callback style, not async: no promise and no extra tick per request. */
export function admissionHook({ store, keys, caps, rateLimit }: Admission) {
  return (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    try {
      const principal = authenticate(store, request, keys);
      request.principal = principal;
      if (!caps.claimForKey(request.raw, principal.keyId)) throw tooManyForKey(caps.limits.maxConnectionsPerKey);
      const retryAfter = rateLimit?.take(principal.keyId) ?? 0;
      if (retryAfter > 0) throw rateLimited(rateLimit!, retryAfter);
    } catch (err) {
      done(err as Error);
      return;
    }
    if (request.headers.expect?.toLowerCase() === '100-continue') reply.raw.writeContinue();
    done();
  };
}

function tooManyForKey(cap: number): HttpError {
  return new HttpError(
    503,
    'too_many_connections',
    `Too many connections with this API key: at most ${cap} at once. Close idle connections (or send fewer requests at once), then retry.`,
    undefined,
    // the connection is not the key's: it closes, and makes room at its address
    { 'retry-after': '1', connection: 'close' },
  );
}

function rateLimited(buckets: TokenBuckets, retryAfter: number): HttpError {
  const rate = buckets.rate === 1 ? '1 request' : `${buckets.rate} requests`;
  return new HttpError(
    429,
    'rate_limited',
    `Too many requests with this API key: at most ${rate} a second (bursts of ${buckets.burst}). Retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
    undefined,
    { 'retry-after': String(retryAfter) },
  );
}
