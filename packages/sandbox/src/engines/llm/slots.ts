/**
 * At most `max` jobs at once, oldest waiter first. A waiter whose signal aborts (its task was
 * cancelled) leaves the queue at once instead of holding its place until a slot frees.
 */
export class Slots {
  private active = 0;
  private readonly waiting: { start: () => void }[] = [];

  constructor(private readonly max: number) {}

  async run<T>(job: () => Promise<T>, signal: AbortSignal): Promise<T> {
    signal.throwIfAborted();
    if (this.active >= this.max) {
      await new Promise<void>((resolve, reject) => {
        const entry = {
          start: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(entry);
      });
    } else {
      this.active++;
    }
    try {
      return await job();
    } finally {
      // A freed slot passes straight to the next waiter: `active` stays as it is.
      const next = this.waiting.shift();
      if (next) next.start();
      else this.active--;
    }
  }

  /** Jobs running now (for tests and logs). */
  get running(): number {
    return this.active;
  }
}
