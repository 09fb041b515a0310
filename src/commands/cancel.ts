import type { Context } from '../cli/context.js';
import { out } from '../cli/io.js';
import { plural } from '../cli/render/style.js';

export interface CancelOptions {
  taskId: string;
  json?: boolean;
}

export async function run(options: CancelOptions, context: Context): Promise<void> {
  const client = await context.client();
  const task = await client.cancel(options.taskId, { signal: context.signal });
  if (options.json) {
    out(context.io, JSON.stringify(task, null, 2));
    return;
  }
  const charged = typeof task.credits_charged === 'number' ? task.credits_charged : undefined;
  // the legacy path charges at acceptance and keeps the charge; one-pass and batch never charge a cancelled task
  const billing = charged === undefined ? '' : charged === 0 ? '; no credits are charged for it' : `; ${plural(charged, 'credit')} charged at acceptance stay charged`;
  out(context.io, `Cancelled ${options.taskId}${task.status ? ` (status ${String(task.status)})` : ''}${billing}.`);
}
