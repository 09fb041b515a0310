// kct config set: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  key: z.string(),
  value: z.string(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'set',
  summary: 'change one setting of the profile',
  args: [
    { syntax: '<key>', description: 'base_url, model, output, product_url or account' },
    { syntax: '<value>', description: 'new value' },
  ],
  examples: [
    'kct config set base_url http://127.0.0.1:4010/v1',
    'kct config set output json',
    'kct --profile school config set model 21',
  ],
  schema,
  load: () => import('./run.js'),
});
