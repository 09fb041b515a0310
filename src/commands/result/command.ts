// kct result: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions, output, outputShape } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  taskId: z.string(),
  ...outputShape(z),
});
export type Options = z.infer<ReturnType<typeof schema>>;

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
