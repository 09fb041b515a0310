// kct cancel: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';

export const command = defineCommand({
  name: 'cancel',
  summary: 'cancel a queued or running task (one-pass and batch tasks are then never charged)',
  args: [
    { syntax: '<taskId>', description: 'task id' },
  ],
  examples: [
    'kct cancel tsk_0123abcd',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
