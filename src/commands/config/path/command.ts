// kct config path: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

export const command = defineCommand({
  name: 'path',
  summary: 'print the config file path',
  examples: [
    'kct config path',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
