// kct auth status: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'status',
  summary: 'say which key is in use (masked), where it comes from, and whether the server accepts it (scope, account)',
  examples: [
    'kct auth status',
    'kct auth status --json',
  ],
  schema,
  load: () => import('./run.js'),
});
