// Model "training": a model created with POST /models starts as `training` and becomes `ready`
// when its `ready_at` time comes (the sandbox's --training-delay after creation; 0 by default).
// The time is stored, so a sandbox stopped mid-training finishes the job when it starts again.
import type { Store } from '../store/store.js';

export const TRAINING_STATUS = 'training';
const READY_STATUS = 'ready';

export class Trainer {
  private readonly timers = new Map<number, NodeJS.Timeout | NodeJS.Immediate>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly log?: (line: string) => void,
  ) {}

  /** At start-up: models whose time has come are ready now, the others get their timer back. */
  resume(now = Date.now()): void {
    const rows = this.store
      .prepared(`SELECT model_id, ready_at FROM models WHERE post_status = '${TRAINING_STATUS}' AND ready_at IS NOT NULL`)
      .all() as { model_id: number; ready_at: number }[];
    for (const row of rows) this.schedule(row.model_id, row.ready_at, now);
  }

  /** Makes the model ready at `readyAt` (ms since the epoch). */
  schedule(modelId: number, readyAt: number, now = Date.now()): void {
    if (this.closed) return;
    const delay = Math.max(0, readyAt - now);
    const fire = () => {
      this.timers.delete(modelId);
      this.promote(modelId);
    };
    // With no delay the model is ready before the server reads its next request.
    const timer = delay === 0 ? setImmediate(fire) : setTimeout(fire, Math.min(delay, 2 ** 31 - 1));
    timer.unref();
    this.timers.set(modelId, timer);
  }

  promote(modelId: number): boolean {
    if (this.closed) return false;
    try {
      const changed = this.store
        .prepared(
          `UPDATE models SET post_status = '${READY_STATUS}' WHERE model_id = ? AND post_status = '${TRAINING_STATUS}' AND ready_at IS NOT NULL`,
        )
        .run(modelId).changes;
      return changed > 0;
    } catch (err) {
      this.log?.(`training: model ${modelId} could not be made ready: ${(err as Error).message}`);
      return false;
    }
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
    this.timers.clear();
  }
}
