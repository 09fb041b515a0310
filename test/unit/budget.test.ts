// The run's request budget on a virtual clock: the rate in any one-second window, reads before
// writes, and a 429's pause and halving shared by every request.
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/api/errors.js';
import { type BudgetClock, RequestBudget } from '../../src/client/budget.js';

/** Timers that fire only when the test advances the clock. */
function virtualClock() {
  let time = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 0;
  const clock: BudgetClock = {
    now: () => time,
    setTimer: (fn, ms) => {
      const timer = { at: time + ms, fn, id: nextId++ };
      timers.push(timer);
      return timer.id;
    },
    clearTimer: (id) => {
      timers = timers.filter((timer) => timer.id !== id);
    },
  };
  const flush = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return {
    clock,
    now: () => time,
    /** Moves time forward in 1 ms steps, firing timers as they fall due. */
    async advance(ms: number) {
      const end = time + ms;
      while (time < end) {
        time += 1;
        const due = timers.filter((timer) => timer.at <= time);
        timers = timers.filter((timer) => timer.at > time);
        for (const timer of due) timer.fn();
        await flush();
      }
    },
    flush,
  };
}

/** Starts `count` requests of a kind; records when each was let through. */
function requests(budget: RequestBudget, count: number, kind: 'read' | 'write', now: () => number, log: { kind: string; at: number }[]) {
  return Array.from({ length: count }, () => budget.acquire(kind).then(() => log.push({ kind, at: now() })));
}

function maxInWindow(times: number[], windowMs: number): number {
  let best = 0;
  for (const start of times) best = Math.max(best, times.filter((t) => t >= start && t < start + windowMs).length);
  return best;
}

describe('RequestBudget', () => {
  it('lets at most N requests start in any one-second window, bursts included', async () => {
    const v = virtualClock();
    const budget = new RequestBudget(5, v.clock);
    const log: { kind: string; at: number }[] = [];
    requests(budget, 23, 'read', v.now, log);
    await v.flush();
    expect(log).toHaveLength(5); // the first five at once
    await v.advance(5000);
    expect(log).toHaveLength(23);
    expect(
      maxInWindow(
        log.map((entry) => entry.at),
        1000,
      ),
    ).toBe(5);
  });

  it('lets reads (status, results) go before writes (submissions) waiting at the same time', async () => {
    const v = virtualClock();
    const budget = new RequestBudget(2, v.clock);
    const log: { kind: string; at: number }[] = [];
    await Promise.all(requests(budget, 2, 'write', v.now, log)); // the window is full
    requests(budget, 3, 'write', v.now, log);
    requests(budget, 3, 'read', v.now, log);
    await v.advance(3500);
    expect(log.map((entry) => entry.kind)).toEqual(['write', 'write', 'read', 'read', 'read', 'write', 'write', 'write']);
  });

  it('a 429 without Retry-After pauses for the pause given (1 s by default; the CLI gives two retry base delays)', async () => {
    for (const [pauseMs, expected] of [
      [undefined, 1000],
      [40, 40],
    ] as const) {
      const v = virtualClock();
      const budget = new RequestBudget(10, v.clock, pauseMs);
      const log: { kind: string; at: number }[] = [];
      budget.penalize();
      requests(budget, 1, 'read', v.now, log);
      await v.advance(expected - 1);
      expect(log).toHaveLength(0);
      await v.advance(2);
      expect(log).toHaveLength(1);
    }
  });

  it('a 429 with Retry-After pauses every request for that long, then the rate is halved and grows back', async () => {
    const v = virtualClock();
    const budget = new RequestBudget(10, v.clock);
    const log: { kind: string; at: number }[] = [];
    budget.penalize(2000);
    expect(budget.currentLimit(v.now())).toBe(5);
    requests(budget, 12, 'read', v.now, log);
    await v.advance(1999);
    expect(log).toHaveLength(0);
    await v.advance(2);
    expect(log).toHaveLength(5);
    await v.advance(1002);
    expect(log).toHaveLength(10);
    // two seconds after the pause ended, one more a second; in ten, the full rate again
    expect(budget.currentLimit(v.now() + 10_000)).toBe(10);
    expect(budget.penalties).toBe(1);
  });

  it('many requests refused together halve the rate once, and without Retry-After pause 1 s', async () => {
    const v = virtualClock();
    const budget = new RequestBudget(16, v.clock);
    for (let i = 0; i < 8; i++) budget.penalize(undefined);
    expect(budget.currentLimit(v.now())).toBe(8);
    expect(budget.penalties).toBe(1);
    const log: { kind: string; at: number }[] = [];
    requests(budget, 1, 'write', v.now, log);
    await v.advance(999);
    expect(log).toHaveLength(0);
    await v.advance(2);
    expect(log).toHaveLength(1);
  });

  it('a waiting request is given up when its signal aborts', async () => {
    const v = virtualClock();
    const budget = new RequestBudget(1, v.clock);
    await budget.acquire('read');
    const controller = new AbortController();
    const waiting = budget.acquire('read', controller.signal);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(InterruptedError);
    // its turn is not lost: the next request goes when the window allows
    const log: { kind: string; at: number }[] = [];
    requests(budget, 1, 'read', v.now, log);
    await v.advance(1100);
    expect(log).toHaveLength(1);
    expect(log[0].at).toBeGreaterThanOrEqual(1000);
  });
});
