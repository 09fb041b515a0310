// kct config get: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  key: z.string(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'get',
  summary: 'print one setting',
  args: [
    { syntax: '<key>', description: 'base_url, model, output, product_url or account' },
  ],
  examples: [
    'kct config get model',
  ],
  schema,
  load: () => import('./run.js'),
});
