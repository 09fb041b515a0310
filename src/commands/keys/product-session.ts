// How `kct keys` reaches the product's key routes (docs/guides/configuration-and-keys.md, "Making keys: kct keys"): the product URL (--product-url,
// KCT_PRODUCT_URL, the profile's product_url, else the base URL without its /v1), the account
// (--account, KCT_ACCOUNT, the profile's account) and its password (--password-stdin, else
// KCT_PASSWORD, else asked on a terminal without echo: never an argument, never stored). Each
// command signs in, does its work and signs out again.
import { CredentialsError, UsageError } from '../../api/errors.js';
import { productBaseOf, type Session } from '../../api/product.js';
import { type Context, missingProfileError } from '../../cli/core/context.js';
import { fromEnv, timeoutsFromEnv } from '../../cli/core/environment.js';
import { err } from '../../cli/core/io.js';
import { cannotAsk, prompts } from '../../cli/core/prompt.js';
import type { ResolvedSettings } from '../../cli/core/settings.js';
import { commandAgain } from '../../cli/core/shell-word.js';
import { readStdinText } from '../../cli/core/stdin.js';
import { checkBaseUrl } from '../../client/base-url.js';
import type { ProductClient } from '../../client/product.js';

export interface SignInFlags {
  account?: string;
  productUrl?: string;
  passwordStdin?: boolean;
}

export interface SignedIn {
  client: ProductClient;
  session: Session;
  account: string;
  productUrl: string;
  settings: ResolvedSettings;
}

const NEVER_AN_ARGUMENT = 'never pass it as an argument: it would show in the process list and the shell history';

/** Signs in, runs `work`, and signs out again (also when `work` fails). */
export async function withSession<T>(context: Context, flags: SignInFlags, work: (signedIn: SignedIn) => Promise<T>): Promise<T> {
  const settings = await context.settings({ account: flags.account, productUrl: flags.productUrl });
  if (!settings.profileExists && settings.profileSource !== 'default') throw missingProfileError(settings);
  const productUrl = resolveProductUrl(settings);
  const account = settings.account.value?.trim();
  if (!account) {
    throw new CredentialsError('no account to sign in with', {
      suggestion:
        "Name it with --account, KCT_ACCOUNT or `kct config set account <name>` (the sandbox's accounts are printed by `kct sandbox`).",
    });
  }
  const password = await readPassword(context, flags, account, productUrl);
  await warnIfPlainHttp(context, productUrl);
  const { ProductClient } = await import('../../client/product.js');
  const client = new ProductClient({
    productUrl,
    env: context.env,
    dispatcher: context.dispatcher,
    timeouts: timeoutsFromEnv(context.env),
    debug: context.globals.debug ? (line) => err(context.io, `[debug] ${line}`) : undefined,
  });
  try {
    const session = await client.signIn(account, password, { signal: context.signal });
    try {
      return await work({ client, session, account, productUrl, settings });
    } finally {
      // Best effort: a session the server cannot close now ends on its own within the hour.
      await client.signOut({ signal: context.signal }).catch(() => undefined);
    }
  } finally {
    await client.close();
  }
}

/** The product URL as set, or the base URL without its /v1; a usage error when there is neither. */
function resolveProductUrl(settings: ResolvedSettings): string {
  const given = settings.productUrl.value;
  // checked as a base URL is (base-url.ts), before a password is asked for
  if (given !== undefined) {
    checkBaseUrl(given, `the product URL (from ${settings.productUrl.source})`, 'https://host (the key routes are under /public_api)');
    return given.replace(/\/+$/, '');
  }
  const baseUrl = settings.baseUrl.value;
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  const derived = baseUrl === undefined ? undefined : productBaseOf(baseUrl);
  if (derived === undefined) {
    const why =
      baseUrl === undefined
        ? 'no product URL and no API base URL are set'
        : `no product URL is set, and the base URL ${baseUrl} does not end in /v1 to derive it from`;
    throw new UsageError(`${why}: kct keys needs the product base the key routes live under`, {
      suggestion:
        'Pass --product-url https://host, set KCT_PRODUCT_URL or `kct config set product_url`; or set the API base URL (ending in /v1) with --base-url or KCT_BASE_URL.',
    });
  }
  return derived;
}

async function readPassword(context: Context, flags: SignInFlags, account: string, productUrl: string): Promise<string> {
  if (flags.passwordStdin) {
    const text = (await readStdinText(context.io, 'the password')).replace(/\r?\n$/, '');
    if (text.trim() === '') {
      throw new UsageError('no password on standard input (it was empty)', {
        suggestion: `Pipe it in: ${piped(context, account)} (${NEVER_AN_ARGUMENT}).`,
      });
    }
    return text;
  }
  const fromVariable = fromEnv(context.env, 'KCT_PASSWORD');
  if (fromVariable) return fromVariable;
  if (context.io.noPrompt) {
    throw cannotAsk(
      context.io,
      `cannot ask for the password of ${account}`,
      `Pipe it in with --password-stdin: ${piped(context, account)}; or set KCT_PASSWORD (${NEVER_AN_ARGUMENT}).`,
    );
  }
  const entered = await (await prompts(context, 'cancelled; nothing was changed')).secret(`Password of ${account} at ${productUrl}:`);
  if (entered === '')
    throw new UsageError('no password was entered', {
      suggestion: 'Type the password of the account at the prompt (kct sandbox prints those of its accounts).',
    });
  return entered;
}

/** The same command with the password piped in: the account it asked for named, whatever named it. */
function piped(context: Context, account: string): string {
  return `printf %s "$PASSWORD" | ${commandAgain(context.args, [['--account', account], ['--password-stdin']])}`;
}

/** A password sent in clear over a network is worth a line on stderr; to this machine it is not. */
async function warnIfPlainHttp(context: Context, productUrl: string): Promise<void> {
  const url = new URL(productUrl);
  if (url.protocol !== 'http:') return;
  const { isLoopbackHost } = await import('../../cli/core/loopback.js');
  if (!isLoopbackHost(url.hostname))
    context.notice('warning', `the password goes to ${url.host} over plain http, unencrypted; use https for anything but a local sandbox.`);
}
