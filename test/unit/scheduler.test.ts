// The polling loop against a simulated service (a FIFO queue with W workers, each task running
// R ms), on a virtual clock: what it polls, how often, and how late it notices the last task.
// Deterministic: no real time passes, so these are counts of a simulation, not timings. The
// oracles are also properties over generated services, deadlines and failures (the last block).
import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import type { StatusSnapshot } from '../../src/api/schemas.js';
import { nextInterval, pollSchedule, type StatusFetcher, TaskScheduler } from '../../src/client/poll.js';
import { propertyRuns, propertySeed } from './property-runs.js';

function fakeClock() {
  let time = 0;
  return {
    now: () => time,
    sleep: async (ms: number) => {
      time += ms;
    },
    advance: (ms: number) => {
      time += ms;
    },
  };
}

/**
 * A FIFO service: tasks arrive when added (others' tasks may be ahead of them), W workers take
 * them in order, each runs `runMs`. Answers status snapshots as the sandbox does: QUEUED with a
 * 1-based position and the queue's length, PROGRESS while running, SUCCESS once done.
 */
class SimulatedService {
  private readonly arrivals = new Map<string, number>();
  private readonly order: string[] = [];
  private starts?: Map<string, { start: number; end: number }>;
  readonly polls = new Map<string, number[]>();

  constructor(
    private readonly clock: { now: () => number },
    private readonly workers: number,
    private readonly runMs: (id: string) => number,
  ) {}

  arrive(id: string, at = this.clock.now()): void {
    this.arrivals.set(id, at);
    this.order.push(id);
    this.starts = undefined;
  }

  /** Start and end of every task, in arrival order, W at a time. */
  schedule(): Map<string, { start: number; end: number }> {
    if (this.starts) return this.starts;
    const free = Array.from({ length: this.workers }, () => 0);
    const starts = new Map<string, { start: number; end: number }>();
    for (const id of this.order) {
      free.sort((a, b) => a - b);
      const start = Math.max(free[0], this.arrivals.get(id)!);
      const end = start + this.runMs(id);
      free[0] = end;
      starts.set(id, { start, end });
    }
    this.starts = starts;
    return starts;
  }

  lastEnd(ids: string[]): number {
    return Math.max(...ids.map((id) => this.schedule().get(id)!.end));
  }

  fetcher: StatusFetcher = async (id) => {
    const now = this.clock.now();
    this.polls.set(id, [...(this.polls.get(id) ?? []), now]);
    const { start, end } = this.schedule().get(id)!;
    if (now >= end) return { snapshot: { task_id: id, status: 'SUCCESS', stage: 'completed' } };
    if (now >= start) return { snapshot: { task_id: id, status: 'PROGRESS', stage: 'processing' } };
    const waiting = this.order.filter((other) => this.arrivals.get(other)! <= now && this.schedule().get(other)!.start > now);
    return { snapshot: { task_id: id, status: 'QUEUED', stage: 'queued', position: waiting.indexOf(id) + 1, length: waiting.length } };
  };

  totalPolls(ids: string[]): number {
    return ids.reduce((sum, id) => sum + (this.polls.get(id)?.length ?? 0), 0);
  }
}

interface Finished {
  id: string;
  at: number;
  snapshot: StatusSnapshot;
}

function watchAll(
  service: SimulatedService,
  clock: ReturnType<typeof fakeClock>,
  ids: string[],
  options: { timeoutMs?: number; firstPollIn?: number; weight?: number } = {},
) {
  const finished: Finished[] = [];
  const timedOut: string[] = [];
  return new Promise<{ finished: Finished[]; timedOut: string[] }>((resolve, reject) => {
    let left = ids.length;
    const settle = () => {
      if (--left === 0) resolve({ finished, timedOut });
    };
    const scheduler = new TaskScheduler(
      service.fetcher,
      {
        timeoutMs: options.timeoutMs ?? 24 * 3600_000,
        schedule: pollSchedule(),
        now: clock.now,
        sleep: clock.sleep,
      },
      {
        onFinal: (_tag, snapshot, id) => {
          finished.push({ id, at: clock.now(), snapshot });
          settle();
        },
        onError: (_tag, error) => reject(error),
        onTimeout: (_tag, id) => {
          timedOut.push(id);
          settle();
        },
      },
    );
    ids.forEach((id, index) => scheduler.add(id, index, { firstPollIn: options.firstPollIn ?? 3000, weight: options.weight }));
  });
}

/** The spec's rule, as the upper bound of frequency: never two polls of one task less than 3 s apart. */
function expectSpacing(service: SimulatedService): void {
  for (const times of service.polls.values()) {
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(3000);
  }
}

/** A whole run watched cheaply and promptly: every task final, at most 2 polls a task on average, the last one noticed within 15 s, spacing kept. */
function expectCheapAndPrompt(service: SimulatedService, ids: string[], finished: { at: number }[]): void {
  expect(finished).toHaveLength(ids.length);
  expect(service.totalPolls(ids) / ids.length).toBeLessThanOrEqual(2);
  expect(Math.max(...finished.map((f) => f.at)) - service.lastEnd(ids)).toBeLessThanOrEqual(15_000);
  expectSpacing(service);
}

/** A fake clock and a simulated service with `count` tasks t0, t1… queued in order, behind `ahead`. */
function queuedService(workers: number, runMs: (id: string) => number, count: number, ahead: string[] = []) {
  const clock = fakeClock();
  const service = new SimulatedService(clock, workers, runMs);
  const ids = Array.from({ length: count }, (_, i) => `t${i}`);
  for (const id of [...ahead, ...ids]) service.arrive(id);
  return { clock, service, ids };
}

describe('TaskScheduler against a simulated FIFO service', () => {
  it.each([
    {
      name: 'a backlog of 1,000 tasks on 4 workers (2 s each): at most 2 polls a task on average, the last one noticed within 15 s',
      workers: 4,
      runMs: 2000,
      count: 1000,
    },
    // every unfinished task on the spec's schedule would be ~3,000 s / 15 s each: 100 polls a task
    {
      name: 'a slow service (40 workers, 60 s a task, 2,000 tasks) is polled about once a task, not every 15 s',
      workers: 40,
      runMs: 60_000,
      count: 2000,
    },
  ])('$name', async ({ workers, runMs, count }) => {
    const { clock, service, ids } = queuedService(workers, () => runMs, count);
    const { finished } = await watchAll(service, clock, ids);
    expectCheapAndPrompt(service, ids, finished);
  });

  it('run times that vary (exponential, mean 2 s, seeded) and finish out of order: still about once a task, the last one within 15 s', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const times = new Map<string, number>();
    const { clock, service, ids } = queuedService(4, (id) => times.get(id)!, 1000);
    for (const id of ids) times.set(id, -Math.log(1 - random()) * 2000);
    const { finished } = await watchAll(service, clock, ids);
    expectCheapAndPrompt(service, ids, finished);
  });

  it('a queue that speeds up after a slow start: kct catches up, not at the old pace', async () => {
    // the first 40 tasks take 1 s each on one worker, then the other 1,960 take 5 ms
    const { clock, service, ids } = queuedService(1, (id) => (Number(id.slice(1)) < 40 ? 1000 : 5), 2000);
    const { finished } = await watchAll(service, clock, ids);
    expect(finished).toHaveLength(2000);
    expect(Math.max(...finished.map((f) => f.at)) - service.lastEnd(ids)).toBeLessThanOrEqual(15_000);
    expect(service.totalPolls(ids) / ids.length).toBeLessThanOrEqual(1.5);
    expectSpacing(service);
  });

  it("tasks behind a queued head are not polled until the head moves; the head is, on the spec's schedule", async () => {
    // one worker, busy with someone else's task for 100 s
    const { clock, service, ids } = queuedService(1, (id) => (id === 'other' ? 100_000 : 1000), 20, ['other']);
    const { finished } = await watchAll(service, clock, ids);
    expect(finished).toHaveLength(20);
    // while the head stood still (0 to 100 s), only the first task was looked at
    for (const id of ids.slice(1)) expect((service.polls.get(id) ?? []).every((time) => time >= 100_000)).toBe(true);
    const headPolls = service.polls.get('t0')!.filter((time) => time < 100_000);
    expect(headPolls.length).toBeGreaterThan(0);
    expect(headPolls.length).toBeLessThanOrEqual(100_000 / 15_000 + 4);
    expectSpacing(service);
  });

  it('at the deadline, tasks still far back in the queue time out without a last look', async () => {
    const { clock, service, ids } = queuedService(1, (id) => (id === 'other' ? 3_600_000 : 1000), 50, ['other']);
    const { timedOut } = await watchAll(service, clock, ids, { timeoutMs: 60_000 });
    expect(timedOut).toHaveLength(50);
    // the head of kct's tasks was watched; the 49 behind it were never polled, not even at the deadline
    expect(service.polls.get('t0')!.length).toBeGreaterThan(0);
    expect([...service.polls].filter(([id]) => id !== 't0')).toEqual([]);
  });

  it('a head seen queued that then answers 404 holds back nobody: the tasks behind it are looked at on their schedule', async () => {
    const clock = fakeClock();
    const polls: string[] = [];
    const fetcher: StatusFetcher = async (id) => {
      polls.push(`${id}@${clock.now()}`);
      if (id === 'a' && clock.now() >= 3000)
        throw ApiError.from(404, undefined, { method: 'GET', url: 'http://x/v1/evaluations/a/status' });
      return { snapshot: { task_id: id, status: id === 'a' ? 'QUEUED' : 'SUCCESS', position: 1 } };
    };
    const told: string[] = [];
    await new Promise<void>((resolve) => {
      const scheduler = new TaskScheduler(
        fetcher,
        { timeoutMs: 3600_000, now: clock.now, sleep: clock.sleep },
        {
          onFinal: (_tag, _snapshot, id) => told.push(`${id} final`) === 3 && resolve(),
          onError: (_tag, error, id) => told.push(`${id} ${(error as ApiError).status}`) === 3 && resolve(),
          onTimeout: () => resolve(),
        },
      );
      for (const [index, id] of ['a', 'b', 'c'].entries()) scheduler.add(id, index);
    });
    expect(told).toEqual(['a 404', 'b final', 'c final']);
    expect(polls).toEqual(['a@0', 'a@3000', 'b@3000', 'c@3000']);
  });

  it('a batch (a task weighing its items) is followed like any task, promptly and on the schedule', async () => {
    const clock = fakeClock();
    // 10 batches of 100 items, as 10 tasks that each run 100 items' time
    const service = new SimulatedService(clock, 1, () => 100 * 50);
    const ids = Array.from({ length: 10 }, (_, i) => `b${i}`);
    for (const id of ids) service.arrive(id);
    const { finished } = await watchAll(service, clock, ids, { weight: 100 });
    expect(finished).toHaveLength(10);
    expect(Math.max(...finished.map((f) => f.at)) - service.lastEnd(ids)).toBeLessThanOrEqual(15_000);
    expectSpacing(service);
  });

  it('keeps up with tasks added while it runs (a run that submits and waits at once)', async () => {
    const clock = fakeClock();
    const service = new SimulatedService(clock, 4, () => 1500);
    const ids: string[] = [];
    const finished: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const scheduler = new TaskScheduler(
        service.fetcher,
        { timeoutMs: 3600_000, schedule: pollSchedule(), now: clock.now, sleep: clock.sleep },
        {
          onFinal: (_tag, _snapshot, id) => {
            finished.push(id);
            if (finished.length === 300) resolve();
          },
          onError: (_tag, error) => reject(error),
          onTimeout: (_tag, id) => reject(new Error(`timed out: ${id}`)),
        },
      );
      // 300 submissions at 20 a second
      let next = 0;
      const submit = () => {
        for (let i = 0; i < 20 && next < 300; i++, next++) {
          const id = `t${next}`;
          ids.push(id);
          service.arrive(id);
          scheduler.add(id, next, { firstPollIn: 3000 });
        }
        if (next < 300)
          setImmediate(() => {
            clock.advance(1000);
            submit();
          });
      };
      submit();
    });
    expect(finished).toHaveLength(300);
    expect(service.totalPolls(ids) / ids.length).toBeLessThanOrEqual(2);
    expectSpacing(service);
  });
});

describe("the run's signal", () => {
  it('is listened to once per run, not once per poll or pause: nothing is left on it after 500 tasks, and no AbortSignal.any() is made', async () => {
    const any = vi.spyOn(AbortSignal, 'any');
    try {
      const controller = new AbortController();
      const before = getEventListeners(controller.signal, 'abort').length;
      const { clock, service, ids } = queuedService(4, () => 2000, 500);
      const settled = await new Promise<number>((resolve, reject) => {
        let left = ids.length;
        const scheduler = new TaskScheduler(
          service.fetcher,
          { timeoutMs: 3600_000, schedule: pollSchedule(), now: clock.now, sleep: clock.sleep, signal: controller.signal },
          {
            onFinal: () => --left === 0 && resolve(ids.length),
            onError: (_tag, error) => reject(error),
            onTimeout: (_tag, id) => reject(new Error(`${id} timed out`)),
          },
        );
        ids.forEach((id, index) => scheduler.add(id, index, { firstPollIn: 3000 }));
      });
      expect(settled).toBe(500);
      expect(service.totalPolls(ids)).toBeGreaterThanOrEqual(500);
      expect(any).not.toHaveBeenCalled();
      // the loop ends on the turn after the last task's handler
      for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(before);
    } finally {
      any.mockRestore();
    }
  });

  it('aborting it aborts the polls in flight: every task is told it was interrupted, and no listener is left', async () => {
    const controller = new AbortController();
    const given: AbortSignal[] = [];
    const hanging: StatusFetcher = (_id, signal) =>
      new Promise((_resolve, reject) => {
        given.push(signal!);
        signal!.addEventListener('abort', () => reject(signal!.reason), { once: true });
      });
    const errors: unknown[] = [];
    const done = new Promise<void>((resolve) => {
      const scheduler = new TaskScheduler(
        hanging,
        { timeoutMs: 3600_000, schedule: pollSchedule(), signal: controller.signal },
        {
          onFinal: () => undefined,
          onError: (_tag, error) => {
            errors.push(error);
            if (errors.length === 3) resolve();
          },
          onTimeout: () => undefined,
        },
      );
      for (const [index, id] of ['a', 'b', 'c'].entries()) scheduler.add(id, index, { firstPollIn: 0 });
    });
    while (given.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('Ctrl-C'));
    await done;
    expect(given.every((signal) => signal.aborted)).toBe(true);
    expect(errors.map((e) => (e as Error).name)).toEqual(['InterruptedError', 'InterruptedError', 'InterruptedError']);
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('the oracles, over generated services (properties)', () => {
  /** A generated run: a FIFO service, tasks added at once (some behind others' work), some answering 404, a deadline. */
  const run = fc.record({
    workers: fc.integer({ min: 1, max: 40 }),
    meanRunMs: fc.integer({ min: 5, max: 30_000 }),
    exponential: fc.boolean(),
    count: fc.integer({ min: 1, max: 150 }),
    aheadMs: fc.constantFrom(0, 0, 20_000, 90_000),
    firstPollIn: fc.constantFrom(0, 3000),
    timeoutMs: fc.constantFrom(24 * 3600_000, 24 * 3600_000, 30_000, 120_000),
    gone: fc.array(fc.nat(149), { maxLength: 3 }),
    seed: fc.integer(),
  });

  type Run = typeof run extends fc.Arbitrary<infer T> ? T : never;

  async function simulate(r: Run) {
    let seed = r.seed >>> 0 || 1;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const times = new Map<string, number>();
    const runMs = (id: string) => times.get(id) ?? r.aheadMs;
    const { clock, service, ids } = queuedService(r.workers, runMs, r.count, r.aheadMs > 0 ? ['other'] : []);
    for (const id of ids) times.set(id, r.exponential ? -Math.log(1 - random()) * r.meanRunMs : r.meanRunMs);
    const gone = new Set(r.gone.filter((i) => i < r.count).map((i) => `t${i}`));
    const notFound = ApiError.from(404, undefined, { method: 'GET', url: 'http://x/v1/evaluations/t/status' });
    const fetcher: StatusFetcher = async (id, signal) => {
      if (gone.has(id)) {
        service.polls.set(id, [...(service.polls.get(id) ?? []), clock.now()]);
        throw notFound;
      }
      return service.fetcher(id, signal);
    };
    const outcomes = new Map<string, { kind: string; at: number; count: number }>();
    const told = (kind: string, id: string) => outcomes.set(id, { kind, at: clock.now(), count: (outcomes.get(id)?.count ?? 0) + 1 });
    await new Promise<void>((resolve) => {
      let left = r.count;
      const settle = (kind: string, id: string) => {
        told(kind, id);
        if (--left === 0) resolve();
      };
      const scheduler = new TaskScheduler(
        fetcher,
        { timeoutMs: r.timeoutMs, now: clock.now, sleep: clock.sleep },
        {
          onFinal: (_tag, _snapshot, id) => settle('final', id),
          onError: (_tag, error, id) => settle(error === notFound ? '404' : `error ${String(error)}`, id),
          onTimeout: (_tag, id) => settle('timeout', id),
        },
      );
      ids.forEach((id, index) => scheduler.add(id, index, { firstPollIn: r.firstPollIn }));
    });
    return { service, ids, outcomes, gone };
  }

  it("every task is told exactly once, at or before its deadline: final only once the service finished it, a 404 as that task's error, a time-out only at the deadline", async () => {
    await fc.assert(
      fc.asyncProperty(run, async (r) => {
        const { service, ids, outcomes, gone } = await simulate(r);
        for (const id of ids) {
          const outcome = outcomes.get(id)!;
          expect(outcome.count).toBe(1);
          expect(outcome.at).toBeLessThanOrEqual(r.timeoutMs);
          // a task that answers 404 is told so, unless its deadline came before its first look
          if (gone.has(id)) expect(['404', 'timeout']).toContain(outcome.kind);
          else if (outcome.kind === 'final') expect(outcome.at).toBeGreaterThanOrEqual(service.schedule().get(id)!.end);
          else expect([outcome.kind, outcome.at]).toEqual(['timeout', r.timeoutMs]);
        }
      }),
      { numRuns: propertyRuns(40), seed: propertySeed(331) },
    );
  });

  it("no task is polled more often than the spec's schedule (a last look at the deadline aside), nor before its first delay", async () => {
    await fc.assert(
      fc.asyncProperty(run, async (r) => {
        const { service } = await simulate(r);
        const schedule = pollSchedule();
        for (const times of service.polls.values()) {
          expect(times[0]).toBeGreaterThanOrEqual(Math.min(r.firstPollIn, r.timeoutMs));
          let interval = schedule.startMs;
          for (let i = 1; i < times.length; i++) {
            if (times[i] !== r.timeoutMs) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(interval);
            interval = nextInterval(interval, schedule);
          }
        }
      }),
      { numRuns: propertyRuns(40), seed: propertySeed(332) },
    );
  });

  it('the last task is noticed within one slowest interval (15 s) of the service finishing it', async () => {
    await fc.assert(
      fc.asyncProperty(
        run.filter((r) => r.timeoutMs > 3600_000),
        async (r) => {
          const { service, ids, outcomes, gone } = await simulate(r);
          const followed = ids.filter((id) => !gone.has(id));
          if (followed.length === 0) return;
          const lastNoticed = Math.max(...followed.map((id) => outcomes.get(id)!.at));
          expect(lastNoticed - Math.max(service.lastEnd(followed), r.firstPollIn)).toBeLessThanOrEqual(15_000);
        },
      ),
      { numRuns: propertyRuns(40), seed: propertySeed(333) },
    );
  });

  it('a service that keeps up (two tasks a second or more) costs at most 2 polls a task on average: with the submission and the result read, 4 requests an answer', async () => {
    await fc.assert(
      fc.asyncProperty(
        run.filter((r) => r.timeoutMs > 3600_000 && r.aheadMs === 0 && r.workers / r.meanRunMs >= 0.002 && r.count >= 20),
        async (r) => {
          const { service, ids } = await simulate({ ...r, gone: [] });
          expect(service.totalPolls(ids) / ids.length).toBeLessThanOrEqual(2);
        },
      ),
      { numRuns: propertyRuns(40), seed: propertySeed(334) },
    );
  });
});

describe('memory', () => {
  it('holds the tasks still watched, not every task ever added: finished ones are dropped as the run goes', async () => {
    const clock = fakeClock();
    const fetcher: StatusFetcher = async (id) => ({ snapshot: { task_id: id, status: 'SUCCESS' } });
    let largest = 0;
    let finished = 0;
    let added = 0;
    let mostWatched = 0;
    await new Promise<void>((resolve, reject) => {
      const scheduler = new TaskScheduler(
        fetcher,
        { timeoutMs: 3600_000, now: clock.now, sleep: clock.sleep },
        {
          onFinal: () => {
            largest = Math.max(largest, (scheduler as unknown as { tasks: unknown[] }).tasks.length);
            if (++finished === 20_000) resolve();
          },
          onError: (_tag, error) => reject(error),
          onTimeout: () => reject(new Error('timed out')),
        },
      );
      const more = () => {
        for (let i = 0; i < 4 && added < 20_000; i++, added++) scheduler.add(`t${added}`, added);
        mostWatched = Math.max(mostWatched, added - finished);
        if (added < 20_000) setImmediate(more);
      };
      more();
    });
    // what is held follows what is watched (plus up to 1,024 finished ones not yet dropped), not the 20,000 added
    expect(largest).toBeLessThanOrEqual(2 * mostWatched + 1025);
    expect(largest).toBeLessThan(5_000);
  });
});
