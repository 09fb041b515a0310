// kct config path: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

export const schema = globalOptions.extend({});
export type Options = z.infer<typeof schema>;

export const command = defineCommand({
  name: 'path',
  summary: 'print the config file path',
  examples: [
    'kct config path',
  ],
  schema,
  load: () => import('./run.js'),
});
