import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { out } from '../../cli/core/io.js';
import { exporterFor } from '../../cli/render/export.js';
import { plural } from '../../cli/render/style.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const exporter = await exporterFor(options, context);
  const client = await context.client();
  const task = await client.cancel(options.taskId, { signal: context.signal });
  await exporter.record(task, () =>
    out(context.io, `Cancelled ${options.taskId}${task.status ? ` (status ${String(task.status)})` : ''}${billingNote(task)}.`),
  );
}

/**
 * What the cancel costs, by path: the legacy path charged at acceptance and keeps it; a batch's
 * items are charged as each succeeds (those already marked stay charged, the rest never are);
 * a one-pass task is charged only on success, so a cancelled one never is.
 */
function billingNote(task: Record<string, unknown>): string {
  const charged = typeof task.credits_charged === 'number' ? task.credits_charged : undefined;
  if (charged === undefined) return '';
  if (typeof task.count === 'number') {
    return charged === 0
      ? '; none of its items was charged'
      : `; ${plural(charged, 'credit')} for the items marked before the cancel ${charged === 1 ? 'stays' : 'stay'} charged, the others are never charged`;
  }
  if (charged === 0) return '; no credits are charged for it';
  return `; ${plural(charged, 'credit')} charged at acceptance ${charged === 1 ? 'stays' : 'stay'} charged`;
}
