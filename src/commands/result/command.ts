// kct result: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import { z } from 'zod';
import { defineCommand } from '../../cli/define-command.js';
import { globalOptions, output, outputShape } from '../../cli/options.js';

export const schema = globalOptions.extend({
  taskId: z.string(),
  ...outputShape,
});
export type Options = z.infer<typeof schema>;

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
  schema,
  load: () => import('./run.js'),
});
