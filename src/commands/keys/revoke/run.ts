// kct keys revoke: revoke one of the signed-in account's keys (POST {product_base}/public_api/keys/revoke),
// named by its id or its masked form from `kct keys list`; asked on a terminal, --yes elsewhere.
// Revoking a key that is already revoked changes nothing and exits 0.
import { NoSuchItemError, UsageError } from '../../../api/errors.js';
import type { KeyRecord } from '../../../api/product.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { cannotAsk, prompts } from '../../../cli/core/prompt.js';
import { commandAgain } from '../../../cli/core/shell-word.js';
import { exporterFor } from '../../../cli/render/export.js';
import { describeKey, keyRow, shortDate } from '../../../cli/render/keys.js';
import { maskKey } from '../../../client/redact.js';
import { withSession } from '../product-session.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const wanted = parseKeyArgument(options.key);
  // before signing in: off a terminal nothing can be confirmed
  if (!options.yes && context.io.noPrompt) {
    throw cannotAsk(
      context.io,
      'not confirmed: kct asks before revoking a key, and cannot ask here',
      `Run it again with --yes: ${commandAgain(context.args, [['--yes']])}`,
    );
  }
  const exporter = await exporterFor(options, context);
  await withSession(context, options, async ({ client, account, settings }) => {
    const record = findKey(await client.listKeys({ signal: context.signal }), wanted, account);
    if (record.revoked_at) {
      await exporter.record({ ...keyRow(record), already_revoked: true }, () =>
        out(context.io, `${capitalised(describeKey(record))} was already revoked on ${shortDate(record.revoked_at)}; nothing changed.`),
      );
      return;
    }
    const inUse = settings.apiKey.value !== undefined && maskKey(settings.apiKey.value) === record.masked_key;
    if (!options.yes && !(await confirmRevoke(context, record, inUse ? settings.apiKey.source : undefined))) {
      context.notice('info', 'Nothing was revoked.');
      return;
    }
    const revoked = await client.revokeKey(record.id, { signal: context.signal });
    await exporter.record(revoked, () =>
      out(
        context.io,
        revoked.already_revoked
          ? `${capitalised(describeKey(revoked))} was already revoked on ${shortDate(revoked.revoked_at)}; nothing changed.`
          : `Revoked ${describeKey(revoked)}: every request with it is refused from now on.`,
      ),
    );
  });
}

type KeyArgument = { id: number } | { last4: string };

/** An id (`7`) or a masked key as listings show it (`kct_****abcd`, also `kct_sbx_…abcd`); never a whole key. */
export function parseKeyArgument(text: string): KeyArgument {
  const value = text.trim();
  if (/^\d{1,15}$/.test(value) && Number(value) > 0) return { id: Number(value) };
  const masked = /^kct_[A-Za-z0-9_]*[*…]+([A-Za-z0-9]{4})$/.exec(value);
  if (masked) return { last4: masked[1] };
  if (/^kct_[A-Za-z0-9_-]{12,}$/.test(value)) {
    throw new UsageError('that looks like a whole key: name it by its id or masked form instead', {
      suggestion: 'Find both with `kct keys list` (a key on the command line ends up in the shell history: revoke this one).',
    });
  }
  throw new UsageError(`"${value}" is neither a key id nor a masked key`, {
    suggestion: 'Give the id (e.g. 7) or the masked key (e.g. kct_****abcd) shown by `kct keys list`.',
  });
}

function findKey(keys: KeyRecord[], wanted: KeyArgument, account: string): KeyRecord {
  const matches = 'id' in wanted ? keys.filter((k) => k.id === wanted.id) : keys.filter((k) => k.masked_key.endsWith(wanted.last4));
  const named = 'id' in wanted ? `no key ${wanted.id}` : `no key ending in ${wanted.last4}`;
  if (matches.length === 0)
    throw new NoSuchItemError(`the account ${account} has ${named}`, { suggestion: 'List its keys with `kct keys list`.' });
  // two masked keys can share their last four characters: only an id is then unambiguous
  if (matches.length > 1) {
    throw new UsageError(
      `${matches.length} keys of ${account} end in ${(wanted as { last4: string }).last4} (ids ${matches.map((k) => k.id).join(', ')})`,
      { suggestion: 'Name the key by its id (from `kct keys list`).' },
    );
  }
  return matches[0];
}

async function confirmRevoke(context: Context, record: KeyRecord, inUseFrom: string | undefined): Promise<boolean> {
  if (inUseFrom) context.notice('note', `this is the key kct uses now (from ${inUseFrom}); commands with it will fail once it is revoked.`);
  return (await prompts(context, 'cancelled; nothing was revoked')).confirm(
    `Revoke ${describeKey(record)}, created ${shortDate(record.created_at)}? Requests with it are refused at once.`,
    false,
  );
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
