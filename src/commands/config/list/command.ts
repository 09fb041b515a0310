import { defineCommand } from '../../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'list',
  summary: 'print every setting and where it comes from',
  examples: ['kct config list', 'kct config list --json'],
  load: () => import('./run.js'),
});
