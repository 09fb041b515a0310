// kct doctor: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../cli/define-command.js';

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
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
