// kct callbacks listen: its flags, arguments and examples, from which its options are typed and checked; run.ts, loaded only when it runs, does the work.
import { defineCommand, type OptionsOf } from '../../../cli/define-command.js';

export const command = defineCommand({
  name: 'listen',
  summary: 'receive batch callbacks on a local port, verify each signature, print the events (or forward them)',
  options: [
    { flags: '--port <port>', description: 'port to listen on (0 picks a free one)', defaultValue: '8080' },
    { flags: '--host <host>', description: 'address to listen on', defaultValue: '127.0.0.1' },
    { flags: '--forward-to <url>', description: 'also POST each verified callback, body and webhook headers unchanged, to this URL' },
    { flags: '--secret-file <file>', description: 'file holding the secret (default: KCT_WEBHOOK_SECRET)' },
    { flags: '--count <n>', description: 'stop after this many verified events' },
  ],
  examples: [
    'KCT_WEBHOOK_SECRET=whsec_... kct callbacks listen --port 8080',
    'kct callbacks listen --port 8080 --forward-to http://127.0.0.1:3000/hooks/kct --secret-file secret.txt',
    'kct callbacks listen --port 8080 --count 1 --json > event.json',
  ],
  load: () => import('./run.js'),
});
export type Options = OptionsOf<typeof command>;
