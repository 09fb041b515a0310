// kct status: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';
import { watchOptions } from '../../cli/options.js';

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
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
