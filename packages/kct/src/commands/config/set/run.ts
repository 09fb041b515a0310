import type { Context } from '../../../cli/context.js';
import { checkConfigKey, checkConfigValue } from '../../../cli/config-keys.js';
import { out } from '../../../cli/io.js';
import type { OptionsOf } from '../../../cli/define-command.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const key = checkConfigKey(options.key);
  const value = checkConfigValue(key, options.value);
  const settings = await context.settings();
  (await context.config()).setProfileValue(settings.profile, key, value);
  if (options.json) out(context.io, JSON.stringify({ profile: settings.profile, key, value }));
  else out(context.io, `Set ${key} = ${value} in profile "${settings.profile}".`);
}
