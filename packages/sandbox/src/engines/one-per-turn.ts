// Work kept off long synchronous stretches: one queued function per turn of the event loop.
/**
 * Runs queued functions one per turn of the event loop (each in its own setImmediate, queued
 * from the previous one's, so requests that arrived meanwhile are read in between): with
 * `--workers 4`, four marks that would have run back to back now leave the loop three times.
 */
export class OnePerTurn {
  private readonly queue: (() => void)[] = [];
  private scheduled = false;

  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push(() => {
        try {
          resolve(work());
        } catch (err) {
          reject(err);
        }
      });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.queue.shift()!();
      this.schedule();
    });
  }
}
