import { defineCommand } from '../../../cli/core/define-command.js';
import { output, signInOptions } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'list',
  summary: "list the account's keys, masked (kct_****abcd), with scope, creation date and state (active or revoked)",
  options: {
    ...signInOptions,
    ...output(),
  },
  examples: [
    'kct keys list --account user',
    'KCT_ACCOUNT=org_admin kct keys list --output csv',
    'printf %s "$PASSWORD" | kct keys list --account user --password-stdin --json',
  ],
  load: () => import('./run.js'),
});
