// kct config list: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

export const schema = globalOptions.extend({});
export type Options = z.infer<typeof schema>;

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
