import type { Context } from '../cli/context.js';
import { out } from '../cli/io.js';

export interface AuthLogoutOptions {
  json?: boolean;
}

export async function run(options: AuthLogoutOptions, context: Context): Promise<void> {
  const settings = await context.settings();
  const store = await context.config();
  const had = Boolean(store.read().profiles?.[settings.profile]?.api_key);
  store.setProfileValue(settings.profile, 'api_key', undefined);
  if (options.json) out(context.io, JSON.stringify({ profile: settings.profile, removed: had }));
  else out(context.io, had ? `Removed the key of profile "${settings.profile}".` : `Profile "${settings.profile}" had no stored key.`);
  if (context.env.KCT_API_KEY) context.note('note: KCT_API_KEY is still set in the environment.');
}
