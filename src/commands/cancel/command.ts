import { defineCommand } from '../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'cancel',
  summary: 'cancel a queued or running task (one-pass and batch tasks are then never charged)',
  args: {
    '<taskId>': 'task id',
  },
  examples: ['kct cancel tsk_0123abcd'],
  load: () => import('./run.js'),
});
