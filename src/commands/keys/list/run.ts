// kct keys list: the signed-in account's keys, masked, with scope, creation date and whether
// each is revoked (GET {product_base}/public_api/keys/list).
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { KEY_COLUMNS, keyRow } from '../../../cli/render/keys.js';
import { printRows, resolveFormat } from '../../../cli/render/rows.js';
import { withSession } from '../product-session.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  await withSession(context, options, async ({ client, account, settings }) => {
    const format = resolveFormat(options, settings.output);
    const keys = await client.listKeys({ signal: context.signal });
    if (format === 'table' && keys.length === 0) {
      context.note(`The account ${account} has no keys.`);
      return;
    }
    await printRows(context.io, format, keys, KEY_COLUMNS, keyRow);
  });
}
