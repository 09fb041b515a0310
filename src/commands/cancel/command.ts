import { defineCommand } from '../../cli/core/define-command.js';
import { output } from '../../cli/core/options.js';

export const command = defineCommand({
  name: 'cancel',
  summary: 'cancel a queued or running task (one-pass and batch tasks are then never charged)',
  args: {
    '<taskId>': 'task id',
  },
  options: {
    ...output(),
  },
  examples: ['kct cancel tsk_0123abcd', 'kct cancel tsk_0123abcd --output json'],
  load: () => import('./run.js'),
});
