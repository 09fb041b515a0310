import { defineCommand } from '../../cli/core/define-command.js';
import { output } from '../../cli/core/options.js';

export const command = defineCommand({
  name: 'version',
  summary: "print kct's version, with the Node.js version and platform it runs on",
  options: {
    ...output(),
  },
  examples: ['kct version', 'kct version --json', 'kct version --output ndjson'],
  load: () => import('./run.js'),
});
