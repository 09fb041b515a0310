// kct callbacks verify: its flags, examples and options schema; the work is in run.ts, loaded only when it runs.
import type { z } from 'zod';
import { defineCommand, type Zod } from '../../cli/define-command.js';
import { globalOptions } from '../../cli/options.js';

// built when the command runs, so listing commands never loads zod
export const schema = (z: Zod) => globalOptions(z).extend({
  id: z.string().optional(),
  timestamp: z.string().optional(),
  signature: z.string().optional(),
  body: z.string().optional(),
  secretFile: z.string().optional(),
});
export type Options = z.infer<ReturnType<typeof schema>>;

export const command = defineCommand({
  name: 'verify',
  summary: 'check a callback\'s Standard Webhooks signature (secret from KCT_WEBHOOK_SECRET or --secret-file)',
  options: [
    { flags: '--id <id>', description: 'the webhook-id header' },
    { flags: '--timestamp <seconds>', description: 'the webhook-timestamp header' },
    { flags: '--signature <sig>', description: 'the webhook-signature header' },
    { flags: '--body <file>', description: 'the raw body (default: stdin)' },
    { flags: '--secret-file <file>', description: 'file holding the secret' },
  ],
  examples: [
    'kct callbacks verify --id "$ID" --timestamp "$TS" --signature "$SIG" --body body.json',
  ],
  schema,
  load: () => import('./run.js'),
});
