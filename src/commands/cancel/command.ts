// kct cancel: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  taskId: z.string(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'cancel',
  summary: 'cancel a queued or running task (one-pass and batch tasks are then never charged)',
  args: [
    { syntax: '<taskId>', description: 'task id' },
  ],
  examples: [
    'kct cancel tsk_0123abcd',
  ],
  schema,
  load: () => import('./run.js'),
});
