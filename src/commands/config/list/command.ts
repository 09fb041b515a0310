// kct config list: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

export const command = defineCommand({
  name: 'list',
  summary: 'print every setting and where it comes from',
  examples: [
    'kct config list',
    'kct config list --json',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
