// kct config list: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'list',
  summary: 'print every setting and where it comes from',
  examples: [
    'kct config list',
    'kct config list --json',
  ],
  schema,
  load: () => import('./run.js'),
});
