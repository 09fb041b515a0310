// kct callbacks verify: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

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
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
