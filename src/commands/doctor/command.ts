// kct doctor: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  mark: z.string().optional(),
  timeout: z.string(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'doctor',
  summary: 'check, in order, the configuration, the key, the base URL, the key\'s access and its models (a CI smoke check)',
  options: [
    { flags: '--mark <model>', description: 'also mark a short built-in sample with this model and check it succeeds with a score (charged like any answer)' },
    { flags: '--timeout <duration>', description: 'time limit for --mark to finish', defaultValue: '5m' },
  ],
  examples: [
    'kct doctor',
    'kct doctor --json',
    'kct doctor --mark 12',
    'KCT_API_KEY=$KEY KCT_BASE_URL=https://api.example/v1 kct doctor --mark 12 --json',
  ],
  schema,
  load: () => import('./run.js'),
});
