import { defineCommand } from '../../../cli/core/define-command.js';
import { output } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'list',
  summary: 'print every setting and where it comes from',
  options: {
    ...output(),
  },
  examples: ['kct config list', 'kct config list --json', 'kct config list --output csv'],
  load: () => import('./run.js'),
});
