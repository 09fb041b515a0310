// The polling policy on its own (client/poll-policy.ts): each rule from plain facts, no loop, no clock.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POLL_MAX_MS } from '../../src/api/limits.js';
import { pollSchedule } from '../../src/client/poll.js';
import { finishEstimate, firstLook, nextLook, pollPolicy, requestBound, sentinelDue, watchdogAt } from '../../src/client/poll-policy.js';
import { QueueModel } from '../../src/client/queue-model.js';
import { propertyRuns, propertySeed } from './property-runs.js';

const policy = pollPolicy(pollSchedule());

function model(rate?: number, runMs = 3_000, measuredAt?: number): QueueModel {
  const m = new QueueModel(runMs);
  m.rate = rate;
  m.measuredAt = measuredAt;
  return m;
}

describe('the poll interval is set in one place', () => {
  it('the spec schedule drives the watchdog, the running look and the sentinel spacing', () => {
    expect(policy.watchdogMs).toBe(POLL_MAX_MS);
    expect(policy.runningEveryMs).toBe(POLL_MAX_MS);
    expect(policy.sentinelSpacingMs).toBe(POLL_MAX_MS);
    const slow = pollPolicy(pollSchedule(20_000));
    expect(slow.watchdogMs).toBe(20_000);
  });
});

describe('nextLook', () => {
  it('a running task is looked at when expected final, but at least every slowest poll', () => {
    const task = { queued: false, seen: { seenAt: 1_000, firstRunningAt: 1_000 }, weight: 1, notBefore: 4_000 };
    expect(nextLook(task, model(undefined, 3_000), policy, { isAnchor: false, ahead: false })).toBe(4_000);
    expect(nextLook(task, model(undefined, 60_000), policy, { isAnchor: false, ahead: false })).toBe(1_000 + POLL_MAX_MS);
  });

  it('a queued task whose queue never moved is looked at on the schedule', () => {
    const task = { queued: true, seen: { seenAt: 0, pos: 40, queuedAt: 0 }, weight: 1, notBefore: 3_000 };
    expect(nextLook(task, model(undefined), policy, { isAnchor: false, ahead: false })).toBe(3_000);
  });

  it('a queued task is looked at when its turn is expected; the anchor sooner, to measure the drain', () => {
    const task = { queued: true, seen: { seenAt: 0, pos: 101, queuedAt: 0 }, weight: 1, notBefore: 3_000 };
    const drained = model(0.001, 3_000, 0); // a position a second: 101 s to its turn, 3 s to run
    expect(nextLook(task, drained, policy, { isAnchor: false, ahead: false })).toBe(104_000);
    expect(nextLook(task, drained, policy, { isAnchor: true, ahead: false })).toBe(52_000);
    expect(nextLook(task, drained, policy, { isAnchor: true, ahead: true })).toBe(3_000);
  });

  it('property: never before notBefore; a running task never later than notBefore or a slowest poll after it was seen', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.nat(1e6),
        fc.nat(1e5),
        fc.nat(500),
        fc.option(fc.double({ min: 1e-6, max: 1, noNaN: true }), { nil: undefined }),
        fc.nat(1e6),
        fc.boolean(),
        (queued, seenAt, wait, pos, rate, runMs, isAnchor) => {
          const task = { queued, seen: { seenAt, pos: queued ? pos : undefined, queuedAt: seenAt }, weight: 1, notBefore: seenAt + wait };
          const at = nextLook(task, model(rate, runMs, rate === undefined ? undefined : seenAt), policy, { isAnchor, ahead: false });
          expect(at).toBeGreaterThanOrEqual(task.notBefore);
          if (!queued) expect(at).toBeLessThanOrEqual(Math.max(task.notBefore, seenAt + policy.runningEveryMs));
        },
      ),
      { numRuns: propertyRuns(300), seed: propertySeed(23) },
    );
  });
});

describe('firstLook', () => {
  it('behind a queued task whose queue was never seen moving: not until it moves', () => {
    expect(firstLook({ kind: 'queued', at: 0, pos: 5, weight: 1, between: 3 }, model(undefined), { ahead: false, sweepWidth: 1 })).toBe(
      Infinity,
    );
  });

  it('behind a queued task: after the queue drained to it and it ran', () => {
    expect(firstLook({ kind: 'queued', at: 0, pos: 5, weight: 1, between: 3 }, model(0.001, 2_000), { ahead: false, sweepWidth: 1 })).toBe(
      10_000,
    );
  });

  it('behind a task seen final: spaced by the drain rate, or now while the service is ahead', () => {
    const m = model(0.01);
    expect(firstLook({ kind: 'final', at: 5_000, between: 4 }, m, { ahead: false, sweepWidth: 8 })).toBe(5_400);
    expect(firstLook({ kind: 'final', at: 5_000, between: 4 }, m, { ahead: true, sweepWidth: 8 })).toBe(5_000);
    expect(firstLook({ kind: 'none' }, m, { ahead: false, sweepWidth: 1 })).toBe(-Infinity);
  });

  it('finishEstimate of a running task counts from when it started', () => {
    expect(finishEstimate({ queued: false, seen: { seenAt: 9_000, startAt: 2_000 }, weight: 1 }, model(undefined, 3_000))).toBe(9_000);
    expect(finishEstimate({ queued: false, seen: { seenAt: 3_000, startAt: 2_000 }, weight: 1 }, model(undefined, 3_000))).toBe(5_000);
  });
});

describe('the sentinel, the watchdog and request bounds', () => {
  it('the sentinel looks only when the queue moved, nothing is followed, the estimate is stale, and not twice within its spacing', () => {
    const stale = model(0.01, 3_000, 0);
    const context = { now: 100_000, lastSentinelAt: -Infinity, hasAnchor: false, ahead: false };
    expect(sentinelDue(stale, policy, context)).toBe(true);
    expect(sentinelDue(model(undefined), policy, context)).toBe(false);
    expect(sentinelDue(stale, policy, { ...context, hasAnchor: true })).toBe(false);
    expect(sentinelDue(model(0.01, 3_000, 90_000), policy, context)).toBe(false);
    expect(sentinelDue(stale, policy, { ...context, lastSentinelAt: 100_000 - policy.sentinelSpacingMs + 1 })).toBe(false);
  });

  it('the watchdog waits a slowest poll after the last look, and never before a Retry-After', () => {
    expect(watchdogAt(10_000, 0, policy)).toBe(10_000 + policy.watchdogMs);
    expect(watchdogAt(10_000, 60_000, policy)).toBe(60_000);
  });

  it('a last look is short; any other request gets until the deadline, at least a second', () => {
    expect(requestBound(true, 90_000, policy)).toBe(policy.lastLookMs);
    expect(requestBound(false, 90_000, policy)).toBe(90_000);
    expect(requestBound(false, 10, policy)).toBe(policy.minRequestMs);
  });
});
