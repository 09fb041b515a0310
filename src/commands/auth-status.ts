import { CredentialsError } from '../api/errors.js';
import { maskKey } from '../client/redact.js';
import type { Context } from '../cli/context.js';
import { out } from '../cli/io.js';
import { formatFor, printRecord } from '../cli/render/rows.js';

export interface AuthStatusOptions {
  json?: boolean;
}

export async function run(options: AuthStatusOptions, context: Context): Promise<void> {
  const settings = await context.settings();
  const key = settings.apiKey.value;
  const report = {
    profile: settings.profile,
    profile_source: settings.profileSource,
    key: key ? maskKey(key) : null,
    key_source: settings.apiKey.source ?? null,
    base_url: settings.baseUrl.value ?? null,
    base_url_source: settings.baseUrl.source ?? null,
  };
  await printRecord(context.io, await formatFor(options, context), report, () => {
    out(context.io, `Profile:  ${report.profile} (from ${report.profile_source})`);
    out(context.io, `Key:      ${report.key ?? 'none'}${report.key_source ? ` (from ${report.key_source})` : ''}`);
    out(context.io, `Base URL: ${report.base_url ?? 'none'}${report.base_url_source ? ` (from ${report.base_url_source})` : ''}`);
  });
  if (!key) throw new CredentialsError('not logged in', { suggestion: 'Run `kct auth login`, or set KCT_API_KEY.' });
}
