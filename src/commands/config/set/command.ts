// kct config set: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

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
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
