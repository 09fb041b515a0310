import type { Context } from '../cli/context.js';
import { out } from '../cli/io.js';

export interface CancelOptions {
  taskId: string;
  json?: boolean;
}

export async function run(options: CancelOptions, context: Context): Promise<void> {
  const client = await context.client();
  const task = await client.cancel(options.taskId, { signal: context.signal });
  if (options.json) out(context.io, JSON.stringify(task, null, 2));
  else out(context.io, `Cancelled ${options.taskId}${task.status ? ` (status ${String(task.status)})` : ''}; no credits are charged for it.`);
}
