import { defineCommand } from '../../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'logout',
  summary: 'remove the stored key of the profile',
  examples: ['kct auth logout', 'kct auth logout --profile school'],
  load: () => import('./run.js'),
});
