// kct keys list: the signed-in account's keys, masked, with scope, creation date and whether
// each is revoked (GET {product_base}/public_api/keys/list).
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { exporterFor } from '../../../cli/render/export.js';
import { KEY_COLUMNS, keyRow } from '../../../cli/render/keys.js';
import { withSession } from '../product-session.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const exporter = await exporterFor(options, context);
  await withSession(context, options, async ({ client, account }) => {
    const keys = await client.listKeys({ signal: context.signal });
    await exporter.list(keys, KEY_COLUMNS, { record: keyRow, empty: `The account ${account} has no keys.` });
  });
}
