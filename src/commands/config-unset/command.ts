// kct config unset: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  key: z.string(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'unset',
  summary: 'remove one setting from the profile (the environment, if set, then applies)',
  args: [
    { syntax: '<key>', description: 'base_url, model, output, product_url or account' },
  ],
  examples: [
    'kct config unset model',
    'kct --profile school config unset output',
  ],
  schema,
  load: () => import('./run.js'),
});
