import { defineCommand } from '../../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'login',
  summary: 'store an API key (asked for on a TTY, or read from stdin with --with-key) after checking it',
  options: {
    '--with-key': 'read the key from standard input (for scripts); never pass a key as an argument',
  },
  examples: [
    'kct auth login',
    'kct auth login --profile school --base-url https://api.example/v1',
    'printf %s "$API_KEY" | kct auth login --with-key',
  ],
  load: () => import('./run.js'),
});
