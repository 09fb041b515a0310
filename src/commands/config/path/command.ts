import { defineCommand } from '../../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'path',
  summary: 'print the config file path',
  examples: ['kct config path'],
  load: () => import('./run.js'),
});
