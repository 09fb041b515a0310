// The progress of kct batch while its batches are marked: one place for what a teacher sees of them.
import type { StatusSnapshot } from '../../api/schemas.js';
import { isMarked } from '../../api/status.js';
import type { Context } from '../../cli/core/context.js';
import { startSpinner } from '../../cli/core/watch.js';
import type { AnswerOutcome } from '../../cli/render/outcome.js';
import { describeSnapshot } from '../../cli/render/snapshot.js';
import { plural } from '../../cli/render/style.js';

export interface BatchProgress {
  update(snapshot: StatusSnapshot, changed: boolean): void;
  warn(text: string): void;
  finished(taskId: string, outcomes: AnswerOutcome[]): void;
  stop(): void;
}

/**
 * Progress while batches are marked, as one-pass shows it: on a terminal a spinner with the items
 * marked, not marked and still to come (exact once a batch ends; meanwhile the service's own
 * account of the running batch); off a terminal one line per change on stderr.
 */
export async function batchProgress(context: Context, taskIds: string[], total: number): Promise<BatchProgress> {
  const counts = { marked: 0, failed: 0 };
  const latest = new Map<string, string>();
  const name = (id: string) => (taskIds.length === 1 ? `batch ${id}` : `batch ${taskIds.indexOf(id) + 1}/${taskIds.length} ${id}`);
  const line = () => {
    const running = [...latest].filter(([id]) => taskIds.includes(id)).map(([id, text]) => `${name(id)}: ${text}`);
    return [
      `marking ${plural(total, 'item')}: ${counts.marked} marked, ${counts.failed} not marked, ${total - counts.marked - counts.failed} queued or running`,
      ...running.slice(0, 1),
    ].join(' · ');
  };
  const spinner = await startSpinner(context.io, line());
  return {
    update(snapshot, changed) {
      const id = snapshot.task_id ?? '';
      latest.set(id, describeSnapshot(snapshot));
      if (spinner) spinner.text(line());
      else if (changed) context.notice('progress', `${name(id)} ${describeSnapshot(snapshot)}`);
    },
    warn(text) {
      if (spinner) spinner.warn(text);
      else context.notice('progress', text);
    },
    finished(taskId, outcomes) {
      latest.delete(taskId);
      for (const outcome of outcomes) counts[isMarked(outcome) ? 'marked' : 'failed'] += 1;
      if (spinner) spinner.text(line());
      else context.notice('progress', `${name(taskId)} finished: ${line()}`);
    },
    stop: () => spinner?.stop(),
  };
}
