// kct auth login: check a key against GET /credits, then store it with the base URL.

import { AuthenticationError, UsageError } from '../../../api/errors.js';
import { probeApi } from '../../../cli/core/api-probe.js';
import { saveKeyProfile } from '../../../cli/core/config-store.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { fromEnv } from '../../../cli/core/environment.js';
import { out } from '../../../cli/core/io.js';
import { cannotAsk, prompts } from '../../../cli/core/prompt.js';
import { readStdinText } from '../../../cli/core/stdin.js';
import { exporterFor } from '../../../cli/render/export.js';
import { maskKey } from '../../../client/redact.js';
import { assertSendableKey } from '../../../client/sendable-key.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const settings = await context.settings();
  const baseUrl = settings.baseUrl.value;
  if (!baseUrl) {
    throw new UsageError('no API base URL to log in to', { suggestion: 'Pass --base-url https://host/v1 (or set KCT_BASE_URL).' });
  }
  // a base URL that leads elsewhere (a missing /v1, a typo) is said before the key is pasted
  if (!options.withKey && !context.io.noPrompt) await probeApi(baseUrl, context);
  const key = options.withKey ? (await readStdinText(context.io)).trim() : await promptForKey(context);
  // assertSendableKey's hint is "run kct auth login", which is what the user just did; an empty
  // key is a usage mistake (an unset variable piped in), not a rejected key
  if (!key) {
    throw new UsageError(options.withKey ? 'no API key on standard input (it was empty)' : 'no API key was entered', {
      suggestion: options.withKey
        ? 'Pipe the key in: printf %s "$KEY" | kct auth login --with-key (never pass it as an argument).'
        : 'Paste the key (kct_...) at the prompt, or pipe it in: printf %s "$KEY" | kct auth login --with-key',
    });
  }
  assertSendableKey(key);

  const client = await context.client({}, { apiKey: key });
  const credits = await client.credits({ signal: context.signal }).catch((error: unknown) => {
    // the key being logged in with was refused: nothing was stored, and running this again with the same key would not help
    if (error instanceof AuthenticationError)
      throw error.retold(`the service refused this key: ${error.message}`, {
        suggestion:
          'Nothing was stored. Copy the key again from where it was created (a sandbox prints its keys at start; `kct keys list` shows yours), then log in with it.',
      });
    throw error;
  });
  const store = await context.config();
  saveKeyProfile(store, settings.profile, key, baseUrl);

  const report = { profile: settings.profile, base_url: baseUrl, key: maskKey(key), credits: credits.credits };
  await (await exporterFor(options, context)).record(report, () => {
    out(context.io, `Logged in: profile "${settings.profile}", ${baseUrl}, key ${maskKey(key)}, ${credits.credits} credits.`);
  });
  if (fromEnv(context.env, 'KCT_API_KEY'))
    context.notice('note', 'KCT_API_KEY is set in the environment and takes precedence over the stored key.');
}

async function promptForKey(context: Context): Promise<string> {
  if (context.io.noPrompt) {
    throw cannotAsk(
      context.io,
      'cannot ask for the key',
      'Without a terminal, pipe the key in with --with-key: printf %s "$KEY" | kct auth login --with-key (never pass it as an argument).',
    );
  }
  return (await (await prompts(context, 'cancelled; no key was stored')).secret('API key (kct_...):')).trim();
}
