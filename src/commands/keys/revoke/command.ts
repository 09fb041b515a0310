import { defineCommand } from '../../../cli/core/define-command.js';
import { output, signInOptions } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'revoke',
  summary: "revoke one of the account's keys: every request with it is refused from then on (asks first on a terminal)",
  args: {
    '<key>': "the key's id or its masked form (kct_****abcd), from `kct keys list`",
  },
  options: {
    '-y, --yes': 'revoke without asking (needed off a terminal)',
    ...signInOptions,
    ...output(),
  },
  examples: [
    'kct keys revoke 7 --account user',
    'kct keys revoke "kct_****3f9a" --account user',
    'printf %s "$PASSWORD" | kct keys revoke 7 --account user --password-stdin --yes',
  ],
  load: () => import('./run.js'),
});
