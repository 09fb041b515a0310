import { defineCommand } from '../../../cli/core/define-command.js';
import { output } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'verify',
  summary: "check a callback's Standard Webhooks signature (secret from KCT_WEBHOOK_SECRET or --secret-file)",
  options: {
    '--id <id>': 'the webhook-id header',
    '--timestamp <seconds>': 'the webhook-timestamp header',
    '--signature <sig>': 'the webhook-signature header',
    '--body <file>': 'the raw body (default: stdin)',
    '--secret-file <file>': 'file holding the secret',
    ...output(),
  },
  examples: ['kct callbacks verify --id "$ID" --timestamp "$TS" --signature "$SIG" --body body.json'],
  load: () => import('./run.js'),
});
