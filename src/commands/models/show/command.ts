// kct models show: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

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
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
