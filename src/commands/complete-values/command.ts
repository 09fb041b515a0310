import { defineCommand } from '../../cli/core/define-command.js';

export const command = defineCommand({
  name: '__complete',
  hidden: true,
  summary: 'values for shell completion (model ids), cached briefly',
  args: {
    '<kind>': 'model-ids',
  },
  examples: ['kct __complete model-ids'],
  load: () => import('./run.js'),
});
