// The polling policy on its own (client/poll-policy.ts): each rule from plain facts, no loop, no clock.
// The loop that applies it, against a simulated service, is test/unit/scheduler.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError } from '../../src/api/errors.js';
import { POLL_MAX_MS, POLL_START_MS } from '../../src/api/limits.js';
import {
  isTransient,
  LAST_LOOK_MS,
  MIN_REQUEST_MS,
  nextInterval,
  pollSchedule,
  requestBound,
  retryAfterOf,
  sweepWidth,
} from '../../src/client/poll-policy.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const apiError = (status: number, headers: Record<string, string> = {}) =>
  ApiError.from(status, undefined, { method: 'GET', url: 'http://x/v1/evaluations/t/status', headers });

describe('the schedule (spec 4.10)', () => {
  it('starts at 3 s and backs off by 1.5 up to 15 s', () => {
    const schedule = pollSchedule();
    expect(schedule).toEqual({ startMs: POLL_START_MS, maxMs: POLL_MAX_MS, factor: 1.5 });
    const intervals = [schedule.startMs];
    for (let i = 0; i < 6; i++) intervals.push(nextInterval(intervals[intervals.length - 1], schedule));
    expect(intervals).toEqual([3000, 4500, 6750, 10125, 15000, 15000, 15000]);
  });

  it('a start above 15 s raises the maximum to it', () => {
    expect(pollSchedule(20_000)).toMatchObject({ startMs: 20_000, maxMs: 20_000 });
    expect(nextInterval(20_000, pollSchedule(20_000))).toBe(20_000);
  });

  it('property: an interval never shrinks, never passes the maximum, and reaches it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60_000 }), (start) => {
        const schedule = pollSchedule(start);
        let interval = start;
        for (let i = 0; i < 60; i++) {
          const next = nextInterval(interval, schedule);
          expect(next).toBeGreaterThanOrEqual(interval);
          expect(next).toBeLessThanOrEqual(schedule.maxMs);
          interval = next;
        }
        expect(interval).toBe(schedule.maxMs);
      }),
      { numRuns: propertyRuns(100), seed: propertySeed(33) },
    );
  });
});

describe('the sweep', () => {
  it('widens by one per task found final, up to the concurrency, and narrows to the head at an unfinished one', () => {
    expect(sweepWidth(1, true, 8)).toBe(2);
    expect(sweepWidth(8, true, 8)).toBe(8);
    expect(sweepWidth(6, false, 8)).toBe(1);
  });
});

describe('one status request', () => {
  it('is given up to the deadline, at least a second; a last look at the deadline, five seconds', () => {
    expect(requestBound(false, 60_000)).toBe(60_000);
    expect(requestBound(false, 10)).toBe(MIN_REQUEST_MS);
    expect(requestBound(false, Infinity)).toBe(2 ** 31 - 1);
    expect(requestBound(true, 60_000)).toBe(LAST_LOOK_MS);
  });

  it('a 408, a 429 and a 5xx are worth another look, with the Retry-After they carry; a 404, a 401 or a lost connection are not', () => {
    for (const status of [408, 429, 500, 502, 503]) expect(isTransient(apiError(status))).toBe(true);
    for (const status of [400, 401, 403, 404, 409]) expect(isTransient(apiError(status))).toBe(false);
    expect(isTransient(new ConnectionError('refused', false))).toBe(false);
    expect(isTransient(new Error('bug'))).toBe(false);
    expect(retryAfterOf(apiError(503, { 'retry-after': '10' }))).toBe(10_000);
    expect(retryAfterOf(apiError(503))).toBeUndefined();
    expect(retryAfterOf(new Error('x'))).toBeUndefined();
  });
});
