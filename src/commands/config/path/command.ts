import { defineCommand } from '../../../cli/core/define-command.js';
import { output } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'path',
  summary: 'print the config file path',
  options: {
    ...output(),
  },
  examples: ['kct config path', 'kct config path --output json'],
  load: () => import('./run.js'),
});
