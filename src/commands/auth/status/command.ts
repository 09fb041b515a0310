import { defineCommand } from '../../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'status',
  summary: 'say which key is in use (masked), where it comes from, and whether the server accepts it (scope, account)',
  examples: ['kct auth status', 'kct auth status --json'],
  load: () => import('./run.js'),
});
