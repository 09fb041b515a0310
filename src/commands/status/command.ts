// kct status: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, watchOptions, watchShape } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  taskId: z.string(),
  watch: z.boolean().optional(),
  ...watchShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'status',
  summary: 'show a task\'s status snapshot (exit 3 if it ended FAILURE or CANCEL); --watch polls until it is final',
  args: [
    { syntax: '<taskId>', description: 'task id' },
  ],
  options: [
    { flags: '-w, --watch', description: 'poll until the task is final (exit 8 if --timeout runs out first)' },
    ...watchOptions,
  ],
  examples: [
    'kct status tsk_0123abcd',
    'kct status tsk_0123abcd --watch',
    'kct status tsk_0123abcd --watch --timeout 5m --json',
  ],
  schema,
  load: () => import('./run.js'),
});
