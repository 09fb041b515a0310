import { UsageError } from '../../../api/errors.js';
import { checkConfigKey, checkConfigValue } from '../../../cli/core/config-keys.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { exporterFor } from '../../../cli/render/export.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  // `kct config set model=12`, as npm's config takes it, is `kct config set model 12`
  const equals = options.value === undefined ? options.key.indexOf('=') : -1;
  const [typedKey, typedValue] = equals >= 0 ? [options.key.slice(0, equals), options.key.slice(equals + 1)] : [options.key, options.value];
  const key = checkConfigKey(typedKey);
  if (typedValue === undefined)
    throw new UsageError(`no value given for ${key}`, { suggestion: `Give it after the key: kct config set ${key} <value>.` });
  const value = checkConfigValue(key, typedValue);
  const settings = await context.settings();
  (await context.config()).setProfileValue(settings.profile, key, value);
  // in the format that applies once it is set (`kct config set output table` mends a bad one)
  await (await exporterFor(options, context)).record({ profile: settings.profile, key, value }, () =>
    out(context.io, `Set ${key} = ${value} in profile "${settings.profile}".`),
  );
}
