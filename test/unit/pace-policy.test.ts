// The pace policy on its own (client/pace-policy.ts): each rule from plain answers at plain times.
// The budget that applies it, under generated traffic, is test/unit/budget.test.ts.
import { describe, expect, it } from 'vitest';
import {
  answered,
  CUBIC_C,
  CUT,
  cubic,
  DEFAULT_PAUSE_MS,
  HEADROOM,
  MEASURE_MS,
  MIN_RPS,
  nextStart,
  type Pace,
  PROMPT_MS,
  START_RPS,
  started,
  startPace,
} from '../../src/client/pace-policy.js';

/** Sends at the pace for `ms`, every answer prompt; returns the time reached. */
function sendAtPace(pace: Pace, from: number, ms: number, answer = { latencyMs: 20, refused: false }): number {
  let now = from;
  let last = -Infinity;
  while (now < from + ms) {
    now = Math.max(now, nextStart(pace, last));
    started(pace, now);
    last = now;
    answered(pace, now, answer);
    now += 0.001;
  }
  return now;
}

describe('the pace', () => {
  it('starts modest without --max-rps, at --max-rps with it', () => {
    expect(startPace().rate).toBe(START_RPS);
    expect(startPace(3).rate).toBe(3);
    expect(startPace(250).rate).toBe(250);
    expect(() => startPace(0)).toThrow(RangeError);
  });

  it('spaces requests by the pace and holds them during a pause', () => {
    const pace = startPace(Infinity, 0);
    expect(nextStart(pace, 1000)).toBe(1000 + 1000 / START_RPS);
    answered(pace, 1000, { latencyMs: 5, refused: true, retryAfterMs: 3000 });
    expect(nextStart(pace, 1000)).toBe(4000);
  });

  it('nearly doubles every bucket while prompt answers come and the pace is used (slow start); climbs back after a cut, never past the ceiling', () => {
    const free = startPace(Infinity, 0);
    sendAtPace(free, 0, 10 * MEASURE_MS);
    expect(free.rate).toBeGreaterThan(START_RPS * 2 ** 5);
    const capped = startPace(25, 0);
    answered(capped, 0, { latencyMs: 5, refused: true, retryAfterMs: 0 });
    expect(capped.rate).toBeLessThan(25);
    sendAtPace(capped, 0, 20_000);
    expect(capped.rate).toBe(25);
  });

  it('between buckets, while requests wait for their turn, each prompt answer adds a request per its round trip, at most doubling the pace (TCP)', () => {
    const pace = startPace(Infinity, 0);
    const answer = (now: number, latencyMs: number, waiting = true) => {
      answered(pace, now, { latencyMs, refused: false, waiting });
      return pace.rate;
    };
    // 1000/20 = 50 a second more each answer, held to twice the pace
    expect([answer(20, 20), answer(21, 20), answer(22, 20), answer(23, 20)]).toEqual([20, 40, 80, 130]);
    // none waiting (--jobs holds the run back): the answer raises nothing
    expect(answer(24, 20, false)).toBe(130);
    // a loopback's round trip counts as 5 ms: 200 a second more at most
    expect([answer(25, 0.2), answer(26, 0.2)]).toEqual([260, 460]);
  });

  it('does not rise past twice what is really sent: a run held back elsewhere banks no burst', () => {
    const pace = startPace(Infinity, 0);
    // one request a second, every answer prompt, for a minute; then 20 a second (held back by --jobs) for a minute
    for (let now = 0; now < 60_000; now += 1000) {
      started(pace, now);
      answered(pace, now + 10, { latencyMs: 10, refused: false });
    }
    expect(pace.rate).toBe(START_RPS);
    for (let now = 60_000; now < 120_000; now += 50) {
      started(pace, now);
      answered(pace, now + 10, { latencyMs: 10, refused: false });
    }
    expect(pace.rate).toBeGreaterThan(20);
    expect(pace.rate).toBeLessThanOrEqual(HEADROOM * 20 + 1);
  });

  it('a slow answer stops the rise: the pace holds, then climbs only slowly', () => {
    const pace = startPace(Infinity, 0);
    const now = sendAtPace(pace, 0, 2000);
    const before = pace.rate;
    answered(pace, now, { latencyMs: PROMPT_MS + 1, refused: false });
    expect(pace.rate).toBe(before);
    sendAtPace(pace, now, 1000);
    expect(pace.rate).toBeLessThan(before * 1.1);
  });

  it('a 429 cuts the pace at once to 0.7 of what was sent, pauses for Retry-After, and many refused together cut once', () => {
    const pace = startPace(Infinity, 0);
    const now = sendAtPace(pace, 0, 3000);
    const sending = Math.min(pace.rate, pace.sending);
    answered(pace, now, { latencyMs: 5, refused: true, retryAfterMs: 2000 });
    expect(pace.rate).toBeCloseTo(sending * CUT);
    for (let i = 0; i < 10; i++) answered(pace, now + i, { latencyMs: 5, refused: true, retryAfterMs: 2000 });
    expect(pace.cuts).toBe(1);
    expect(pace.refusals).toBe(11);
    expect(pace.pausedUntil).toBe(now + 9 + 2000);
  });

  it('without a Retry-After, a refusal pauses for the default (or the given) pause', () => {
    const pace = startPace(Infinity, 0);
    answered(pace, 100, { latencyMs: 5, refused: true });
    expect(pace.pausedUntil).toBe(100 + DEFAULT_PAUSE_MS);
    answered(pace, 5000, { latencyMs: 5, refused: true, pauseMs: 40 });
    expect(pace.pausedUntil).toBe(5040);
  });

  it('never cuts below the floor', () => {
    const pace = startPace(Infinity, 0);
    for (let i = 0; i < 50; i++) answered(pace, i * 10_000, { latencyMs: 5, refused: true, retryAfterMs: 0 });
    expect(pace.rate).toBe(MIN_RPS);
  });

  it('after a cut, climbs back on the CUBIC curve: to the old peak in a few seconds, past it slowly', () => {
    expect(cubic(50, 0)).toBeCloseTo(50 * CUT);
    const k = Math.cbrt((50 * (1 - CUT)) / CUBIC_C);
    expect(cubic(50, k)).toBeCloseTo(50);
    expect(cubic(50, k + 2)).toBeCloseTo(50 + CUBIC_C * 8);
  });

  it('measures what is really sent over buckets of MEASURE_MS', () => {
    const pace = startPace(Infinity, 0);
    for (let now = 0; now <= 2 * MEASURE_MS; now += 10) started(pace, now);
    expect(pace.sending).toBeGreaterThan(80);
    expect(pace.sending).toBeLessThanOrEqual(100);
  });
});
