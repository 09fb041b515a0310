import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, InterruptedError, ServerStoppedAnsweringError, WatchTimeoutError } from '../../src/api/errors.js';
import type { StatusSnapshot } from '../../src/api/schemas.js';
import { isTransient, nextInterval, pollSchedule, type StatusFetcher, TaskPoller, watchTasks } from '../../src/client/poll.js';

/** A virtual clock: sleeping advances it at once. */
function fakeClock() {
  let time = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      time += ms;
    },
  };
}

type Clock = ReturnType<typeof fakeClock>;

/** A fetcher whose answer depends on the task and the virtual time; records when each task was polled. */
type Hinted = { snapshot: StatusSnapshot; retryAfterMs?: number };

function scripted(clock: Clock, answer: (id: string, time: number, count: number) => StatusSnapshot | Hinted) {
  const polls = new Map<string, number[]>();
  const fetcher: StatusFetcher = async (id) => {
    const times = polls.get(id) ?? [];
    times.push(clock.now());
    polls.set(id, times);
    const result = answer(id, clock.now(), times.length);
    return 'snapshot' in result ? (result as Hinted) : { snapshot: result };
  };
  return { fetcher, polls };
}

function apiError(status: number, headers: Record<string, string> = {}): ApiError {
  return ApiError.from(status, undefined, { method: 'GET', url: 'http://x/v1/evaluations/t/status', headers });
}

const running = (id: string): StatusSnapshot => ({ task_id: id, status: 'PROGRESS', stage: 'processing' });
const success = (id: string): StatusSnapshot => ({ task_id: id, status: 'SUCCESS', stage: 'completed' });

describe('pollSchedule and nextInterval', () => {
  it('starts at 3 s and backs off by 1.5 up to 15 s by default', () => {
    const schedule = pollSchedule();
    expect(schedule).toEqual({ startMs: 3000, maxMs: 15000, factor: 1.5 });
    const intervals = [schedule.startMs];
    for (let i = 0; i < 6; i++) intervals.push(nextInterval(intervals[intervals.length - 1], schedule));
    expect(intervals).toEqual([3000, 4500, 6750, 10125, 15000, 15000, 15000]);
  });

  it('accepts a custom start', () => {
    const schedule = pollSchedule(1000);
    expect(schedule.startMs).toBe(1000);
    expect(schedule.maxMs).toBe(15000);
    expect(nextInterval(1000, schedule)).toBe(1500);
  });

  it('raises the maximum to a start above it', () => {
    const schedule = pollSchedule(20_000);
    expect(schedule.maxMs).toBe(20_000);
    expect(nextInterval(20_000, schedule)).toBe(20_000);
  });
});

describe('watchTasks: schedule', () => {
  it('polls at 0, 3, 7.5, 14.25, 24.375, 39.375 s with the default schedule', async () => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id, _time, count) => (count < 7 ? running(id) : success(id)));
    const done = await watchTasks(fetcher, ['t1'], { timeoutMs: 600_000, now: clock.now, sleep: clock.sleep });
    expect(polls.get('t1')).toEqual([0, 3000, 7500, 14250, 24375, 39375, 54375]);
    expect(done.get('t1')?.status).toBe('SUCCESS');
  });

  it('uses a custom schedule', async () => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id, _time, count) => (count < 4 ? running(id) : success(id)));
    await watchTasks(fetcher, ['t1'], { timeoutMs: 60_000, schedule: pollSchedule(1000), now: clock.now, sleep: clock.sleep });
    expect(polls.get('t1')).toEqual([0, 1000, 2500, 4750]);
  });

  it('returns at once without polling for no tasks', async () => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id) => success(id));
    const done = await watchTasks(fetcher, [], { timeoutMs: 1000, now: clock.now, sleep: clock.sleep });
    expect(done.size).toBe(0);
    expect(polls.size).toBe(0);
  });

  it('polls a repeated id once per round', async () => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id, _time, count) => (count < 2 ? running(id) : success(id)));
    const done = await watchTasks(fetcher, ['a', 'a', 'a'], { timeoutMs: 60_000, now: clock.now, sleep: clock.sleep });
    expect(polls.get('a')).toEqual([0, 3000]);
    expect([...done.keys()]).toEqual(['a']);
  });

  it('shares one loop between many tasks, looking at a task when it may be final rather than on every beat', async () => {
    const clock = fakeClock();
    const ids = Array.from({ length: 200 }, (_, i) => `t${i}`);
    // every task runs from 0 to 12 s (a service with room for all of them at once)
    const { fetcher, polls } = scripted(clock, (id, time) => (time < 12_000 ? running(id) : success(id)));
    const done = await watchTasks(fetcher, ids, { timeoutMs: 600_000, now: clock.now, sleep: clock.sleep });
    expect(done.size).toBe(200);
    const totalPolls = [...polls.values()].reduce((sum, times) => sum + times.length, 0);
    // each task on the spec's own schedule would be 5 polls (0, 3, 7.5, 14.25 s...): 1,000
    expect(totalPolls).toBeLessThan(200 * 3);
    for (const times of polls.values()) {
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(3000);
    }
    // one timer at a time, not one per task
    expect(clock.sleeps.length).toBeLessThan(20);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const clock = fakeClock();
    let inFlight = 0;
    let peak = 0;
    const fetcher: StatusFetcher = async (id) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return { snapshot: success(id) };
    };
    const ids = Array.from({ length: 30 }, (_, i) => `t${i}`);
    const done = await watchTasks(fetcher, ids, { timeoutMs: 60_000, concurrency: 4, now: clock.now, sleep: clock.sleep });
    expect(done.size).toBe(30);
    expect(peak).toBe(4);
  });
});

describe('watchTasks: what is final', () => {
  it.each(['WEIRD', 'PENDING', 'QUEUED', 'PROGRESS', ''])('keeps polling on status %j', async (status) => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id, _time, count) => (count < 3 ? { task_id: id, status } : success(id)));
    await watchTasks(fetcher, ['t1'], { timeoutMs: 600_000, now: clock.now, sleep: clock.sleep });
    expect(polls.get('t1')).toHaveLength(3);
  });

  it.each(['SUCCESS', 'FAILURE', 'CANCEL', 'success'])('stops on status %s', async (status) => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id) => ({ task_id: id, status }));
    const done = await watchTasks(fetcher, ['t1'], { timeoutMs: 600_000, now: clock.now, sleep: clock.sleep });
    expect(polls.get('t1')).toHaveLength(1);
    expect(done.get('t1')?.status).toBe(status);
  });

  it('treats a stage-only snapshot {stage: "completed"} as final', async () => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (_id, _time, count) => (count < 2 ? { stage: 'processing' } : { stage: 'completed' }));
    const done = await watchTasks(fetcher, ['t1'], { timeoutMs: 600_000, now: clock.now, sleep: clock.sleep });
    expect(polls.get('t1')).toHaveLength(2);
    expect(done.get('t1')).toEqual({ stage: 'completed' });
  });

  it('reports each snapshot, marking unchanged ones', async () => {
    const clock = fakeClock();
    const { fetcher } = scripted(clock, (id, _time, count) => (count < 3 ? running(id) : success(id)));
    const updates: [string | undefined, boolean][] = [];
    await watchTasks(fetcher, ['t1'], {
      timeoutMs: 600_000,
      now: clock.now,
      sleep: clock.sleep,
      onUpdate: (s, changed) => updates.push([s.status, changed]),
    });
    expect(updates).toEqual([
      ['PROGRESS', true],
      ['PROGRESS', false],
      ['SUCCESS', true],
    ]);
  });
});

describe('watchTasks: deadline', () => {
  it('throws WatchTimeoutError naming only the unfinished tasks', async () => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id, _time, count) => (id === 'fast' && count >= 2 ? success(id) : running(id)));
    const error = await watchTasks(fetcher, ['fast', 'slow1', 'slow2'], { timeoutMs: 10_000, now: clock.now, sleep: clock.sleep }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WatchTimeoutError);
    expect((error as WatchTimeoutError).taskIds).toEqual(['slow1', 'slow2']);
    expect((error as WatchTimeoutError).message).toContain('slow1');
    // Never sleeps past the deadline; takes one last look at it.
    expect(clock.now()).toBe(10_000);
    // slow1 is looked at when the task ahead of it may be done, never more often than the spec's schedule
    expect(polls.get('slow1')).toEqual([3000, 6000, 10_000]);
  });

  it('reports a task that finishes exactly at the deadline as final', async () => {
    const clock = fakeClock();
    const { fetcher } = scripted(clock, (id, time) => (time >= 10_000 ? success(id) : running(id)));
    const done = await watchTasks(fetcher, ['t1'], { timeoutMs: 10_000, now: clock.now, sleep: clock.sleep });
    expect(done.get('t1')?.status).toBe('SUCCESS');
    expect(clock.now()).toBe(10_000);
  });

  it('keeps an unknown status like WEIRD running until the deadline', async () => {
    const clock = fakeClock();
    const { fetcher } = scripted(clock, (id) => ({ task_id: id, status: 'WEIRD' }));
    await expect(watchTasks(fetcher, ['w'], { timeoutMs: 5_000, now: clock.now, sleep: clock.sleep })).rejects.toBeInstanceOf(
      WatchTimeoutError,
    );
  });
});

describe('watchTasks: server hints and errors', () => {
  it('waits as long as retryAfterMs asks before the next poll', async () => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id, _time, count) =>
      count === 1 ? { snapshot: running(id), retryAfterMs: 20_000 } : count < 3 ? running(id) : success(id),
    );
    await watchTasks(fetcher, ['t1'], { timeoutMs: 600_000, now: clock.now, sleep: clock.sleep });
    expect(polls.get('t1')).toEqual([0, 20_000, 24_500]);
  });

  it('keeps watching through 503 and 429, telling onTransientError', async () => {
    const clock = fakeClock();
    const failures: [string, unknown][] = [];
    const busy = apiError(503, { 'retry-after': '10' });
    const limited = apiError(429);
    const fetcher: StatusFetcher = async (id) => {
      const time = clock.now();
      if (time === 0) throw limited;
      if (time === 3000) throw busy;
      return { snapshot: success(id) };
    };
    const done = await watchTasks(fetcher, ['t1'], {
      timeoutMs: 600_000,
      now: clock.now,
      sleep: clock.sleep,
      onTransientError: (id, error) => failures.push([id, error]),
    });
    expect(failures).toEqual([
      ['t1', limited],
      ['t1', busy],
    ]);
    expect(done.get('t1')?.status).toBe('SUCCESS');
    // The 503's Retry-After (10 s) is longer than the 4.5 s interval.
    expect(clock.now()).toBe(13_000);
  });

  it('treats 429 and 5xx as transient, other HTTP errors and connection errors not', () => {
    expect(isTransient(new ConnectionError('x', false))).toBe(false);
    for (const status of [408, 429, 500, 502, 503]) expect(isTransient(apiError(status))).toBe(true);
    for (const status of [400, 401, 403, 404, 409]) expect(isTransient(apiError(status))).toBe(false);
    expect(isTransient(new Error('bug'))).toBe(false);
  });

  it('keeps watching the other tasks when one gets a 404, then lets the 404 through', async () => {
    const clock = fakeClock();
    const notFound = apiError(404);
    const polls: string[] = [];
    const fetcher: StatusFetcher = async (id) => {
      polls.push(`${id}@${clock.now()}`);
      if (id === 'gone') throw notFound;
      return { snapshot: clock.now() >= 3000 ? success(id) : running(id) };
    };
    await expect(watchTasks(fetcher, ['gone', 'ok'], { timeoutMs: 60_000, now: clock.now, sleep: clock.sleep })).rejects.toBe(notFound);
    expect(polls).toEqual(['gone@0', 'ok@0', 'ok@3000']);
  });

  it('lets a 404 through', async () => {
    const clock = fakeClock();
    const notFound = apiError(404);
    const transient: unknown[] = [];
    const fetcher: StatusFetcher = async () => {
      throw notFound;
    };
    await expect(
      watchTasks(fetcher, ['gone'], {
        timeoutMs: 60_000,
        now: clock.now,
        sleep: clock.sleep,
        onTransientError: (_id, e) => transient.push(e),
      }),
    ).rejects.toBe(notFound);
    expect(transient).toEqual([]);
  });
});

describe('watchTasks: a server that stopped answering', () => {
  // The fetcher's ConnectionError comes after the HTTP layer's own retries (http.test.ts): the
  // retry budget is what a blip may last; after it, watching stops instead of polling until --timeout.
  it('stops at the first connection error, naming every task watched, long before the deadline', async () => {
    const clock = fakeClock();
    const refused = new ConnectionError(
      'cannot reach http://127.0.0.1:4010/v1 (connection refused) during GET /evaluations/a/status',
      false,
    );
    const polls: string[] = [];
    const fetcher: StatusFetcher = async (id) => {
      polls.push(`${id}@${clock.now()}`);
      if (clock.now() >= 3000) throw refused;
      return { snapshot: running(id) };
    };
    const transient: unknown[] = [];
    const error = await watchTasks(fetcher, ['a', 'b'], {
      timeoutMs: 1_800_000,
      now: clock.now,
      sleep: clock.sleep,
      concurrency: 1,
      onTransientError: (_id, e) => transient.push(e),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerStoppedAnsweringError);
    expect(error).toBeInstanceOf(ConnectionError); // exit code 9
    expect((error as ServerStoppedAnsweringError).taskIds).toEqual(['a', 'b']);
    expect((error as Error).message).toBe(
      'the server stopped answering while 2 tasks (a, b) were being watched: cannot reach http://127.0.0.1:4010/v1 (connection refused) during GET /evaluations/a/status',
    );
    expect((error as Error).cause).toBe(refused);
    // one refused poll, then nothing more: b (first looked at when a may be done) is not polled into the refusal too
    expect(polls).toEqual(['a@0', 'a@3000']);
    expect(clock.now()).toBe(3000);
    expect(transient).toEqual([]);
  });

  it('a server never reached (nothing answered this client) is not one that stopped answering: the connection keeps its advice', async () => {
    for (const before of [false, true]) {
      const clock = fakeClock();
      const refused = new ConnectionError('cannot reach http://127.0.0.1:9/v1 (connection refused)', false, { suggestion: 'Check it.' });
      const error = await watchTasks(
        async () => {
          throw refused;
        },
        ['a'],
        { timeoutMs: 60_000, now: clock.now, sleep: clock.sleep, reachedBefore: () => before },
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ServerStoppedAnsweringError); // exit 9 either way
      expect((error as ServerStoppedAnsweringError).reached).toBe(before);
      expect((error as Error).message).toBe(
        before
          ? 'the server stopped answering while task a was being watched: cannot reach http://127.0.0.1:9/v1 (connection refused)'
          : 'cannot watch task a: cannot reach http://127.0.0.1:9/v1 (connection refused)',
      );
      expect((error as ServerStoppedAnsweringError).suggestion).toBe(
        before
          ? 'The tasks keep their state on the server: once it answers, run the same command again (nothing is charged twice), or watch one with kct status a --watch.'
          : 'Check it.',
      );
    }
  });

  it('a task added after the server stopped answering is rejected at once, without a request', async () => {
    const clock = fakeClock();
    const polls: string[] = [];
    const fetcher: StatusFetcher = async (id) => {
      polls.push(id);
      throw new ConnectionError('cannot reach (connection refused)', false);
    };
    const poller = new TaskPoller(fetcher, { timeoutMs: 60_000, now: clock.now, sleep: clock.sleep });
    await expect(poller.watch('first')).rejects.toBeInstanceOf(ServerStoppedAnsweringError);
    const late = await poller.watch('later').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(late).toBeInstanceOf(ServerStoppedAnsweringError);
    expect((late as ServerStoppedAnsweringError).taskIds).toEqual(['later']);
    expect(polls).toEqual(['first']);
  });

  it('a 503 is the server answering: watching goes on', async () => {
    const clock = fakeClock();
    let n = 0;
    const fetcher: StatusFetcher = async (id) => {
      n += 1;
      if (n < 4) throw apiError(503);
      return { snapshot: success(id) };
    };
    await expect(watchTasks(fetcher, ['t1'], { timeoutMs: 600_000, now: clock.now, sleep: clock.sleep })).resolves.toHaveProperty(
      'size',
      1,
    );
    expect(n).toBe(4);
  });
});

describe('watchTasks: interruption', () => {
  it('throws InterruptedError for an aborted signal without polling', async () => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id) => success(id));
    await expect(
      watchTasks(fetcher, ['t1'], { timeoutMs: 60_000, signal: AbortSignal.abort(), now: clock.now, sleep: clock.sleep }),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(polls.size).toBe(0);
  });

  it('stops when the signal aborts between polls', async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    const { fetcher, polls } = scripted(clock, (id) => running(id));
    const onUpdate = () => controller.abort();
    await expect(
      watchTasks(fetcher, ['t1'], { timeoutMs: 60_000, signal: controller.signal, onUpdate, now: clock.now, sleep: clock.sleep }),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(polls.get('t1')).toHaveLength(1);
  });

  it('turns a sleep cut short by the signal into InterruptedError', async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    const { fetcher } = scripted(clock, (id) => running(id));
    const sleep = async () => {
      controller.abort();
      throw new Error('aborted');
    };
    await expect(
      watchTasks(fetcher, ['t1'], { timeoutMs: 60_000, signal: controller.signal, now: clock.now, sleep }),
    ).rejects.toBeInstanceOf(InterruptedError);
  });

  it('turns a fetch failing because of the abort into InterruptedError, even for a non-transient error', async () => {
    const clock = fakeClock();
    const controller = new AbortController();
    const fetcher: StatusFetcher = async () => {
      controller.abort();
      throw apiError(404);
    };
    await expect(
      watchTasks(fetcher, ['t1'], { timeoutMs: 60_000, signal: controller.signal, now: clock.now, sleep: clock.sleep }),
    ).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('TaskPoller', () => {
  /** A clock whose sleeps last until released, or until their signal aborts. */
  function manualClock() {
    let time = 0;
    const sleeps: number[] = [];
    let release: (() => void) | undefined;
    return {
      sleeps,
      now: () => time,
      sleep: (ms: number, signal?: AbortSignal) =>
        new Promise<void>((resolve, reject) => {
          sleeps.push(ms);
          release = () => {
            time += ms;
            resolve();
          };
          signal?.addEventListener('abort', () => reject(new Error('woken')), { once: true });
        }),
      release: () => release?.(),
    };
  }
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('watches a task added during a sleep in the same loop, first looking at it when the task ahead may be done', async () => {
    const clock = manualClock();
    const polls: string[] = [];
    const fetcher: StatusFetcher = async (id) => {
      polls.push(`${id}@${clock.now()}`);
      return { snapshot: clock.now() >= 3000 ? success(id) : running(id) };
    };
    const poller = new TaskPoller(fetcher, { timeoutMs: 60_000, now: clock.now, sleep: clock.sleep });
    const first = poller.watch('a');
    await settle();
    expect(polls).toEqual(['a@0']);
    expect(clock.sleeps).toEqual([3000]);

    const second = poller.watch('b');
    expect(poller.watch('b')).toBe(second);
    await settle();
    // woken by the new task, the loop sleeps again until a may be done: b is behind it
    expect(polls).toEqual(['a@0']);
    expect(clock.sleeps).toEqual([3000, 3000]);
    clock.release();
    await expect(first).resolves.toMatchObject({ task_id: 'a', status: 'SUCCESS' });
    await expect(second).resolves.toMatchObject({ task_id: 'b', status: 'SUCCESS' });
    expect(polls).toEqual(['a@3000', 'b@3000'].reduce((list, poll) => [...list, poll], ['a@0']));
  });

  it('watching a task again after it settled is a new watch: a timed-out task is read anew, not rejected with the old time-out', async () => {
    const clock = fakeClock();
    let finished = false;
    const { fetcher, polls } = scripted(clock, (id) => (finished ? success(id) : running(id)));
    const poller = new TaskPoller(fetcher, { timeoutMs: 4000, now: clock.now, sleep: clock.sleep });
    await expect(poller.watch('t1')).rejects.toBeInstanceOf(WatchTimeoutError);
    const looked = polls.get('t1')?.length ?? 0;
    finished = true;
    await expect(poller.watch('t1')).resolves.toMatchObject({ task_id: 't1', status: 'SUCCESS' });
    expect(polls.get('t1')?.length).toBeGreaterThan(looked);
  });

  it('delays the first look by firstPollIn', async () => {
    const clock = fakeClock();
    const { fetcher, polls } = scripted(clock, (id) => success(id));
    const poller = new TaskPoller(fetcher, { timeoutMs: 60_000, now: clock.now, sleep: clock.sleep });
    await poller.watch('t1', 5000);
    expect(polls.get('t1')).toEqual([5000]);
  });

  it('rejects each unfinished task with WatchTimeoutError at the deadline', async () => {
    const clock = fakeClock();
    const { fetcher } = scripted(clock, (id) => running(id));
    const poller = new TaskPoller(fetcher, { timeoutMs: 4000, now: clock.now, sleep: clock.sleep });
    const error = await poller.watch('slow').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WatchTimeoutError);
    expect((error as WatchTimeoutError).taskIds).toEqual(['slow']);
  });
});
