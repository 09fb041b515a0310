import { defineCommand } from '../../cli/core/define-command.js';

export const command = defineCommand({
  name: 'version',
  summary: "print kct's version, with the Node.js version and platform it runs on",
  examples: ['kct version', 'kct version --json'],
  load: () => import('./run.js'),
});
