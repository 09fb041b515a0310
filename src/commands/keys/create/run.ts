// kct keys create: a new key of the signed-in account (POST {product_base}/public_api/keys/create),
// shown once on stdout, or stored straight into a profile with --save-as (only its masked form is
// printed then). Nothing is created when --save-as names a profile that already holds a key.

import { KctError, UsageError } from '../../../api/errors.js';
import type { CreatedKey } from '../../../api/product.js';
import { saveKeyProfile } from '../../../cli/core/config-store.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { exporterFor } from '../../../cli/render/export.js';
import { describeKey, keyRow } from '../../../cli/render/keys.js';
import type { ProductClient } from '../../../client/product.js';
import { withSession } from '../product-session.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const exporter = await exporterFor(options, context);
  const target = options.saveAs === undefined ? undefined : await checkProfileTarget(context, options.saveAs);
  await withSession(context, options, async ({ client, account }) => {
    const created = await client.createKey(
      { scope: options.scope, ...(options.name === undefined ? {} : { name: options.name }) },
      { signal: context.signal },
    );
    if (target === undefined) {
      // stdout holds the key alone, so `KEY=$(kct keys create --scope user)` works
      await exporter.record(created, () => out(context.io, created.key));
      context.notice(
        'info',
        `Created ${describeKey(created)} for ${account}. This is the only time the key is shown: store it now (or create one with --save-as PROFILE).`,
      );
      return;
    }
    await saveToProfile(context, client, created, target);
    await exporter.record({ ...keyRow(created), profile: target.profile, base_url: target.baseUrl }, () => {
      out(context.io, `Saved ${describeKey(created)} to profile "${target.profile}" (${target.baseUrl}).`);
    });
    context.notice('next', `Use it with: kct --profile ${target.profile} credits`);
  });
}

interface ProfileTarget {
  profile: string;
  baseUrl: string;
}

/** Checked before signing in, so a refusal creates nothing: a profile's key is never replaced (it is kept nowhere else). */
async function checkProfileTarget(context: Context, profile: string): Promise<ProfileTarget> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(profile)) {
    throw new UsageError(`--save-as "${profile}" is not a profile name`, {
      suggestion: 'Use letters, digits, dots, dashes and underscores, e.g. --save-as ci.',
    });
  }
  const settings = await context.settings();
  const baseUrl = settings.baseUrl.value;
  if (baseUrl === undefined) {
    throw new UsageError('--save-as stores the key with the API base URL, and none is set', {
      suggestion: 'Pass --base-url https://host/v1 (or set KCT_BASE_URL).',
    });
  }
  const store = await context.config();
  if (store.read().profiles?.[profile]?.api_key) {
    throw new UsageError(`the profile "${profile}" already holds a key; --save-as never replaces one (nothing was created)`, {
      suggestion: `Choose another profile name, or remove its key first with \`kct auth logout --profile ${profile}\`.`,
    });
  }
  return { profile, baseUrl };
}

/** Stores the key; if that fails, the key (never shown) is revoked again, so none is left that nobody has. */
async function saveToProfile(context: Context, client: ProductClient, created: CreatedKey, target: ProfileTarget): Promise<void> {
  try {
    const store = await context.config();
    saveKeyProfile(store, target.profile, created.key, target.baseUrl);
  } catch (error) {
    const undone = await client.revokeKey(created.id, { signal: context.signal }).then(
      () => true,
      () => false,
    );
    throw new KctError(
      'save_failed',
      `the new key could not be saved to profile "${target.profile}" (${(error as Error).message}); ${undone ? 'it was revoked again' : `revoking it failed too: revoke key ${created.id} with \`kct keys revoke ${created.id}\``}`,
      {
        cause: error,
        suggestion: 'Check that the config folder is writable (kct config path), then create the key again.',
      },
    );
  }
}
