// kct auth login: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  withKey: z.boolean().optional(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'login',
  summary: 'store an API key (asked for on a TTY, or read from stdin with --with-key) after checking it',
  options: [
    { flags: '--with-key', description: 'read the key from standard input (for scripts); never pass a key as an argument' },
  ],
  examples: [
    'kct auth login',
    'kct auth login --profile school --base-url https://api.example/v1',
    'printf %s "$KCT_KEY" | kct auth login --with-key',
  ],
  schema,
  load: () => import('./run.js'),
});
