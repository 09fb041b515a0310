// kct auth logout: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

export const command = defineCommand({
  name: 'logout',
  summary: 'remove the stored key of the profile',
  examples: [
    'kct auth logout',
    'kct auth logout --profile school',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
