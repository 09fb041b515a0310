// kct credits: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'credits',
  summary: 'show the credits left on the key owner\'s account',
  examples: [
    'kct credits',
    'kct credits --json',
  ],
  schema,
  load: () => import('./run.js'),
});
