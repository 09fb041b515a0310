import { defineCommand } from '../../../cli/core/define-command.js';
import { output, signInOptions } from '../../../cli/core/options.js';

export const command = defineCommand({
  name: 'create',
  summary: 'create a key and print it once (or store it straight into a profile with --save-as; only its masked form is printed)',
  options: {
    '--scope <scope>': {
      description: "user: the account's own models; organization: its organization's (organization admins only)",
      choices: ['user', 'organization'],
      required: true,
    },
    '--name <name>': 'a name to tell the key apart in `kct keys list`',
    '--save-as <profile>': 'store the key in this profile, with the base URL, instead of printing it (never replaces a stored key)',
    ...signInOptions,
    ...output(),
  },
  examples: [
    'kct keys create --scope user --name laptop --account user',
    'KEY=$(printf %s "$PASSWORD" | kct keys create --scope user --account user --password-stdin)',
    'kct keys create --scope organization --name ci --account org_admin --save-as ci && kct --profile ci credits',
    'kct keys create --scope user --account user --json | jq -r .key',
  ],
  load: () => import('./run.js'),
});
