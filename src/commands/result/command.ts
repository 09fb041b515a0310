// kct result: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';
import { output } from '../../cli/options.js';

export const command = defineCommand({
  name: 'result',
  summary: 'print a task\'s result record (scores and feedback), or a batch\'s items; exit 3 if any ended FAILURE or CANCEL',
  args: [
    { syntax: '<taskId>', description: 'task id, or the id of a batch (one row per item)' },
  ],
  options: [
    output(),
  ],
  examples: [
    'kct result tsk_0123abcd',
    'kct result tsk_0123abcd --json > result.json',
    'kct result <batch task id> --output csv > marks.csv',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
