import { defineCommand } from '../../../cli/core/define-command.js';
import { output } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'show',
  summary: 'show one model (from GET /models) with every field the service sent',
  args: {
    '<id>': 'model id from `kct models`',
  },
  options: {
    ...output(),
  },
  examples: ['kct models show 12', 'kct models show 1001 --json', 'kct models show 12 --output csv'],
  load: () => import('./run.js'),
});
