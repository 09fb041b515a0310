import { defineCommand } from '../../../cli/core/define-command.js';
import { output } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'set',
  summary: 'change one setting of the profile',
  args: {
    '<key>': 'base_url, model, output, product_url or account (or key=value, as npm config takes it)',
    '[value]': 'new value',
  },
  options: {
    ...output(),
  },
  examples: ['kct config set base_url http://127.0.0.1:4010/v1', 'kct config set output json', 'kct --profile school config set model 21'],
  load: () => import('./run.js'),
});
