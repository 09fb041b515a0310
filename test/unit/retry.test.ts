import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  DEFAULT_RETRY,
  isRetrySafe,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  type RetryPolicy,
  retryDelay,
} from '../../src/client/retry.js';

const policy: RetryPolicy = { maxRetries: 5, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };
const low = () => 0;
const high = () => 1;

describe('backoffDelay', () => {
  it('doubles the step on every retry (random 1 gives the full step)', () => {
    expect([0, 1, 2, 3, 4].map((i) => backoffDelay(i, policy, high))).toEqual([500, 1000, 2000, 4000, 8000]);
  });

  it('never waits less than half the step (random 0)', () => {
    expect([0, 1, 2, 3, 4].map((i) => backoffDelay(i, policy, low))).toEqual([250, 500, 1000, 2000, 4000]);
  });

  it('caps the step at maxDelayMs', () => {
    expect(backoffDelay(5, policy, high)).toBe(8000);
    expect(backoffDelay(20, policy, high)).toBe(8000);
    expect(backoffDelay(20, policy, low)).toBe(4000);
  });

  it('stays within [step/2, step] for any random value', () => {
    for (const r of [0, 0.1, 0.25, 0.5, 0.75, 0.999]) {
      for (let i = 0; i < 8; i++) {
        const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** i);
        const delay = backoffDelay(i, policy, () => r);
        expect(delay).toBeGreaterThanOrEqual(step / 2);
        expect(delay).toBeLessThanOrEqual(step);
      }
    }
    expect(backoffDelay(1, policy, () => 0.5)).toBe(750);
  });

  it('uses Math.random by default and stays in bounds', () => {
    for (let i = 0; i < 50; i++) {
      const delay = backoffDelay(2, policy);
      expect(delay).toBeGreaterThanOrEqual(1000);
      expect(delay).toBeLessThanOrEqual(2000);
    }
  });

  it('has sensible defaults', () => {
    expect(DEFAULT_RETRY.maxRetries).toBeGreaterThan(0);
    expect(DEFAULT_RETRY.baseDelayMs).toBeLessThan(DEFAULT_RETRY.maxDelayMs);
    for (const status of [429, 502, 503, 504]) expect(RETRYABLE_STATUSES.has(status)).toBe(true);
    for (const status of [400, 401, 402, 403, 404, 409, 500]) expect(RETRYABLE_STATUSES.has(status)).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delta seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
  });

  it('reads decimal seconds', () => {
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('0.25', now)).toBe(250);
  });

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
  });

  it('turns a date in the past into 0', () => {
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });

  it('takes the first value of a repeated header', () => {
    expect(parseRetryAfter(['2', '9'], now)).toBe(2000);
  });

  it('returns undefined for missing, empty or garbage values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('   ', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('1e3', now)).toBeUndefined();
    expect(parseRetryAfter('Not a date, 99 Foo', now)).toBeUndefined();
  });

  it('Retry-After garbage is ignored rather than read as a date in 2001', () => {
    for (const value of ['-5', '-1', 'later 5', '1.5.2']) expect(parseRetryAfter(value)).toBeUndefined();
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', Date.parse('Sun, 06 Nov 1994 08:49:30 GMT'))).toBe(7000);
  });
});

describe('isRetrySafe', () => {
  it('allows reads', () => {
    expect(isRetrySafe('GET', undefined)).toBe(true);
    expect(isRetrySafe('HEAD', undefined)).toBe(true);
  });

  it('refuses a POST without an Idempotency-Key', () => {
    expect(isRetrySafe('POST', undefined)).toBe(false);
    expect(isRetrySafe('POST', '')).toBe(false);
  });

  it('allows a POST with an Idempotency-Key', () => {
    expect(isRetrySafe('POST', 'b5c7c1c2-key')).toBe(true);
  });
});

describe('retryDelay', () => {
  it('uses the backoff when the server sent no Retry-After', () => {
    expect(retryDelay(0, undefined, policy, high)).toBe(500);
    expect(retryDelay(3, undefined, policy, low)).toBe(2000);
  });

  it('waits at least as long as Retry-After asks', () => {
    expect(retryDelay(0, 5_000, policy, high)).toBe(5_000);
    expect(retryDelay(3, 10_000, policy, high)).toBe(10_000);
    expect(retryDelay(0, 60_000, policy, high)).toBe(60_000);
  });

  it('does not add the large backoff on top of a short Retry-After', () => {
    // Backoff at retry 4 would be 8 s; the server said 1 s.
    expect(retryDelay(4, 1_000, policy, high)).toBe(1_000);
  });

  it('does not retry immediately on Retry-After: 0', () => {
    const delay = retryDelay(0, 0, policy, low)!;
    expect(delay).toBeGreaterThan(0);
    expect(delay).toBeLessThanOrEqual(policy.baseDelayMs);
  });

  it('refuses a Retry-After above the cap', () => {
    expect(retryDelay(0, 60_001, policy, high)).toBeUndefined();
    expect(retryDelay(0, 3_600_000, policy, low)).toBeUndefined();
    expect(retryDelay(0, 2_000, { ...policy, maxRetryAfterMs: 1_000 }, low)).toBeUndefined();
  });
});
