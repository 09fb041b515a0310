// kct version: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'version',
  summary: 'print kct\'s version, with the Node.js version and platform it runs on',
  examples: [
    'kct version',
    'kct version --json',
  ],
  schema,
  load: () => import('./run.js'),
});
