import { defineGroup } from '../../cli/core/define-command.js';
import { command as callbacksListen } from './listen/command.js';
import { command as callbacksVerify } from './verify/command.js';

export const command = defineGroup({
  name: 'callbacks',
  summary: 'tools for batch callbacks: verify one, or listen for them locally',
  examples: [
    'KCT_WEBHOOK_SECRET=whsec_... kct callbacks verify --id msg_1 --timestamp 1700000000 --signature "v1,..." < body.json',
    'KCT_WEBHOOK_SECRET=whsec_... kct callbacks listen --port 8080',
  ],
  subcommands: [callbacksVerify, callbacksListen],
});
