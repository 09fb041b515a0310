import { defineGroup } from '../../cli/core/define-command.js';
import { command as configGet } from './get/command.js';
import { command as configList } from './list/command.js';
import { command as configPath } from './path/command.js';
import { command as configSet } from './set/command.js';
import { command as configUnset } from './unset/command.js';

export const command = defineGroup({
  name: 'config',
  summary: 'read and change settings: base_url, model, output, product_url, account',
  examples: ['kct config set model 12', 'kct config get base_url', 'kct config unset model', 'kct config list', 'kct config path'],
  subcommands: [configGet, configSet, configUnset, configList, configPath],
});
