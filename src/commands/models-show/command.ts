// kct models show: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  id: z.string(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'show',
  summary: 'show one model (from GET /models) with every field the service sent',
  args: [
    { syntax: '<id>', description: 'model id from `kct models`' },
  ],
  examples: [
    'kct models show 12',
    'kct models show 1001 --json',
  ],
  schema,
  load: () => import('./run.js'),
});
