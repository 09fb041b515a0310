import { defineGroup } from '../../cli/core/define-command.js';
import { command as authLogin } from './login/command.js';
import { command as authLogout } from './logout/command.js';
import { command as authStatus } from './status/command.js';

export const command = defineGroup({
  name: 'auth',
  summary: 'store, check and remove the API key of a profile',
  examples: [
    'kct auth login --base-url https://api.example/v1',
    'echo "$KEY" | kct auth login --with-key',
    'kct auth status',
    'kct auth logout',
  ],
  subcommands: [authLogin, authStatus, authLogout],
});
