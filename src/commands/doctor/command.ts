import { defineCommand } from '../../cli/core/define-command.js';
import { parseDuration } from '../../cli/core/duration.js';
import { output } from '../../cli/core/options.js';
import { checked, parseModelId } from '../../cli/core/parse.js';

export const command = defineCommand({
  name: 'doctor',
  summary:
    "check, in order, the configuration, the key, the base URL, the key's access, its models and the default model (a CI smoke check)",
  options: {
    '--mark <model>': {
      description: 'also mark a short built-in sample with this model and check it succeeds with a score (charged like any answer)',
      check: checked((value, flag) => parseModelId(value, flag), '--mark'),
    },
    '--timeout <duration>': {
      description: 'time limit for --mark to finish',
      defaultValue: '5m',
      check: checked(parseDuration, '--timeout'),
    },
    ...output(),
  },
  examples: [
    'kct doctor',
    'kct doctor --json',
    'kct doctor --output csv',
    'kct doctor --mark 12',
    'KCT_API_KEY=$KEY KCT_BASE_URL=https://api.example/v1 kct doctor --mark 12 --json',
    'KCT_REQUEST_TIMEOUT=15s kct doctor              # a server that never answers fails in seconds, not minutes',
  ],
  load: () => import('./run.js'),
});
