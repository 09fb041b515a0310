// kct auth logout: remove the stored key of the profile. A profile that does not exist is a
// typo (exit 2, naming the ones that do); nothing is written then, or when there was no key.
import type { Context } from '../../../cli/core/context.js';
import { missingProfileError } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { fromEnv } from '../../../cli/core/environment.js';
import { out } from '../../../cli/core/io.js';
import { exporterFor } from '../../../cli/render/export.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const settings = await context.settings();
  if (!settings.profileExists) {
    // the default profile before any login is not a typo: there is just nothing to remove
    if (settings.profileSource !== 'default' || settings.knownProfiles.length > 0) throw missingProfileError(settings);
  }
  const exporter = await exporterFor(options, context);
  const { readStoredConfig } = await import('../../../cli/core/config-store.js');
  const had = Boolean(readStoredConfig(context.env).profiles?.[settings.profile]?.api_key);
  if (had) (await context.config()).setProfileValue(settings.profile, 'api_key', undefined);
  await exporter.record({ profile: settings.profile, removed: had }, () => {
    out(context.io, had ? `Removed the key of profile "${settings.profile}".` : `Profile "${settings.profile}" had no stored key.`);
  });
  if (fromEnv(context.env, 'KCT_API_KEY')) context.notice('note', 'KCT_API_KEY is still set in the environment.');
}
