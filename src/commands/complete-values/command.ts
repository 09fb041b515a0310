// kct __complete: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';

export const command = defineCommand({
  name: '__complete',
  hidden: true,
  summary: 'values for shell completion (model ids), cached briefly',
  args: [
    { syntax: '<kind>', description: 'model-ids' },
  ],
  examples: [
    'kct __complete model-ids',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
