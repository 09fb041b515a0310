// kct version: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';

export const command = defineCommand({
  name: 'version',
  summary: 'print kct\'s version, with the Node.js version and platform it runs on',
  examples: [
    'kct version',
    'kct version --json',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
