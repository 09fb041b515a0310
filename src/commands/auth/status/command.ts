import { defineCommand } from '../../../cli/core/define-command.js';
import { output } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'status',
  summary: 'say which key is in use (masked), where it comes from, and whether the server accepts it (scope, account)',
  options: {
    ...output(),
  },
  examples: ['kct auth status', 'kct auth status --json', 'kct auth status --output csv'],
  load: () => import('./run.js'),
});
