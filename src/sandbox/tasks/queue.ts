// The in-process worker pool: up to `workers` tasks at once, oldest first. The database is the
// queue, so a restart simply finds the unfinished tasks again.
import type { Store } from '../store/store.js';

export type TaskRunner = (taskId: string, signal: AbortSignal) => Promise<void>;

export class WorkerPool {
  private readonly running = new Map<string, Promise<void>>();
  /** One controller per running task: interrupt() aborts one, close() all of them. */
  private readonly interrupts = new Map<string, AbortController>();
  /** Tasks whose runner threw even after trying to fail them: never picked again this run. */
  private readonly stuck = new Set<string>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly workers: number,
    private readonly runner: TaskRunner,
    private readonly log?: (line: string) => void,
  ) {}

  /** Fills free worker slots; call after anything that may have made a task runnable. */
  kick(): void {
    if (this.closed) return;
    if (this.running.size >= this.workers) return;
    const candidates = this.store.runnableTaskIds(this.workers + this.running.size + this.stuck.size);
    for (const taskId of candidates) {
      if (this.running.size >= this.workers) break;
      if (this.running.has(taskId) || this.stuck.has(taskId)) continue;
      this.running.set(taskId, this.start(taskId));
    }
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
