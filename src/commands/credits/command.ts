import { defineCommand } from '../../cli/core/define-command.js';
import { output } from '../../cli/core/options.js';

export const command = defineCommand({
  name: 'credits',
  summary: "show the credits left on the key owner's account",
  options: {
    ...output(),
  },
  examples: ['kct credits', 'kct credits --json', 'kct credits --output ndjson >> balance-log.ndjson'],
  load: () => import('./run.js'),
});
