import { defineCommand } from '../../../cli/core/define-command.js';
import { output } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'get',
  summary: 'print one setting',
  args: {
    '<key>': 'base_url, model, output, product_url or account',
  },
  options: {
    ...output(),
  },
  examples: ['kct config get model', 'kct config get output --json'],
  load: () => import('./run.js'),
});
