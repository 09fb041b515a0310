import { defineGroup } from '../../cli/core/define-command.js';
import { command as keysCreate } from './create/command.js';
import { command as keysList } from './list/command.js';
import { command as keysRevoke } from './revoke/command.js';

export const command = defineGroup({
  name: 'keys',
  summary: 'create, list and revoke the API keys of an account, after signing in to the product (spec 5.4)',
  examples: [
    'kct keys list --account org_admin',
    'KEY=$(kct keys create --scope user --name ci --account user)',
    'kct keys create --scope organization --account org_admin --save-as school',
    'kct keys revoke 7 --account user',
  ],
  subcommands: [keysCreate, keysList, keysRevoke],
});
