// kct config unset KEY: remove one setting from the profile, so the next source (environment,
// then nothing) applies. Writes nothing when the profile or the setting does not exist.

import { UsageError } from '../../../api/errors.js';
import { checkConfigKey } from '../../../cli/core/config-keys.js';
import type { Context } from '../../../cli/core/context.js';
import { missingProfileError } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { exporterFor } from '../../../cli/render/export.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  if (options.key === 'api_key') throw new UsageError('the API key is removed with `kct auth logout`');
  const key = checkConfigKey(options.key);
  const settings = await context.settings();
  if (!settings.profileExists) throw missingProfileError(settings);
  const { readStoredConfig } = await import('../../../cli/core/config-store.js');
  const had = readStoredConfig(context.env).profiles?.[settings.profile]?.[key];
  if (had !== undefined) (await context.config()).setProfileValue(settings.profile, key, undefined);
  // in the format that applies once the setting is gone, so a bad output setting can be removed
  await (await exporterFor(options, context)).record({ profile: settings.profile, key, removed: had !== undefined }, () => {
    out(
      context.io,
      had !== undefined
        ? `Removed ${key} from profile "${settings.profile}".`
        : `${key} was not set in profile "${settings.profile}"; nothing changed.`,
    );
  });
}
