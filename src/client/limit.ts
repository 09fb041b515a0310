// How many things run at once: one counting semaphore, used both to run jobs (limiter) and by a
// loop that must not build its next piece of work before a slot is free (slots).

export interface Slots {
  /** Resolves with the slot's release once one is free; a freed slot passes straight to the next waiter. */
  take(): Promise<() => void>;
  /** Resolves once every slot is free. */
  idle(): Promise<void>;
}

export function slots(max: number): Slots {
  let active = 0;
  const waiting: (() => void)[] = [];
  let idle: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) return next();
    active -= 1;
    if (active === 0) {
      const done = idle;
      idle = [];
      for (const resolve of done) resolve();
    }
  };
  return {
    async take() {
      if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      else active += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
    idle: () => (active === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))),
  };
}

/** Runs at most `max` of the given jobs at once. */
export function limiter(max: number): <T>(job: () => Promise<T>) => Promise<T> {
  const running = slots(max);
  return async <T>(job: () => Promise<T>): Promise<T> => {
    const release = await running.take();
    try {
      return await job();
    } finally {
      release();
    }
  };
}
