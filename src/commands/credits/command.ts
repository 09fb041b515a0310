import { defineCommand } from '../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'credits',
  summary: "show the credits left on the key owner's account",
  examples: ['kct credits', 'kct credits --json'],
  load: () => import('./run.js'),
});
