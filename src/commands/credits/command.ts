// kct credits: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';

export const command = defineCommand({
  name: 'credits',
  summary: 'show the credits left on the key owner\'s account',
  examples: [
    'kct credits',
    'kct credits --json',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
