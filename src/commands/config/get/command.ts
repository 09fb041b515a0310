// kct config get: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

export const command = defineCommand({
  name: 'get',
  summary: 'print one setting',
  args: [
    { syntax: '<key>', description: 'base_url, model, output, product_url or account' },
  ],
  examples: [
    'kct config get model',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
