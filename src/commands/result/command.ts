import { defineCommand } from '../../cli/core/define-command.js';
import { output } from '../../cli/core/options.js';

export const command = defineCommand({
  name: 'result',
  summary: "print a task's result record (scores and feedback), or a batch's items; exit 3 if any ended FAILURE or CANCEL",
  args: {
    '<taskId>': 'task id, or the id of a batch (one row per item)',
  },
  options: {
    ...output(),
  },
  examples: [
    'kct result tsk_0123abcd',
    'kct result tsk_0123abcd --json > result.json',
    'kct result <batch task id> --output csv > marks.csv',
  ],
  load: () => import('./run.js'),
});
