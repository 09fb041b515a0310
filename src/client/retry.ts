// When and how long to wait before trying a request again.

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is returned instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

const HTTP_DATE =
  /^[A-Za-z]{3},? +\d{1,2}[ -][A-Za-z]{3}[ -]\d{2,4} \d{2}:\d{2}:\d{2} GMT$|^[A-Za-z]{3} [A-Za-z]{3} +\d{1,2} \d{2}:\d{2}:\d{2} \d{4}$/;

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so retries of
 * many clients spread out but none retries immediately.
 */
export function backoffDelay(retryIndex: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.round(step / 2 + (random() * step) / 2);
}

/** Parses Retry-After (delta seconds or an HTTP date) into milliseconds, or undefined. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  const trimmed = raw.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Only an HTTP-date ("Sun, 06 Nov 1994 08:49:37 GMT" and its older forms): Date.parse alone
  // would read "-5" or "2" as dates in 2001 and turn garbage into "retry now".
  if (!HTTP_DATE.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * A request may be retried only when repeating it cannot do harm twice: reads, and writes that
 * carry an Idempotency-Key (the server deduplicates them).
 */
export function isRetrySafe(method: string, idempotencyKey: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD' || (idempotencyKey !== undefined && idempotencyKey !== '');
}

/** The delay before retry number `retryIndex`, or undefined when the server asks for too long. */
export function retryDelay(
  retryIndex: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random?: () => number,
): number | undefined {
  const computed = backoffDelay(retryIndex, policy, random);
  if (retryAfterMs === undefined) return computed;
  if (retryAfterMs > policy.maxRetryAfterMs) return undefined;
  return Math.max(retryAfterMs, Math.min(computed, policy.baseDelayMs));
}
