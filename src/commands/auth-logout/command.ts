// kct auth logout: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

export const schema = globalOptions.extend({});
export type Options = z.infer<typeof schema>;

export const command = defineCommand({
  name: 'logout',
  summary: 'remove the stored key of the profile',
  examples: [
    'kct auth logout',
    'kct auth logout --profile school',
  ],
  schema,
  load: () => import('./run.js'),
});
