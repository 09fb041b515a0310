// Checkpoints off the request thread: a commit asks for one within DELAY_MS, run as a pool job
// (checkpoint.ts). SQLite's own, on the committing thread, stays as a backstop for a log that
// grows past BACKSTOP_PAGES meanwhile (docs/sandbox.md, "Checkpoints").
import type { Db } from './db.js';

const DELAY_MS = 200;
/** SQLite's automatic checkpoint (default 1,000 pages), raised so the pool's come first. */
export const BACKSTOP_PAGES = 10_000;

export class Checkpointer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  constructor(
    db: Db,
    private readonly run: () => Promise<unknown>,
    private readonly log?: (line: string) => void,
  ) {
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** Something was committed: a checkpoint within DELAY_MS (one at a time). */
  readonly touch = (): void => {
    if (this.timer !== undefined || this.closed) return;
    this.timer = setTimeout(this.fire, DELAY_MS);
    this.timer.unref();
  };

  private readonly fire = (): void => {
    this.timer = undefined;
    if (this.running !== undefined) {
      void this.running.then(this.touch);
      return;
    }
    this.running = this.run().then(
      () => undefined,
      // a thread that failed or was busy: the next commit asks again, the backstop covers meanwhile
      (err: unknown) => this.log?.(`checkpoint: ${(err as Error).message}`),
    ).finally(() => {
      this.running = undefined;
    });
  };

  /** No checkpoint after this; one under way is waited for. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
