// kct auth status: which key is in use (masked) and where it comes from, then, as gh auth status
// does, whether the server accepts it (GET /credits), and its scope and account when the server says.
import { ApiError, AuthenticationError, ConnectionError, CredentialsError, PermissionError, UsageError } from '../../../api/errors.js';
import { describeOwner, type KeyOwner, keyOwner } from '../../../cli/core/account.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { exporterFor } from '../../../cli/render/export.js';
import { formatNumber } from '../../../cli/render/style.js';
import { maskKey } from '../../../client/redact.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

interface ServerCheck extends KeyOwner {
  accepted: boolean;
  credits?: number;
  /** Why the check could not say yes: the server's message, or why it was not reached. */
  error?: string;
  status?: number;
}

export async function run(options: Options, context: Context): Promise<void> {
  const settings = await context.settings();
  const key = settings.apiKey.value;
  const local = {
    profile: settings.profile,
    profile_source: settings.profileSource,
    key: key ? maskKey(key) : null,
    key_source: settings.apiKey.source ?? null,
    base_url: settings.baseUrl.value ?? null,
    base_url_source: settings.baseUrl.source ?? null,
  };
  let server: ServerCheck | undefined;
  let failure: unknown;
  if (key && local.base_url) {
    try {
      const client = await context.client();
      const credits = await client.credits({ signal: context.signal });
      server = { accepted: true, credits: credits.credits, ...keyOwner(credits) };
    } catch (error) {
      failure = error;
      server = { accepted: false, error: (error as Error).message, ...(error instanceof ApiError ? { status: error.status } : {}) };
    }
  }
  await (await exporterFor(options, context)).record({ ...local, server: server ?? null }, () => {
    out(context.io, `Profile:  ${local.profile} (from ${local.profile_source})`);
    out(context.io, `Key:      ${local.key ?? 'none'}${local.key_source ? ` (from ${local.key_source})` : ''}`);
    out(context.io, `Base URL: ${local.base_url ?? 'none'}${local.base_url_source ? ` (from ${local.base_url_source})` : ''}`);
    if (server) out(context.io, `Server:   ${serverLine(server, failure)}`);
  });
  if (!key) throw new CredentialsError('not logged in', { suggestion: 'Run `kct auth login`, or set KCT_API_KEY.' });
  if (!local.base_url) {
    throw new UsageError('the key cannot be checked: no API base URL is set', {
      suggestion: 'Run `kct auth login --base-url <url>`, set KCT_BASE_URL, or pass --base-url.',
    });
  }
  if (failure !== undefined) throw failure;
}

function serverLine(server: ServerCheck, failure: unknown): string {
  if (server.accepted) return `key accepted; ${describeOwner(server)}; ${formatNumber(server.credits)} credits`;
  if (failure instanceof AuthenticationError || failure instanceof PermissionError) return `key refused (HTTP ${failure.status})`;
  if (failure instanceof ConnectionError) return 'not reachable';
  return 'could not check the key';
}
