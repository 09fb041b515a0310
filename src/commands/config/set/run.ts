import { checkConfigKey, checkConfigValue } from '../../../cli/core/config-keys.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { exporterFor } from '../../../cli/render/export.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const key = checkConfigKey(options.key);
  const value = checkConfigValue(key, options.value);
  const settings = await context.settings();
  (await context.config()).setProfileValue(settings.profile, key, value);
  // in the format that applies once it is set (`kct config set output table` mends a bad one)
  await (await exporterFor(options, context)).record({ profile: settings.profile, key, value }, () =>
    out(context.io, `Set ${key} = ${value} in profile "${settings.profile}".`),
  );
}
