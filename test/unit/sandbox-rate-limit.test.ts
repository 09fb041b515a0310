// The sandbox's per-key token buckets (kct sandbox --rate-limit) on their own, on a clock the
// test moves: what a key may send in any window, and a Retry-After that is honest.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../packages/sandbox/src/http/rate-limit.js';
import { propertyRuns, propertySeed } from './property-runs.js';

function clocked(rate: number) {
  let now = 0;
  const buckets = new TokenBuckets(rate, { clock: () => now });
  return {
    buckets,
    at(ms: number) {
      now = ms;
    },
  };
}

describe('TokenBuckets', () => {
  it('admits one second of requests at once, then one every 1/n s; Retry-After is whole seconds', () => {
    const { buckets, at } = clocked(5);
    expect(buckets.burst).toBe(5);
    for (let i = 0; i < 5; i++) expect(buckets.take('a')).toBe(0);
    expect(buckets.take('a')).toBe(1);
    at(199);
    expect(buckets.take('a')).toBe(1);
    at(200);
    expect(buckets.take('a')).toBe(0);
    // another key has its own bucket
    expect(buckets.take('b')).toBe(0);
  });

  it('below one request a second: a bucket of one, and Retry-After the seconds to the next token', () => {
    const { buckets, at } = clocked(0.25);
    expect(buckets.burst).toBe(1);
    expect(buckets.take(7)).toBe(0);
    expect(buckets.take(7)).toBe(4);
    at(2_500);
    expect(buckets.take(7)).toBe(2);
    at(4_000);
    expect(buckets.take(7)).toBe(0);
  });

  it('refuses rates it cannot hold', () => {
    for (const rate of [0, -1, 0.0004, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => new TokenBuckets(rate)).toThrow(RangeError);
  });

  it('property: no key gets more than burst + n*t in any window of t seconds; Retry-After is an integer >= 1, honest and no longer than one token takes', () => {
    const step = fc.record({ key: fc.nat(2), gapMs: fc.oneof(fc.nat(20), fc.nat(3_000)), honour: fc.boolean() });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), fc.array(step, { minLength: 1, maxLength: 300 }), (milli, steps) => {
        const rate = milli / 1000;
        const { buckets, at } = clocked(rate);
        let now = 0;
        const admitted: number[][] = [[], [], []];
        const told = new Map<number, number>(); // key -> the time its last Retry-After named
        for (const { key, gapMs, honour } of steps) {
          now += gapMs;
          const due = told.get(key);
          // honour: wait exactly as told (or longer, if the clock is already past it)
          if (honour && due !== undefined) now = Math.max(now, due);
          at(now);
          const retryAfter = buckets.take(key);
          if (honour && due !== undefined) expect(retryAfter, `a request at ${now} ms, as told by Retry-After`).toBe(0);
          told.delete(key);
          if (retryAfter === 0) {
            admitted[key]!.push(now);
            continue;
          }
          expect(Number.isInteger(retryAfter)).toBe(true);
          expect(retryAfter).toBeGreaterThanOrEqual(1);
          expect(retryAfter).toBeLessThanOrEqual(Math.max(1, Math.ceil(1 / rate)));
          told.set(key, now + retryAfter * 1000);
        }
        for (const times of admitted) {
          // the windows that matter start and end at admitted requests: count <= burst + n*t,
          // in millionths of a token (n*t = milli * ms / 1e6 tokens)
          for (let i = 0; i < times.length; i++)
            for (let j = i; j < times.length; j++) {
              const count = j - i + 1;
              expect((count - buckets.burst) * 1_000_000).toBeLessThanOrEqual(milli * (times[j]! - times[i]!));
            }
        }
      }),
      { numRuns: propertyRuns(200), seed: propertySeed(34) },
    );
  });
});
