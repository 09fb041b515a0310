import { defineCommand } from '../../../cli/core/define-command.js';
import { hostOption, output } from '../../../cli/core/options.js';
import { checked, parsePort, parsePositiveInteger } from '../../../cli/core/parse.js';
import { parseForward } from './checks.js';

export const command = defineCommand({
  name: 'listen',
  summary: 'receive batch callbacks on a local port, verify each signature, print the events (or forward them)',
  options: {
    '--port <port>': { description: 'port to listen on (0 picks a free one)', defaultValue: '8080', check: checked(parsePort, '--port') },
    ...hostOption,
    '--forward-to <url>': {
      description: 'also POST each verified callback, body and webhook headers unchanged, to this URL',
      check: checked(parseForward, '--forward-to'),
    },
    '--secret-file <file>': 'file holding the secret (default: KCT_WEBHOOK_SECRET)',
    '--count <n>': {
      description: 'stop after this many events handled (printed, and taken by the --forward-to URL); repeats do not count',
      check: checked(parsePositiveInteger, '--count'),
    },
    ...output(),
  },
  examples: [
    'KCT_WEBHOOK_SECRET=whsec_... kct callbacks listen --port 8080',
    'kct callbacks listen --port 8080 --forward-to http://127.0.0.1:3000/hooks/kct --secret-file secret.txt',
    'kct callbacks listen --port 8080 --count 1 --json > event.json',
    'kct callbacks listen --port 8080 --output csv > events.csv',
  ],
  load: () => import('./run.js'),
});
