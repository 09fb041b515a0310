// kct auth status: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

export const command = defineCommand({
  name: 'status',
  summary: 'say which key is in use (masked), where it comes from, and whether the server accepts it (scope, account)',
  examples: [
    'kct auth status',
    'kct auth status --json',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
