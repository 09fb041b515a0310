import { defineCommand } from '../../cli/core/define-command.js';
import { output, watchOptions } from '../../cli/core/options.js';

export const command = defineCommand({
  name: 'status',
  summary: "show a task's status snapshot (exit 3 if it ended FAILURE or CANCEL); --watch polls until it is final",
  args: {
    '<taskId>': 'task id',
  },
  options: {
    '-w, --watch': 'poll until the task is final (exit 8 if --timeout runs out first)',
    ...watchOptions,
    ...output(),
  },
  examples: [
    'kct status tsk_0123abcd',
    'kct status tsk_0123abcd --watch',
    'kct status tsk_0123abcd --watch --timeout 5m --json',
    'kct status tsk_0123abcd --output ndjson',
  ],
  load: () => import('./run.js'),
});
