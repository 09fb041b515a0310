// kct auth login: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

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
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
