import { defineCommand } from '../../../cli/core/define-command.js';
import { output } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'unset',
  summary: 'remove one setting from the profile (the environment, if set, then applies)',
  args: {
    '<key>': 'base_url, model, output, product_url or account',
  },
  options: {
    ...output(),
  },
  examples: ['kct config unset model', 'kct --profile school config unset output'],
  load: () => import('./run.js'),
});
