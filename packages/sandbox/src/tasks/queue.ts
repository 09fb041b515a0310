// The in-process worker pool: up to `workers` tasks at once, oldest first. The database is the
// queue, so a restart simply finds the unfinished tasks again.
import type { Store } from '../store/store.js';

/** How many runnable tasks one query reads ahead. */
const READ_AHEAD = 64;

export type TaskRunner = (taskId: string, signal: AbortSignal) => Promise<void>;

export class WorkerPool {
  private readonly running = new Map<string, Promise<void>>();
  /** One controller per running task: interrupt() aborts one, close() all of them. */
  private readonly interrupts = new Map<string, AbortController>();
  /** Tasks whose runner threw even after trying to fail them: never picked again this run. */
  private readonly stuck = new Set<string>();
  private closed = false;
  /** Runnable tasks read ahead, oldest first, how many of them are taken, and the seq of the last. */
  private ahead: string[] = [];
  private aheadAt = 0;
  private cursor = 0;

  constructor(
    private readonly store: Store,
    private readonly workers: number,
    private readonly runner: TaskRunner,
    private readonly log?: (line: string) => void,
  ) {}

  /** Fills free worker slots; call after anything that may have made a task runnable. */
  kick(): void {
    if (this.closed) return;
    while (this.running.size < this.workers) {
      const taskId = this.next();
      if (taskId === undefined) return;
      this.running.set(taskId, this.start(taskId));
    }
  }

  /**
   * The oldest runnable task not running, from a list read READ_AHEAD at a time past the last
   * one read: one query per few dozen tasks, not per task (a new task always comes after it).
   * When none is left past it, read once from the start: a stopped process may have left tasks
   * mid-way. A task read ahead and cancelled meanwhile is found final by its runner.
   */
  private next(): string | undefined {
    let taskId = this.take();
    if (taskId !== undefined) return taskId;
    const past = this.cursor;
    this.readAhead(past);
    taskId = this.take();
    if (taskId === undefined && past !== 0) {
      this.readAhead(0);
      taskId = this.take();
    }
    return taskId;
  }

  private take(): string | undefined {
    while (this.aheadAt < this.ahead.length) {
      const taskId = this.ahead[this.aheadAt++]!;
      if (!this.running.has(taskId) && !this.stuck.has(taskId)) return taskId;
    }
    return undefined;
  }

  private readAhead(afterSeq: number): void {
    // from the start, the running and stuck tasks come first: read past them
    const rows = this.store.runnableTasks(afterSeq, READ_AHEAD + (afterSeq === 0 ? this.running.size + this.stuck.size : 0));
    // a task running now is final once it ends: never handed out again from this list
    this.ahead = rows.filter((r) => !this.running.has(r[1]) && !this.stuck.has(r[1])).map((r) => r[1]);
    this.aheadAt = 0;
    this.cursor = rows.length > 0 ? rows[rows.length - 1]![0] : 0;
  }

  private async start(taskId: string): Promise<void> {
    const own = new AbortController();
    this.interrupts.set(taskId, own);
    try {
      // Its own signal only, which close() aborts too: no AbortSignal.any() (two listeners and a
      // new signal) per task.
      await this.runner(taskId, own.signal);
    } catch (err) {
      this.stuck.add(taskId);
      this.log?.(`worker: task ${taskId} could not be processed: ${(err as Error).stack ?? String(err)}`);
    } finally {
      this.running.delete(taskId);
      this.interrupts.delete(taskId);
      // Let the caller of kick() finish before the next task starts.
      setImmediate(() => this.kick());
    }
  }

  /** Wakes the worker of a task that no longer needs one (it was cancelled), freeing its slot now. */
  interrupt(taskId: string): void {
    this.interrupts.get(taskId)?.abort();
  }

  get busy(): number {
    return this.running.size;
  }

  /** Stops taking tasks and interrupts the running ones at their next pause; their state stays as stored. */
  async close(): Promise<void> {
    this.closed = true;
    for (const own of this.interrupts.values()) own.abort();
    await Promise.allSettled([...this.running.values()]);
  }
}
