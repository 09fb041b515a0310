// kct credits: the balance. A person gets the number (and a balance of an unknown shape is an
// unknown answer, exit 1: most likely a wrong base URL); a script asking for JSON gets the record
// as received, since the spec leaves its fields open, with a warning when no count is recognised.
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { out } from '../../cli/core/io.js';
import { exporterFor } from '../../cli/render/export.js';
import { formatNumber } from '../../cli/render/style.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const exporter = await exporterFor(options, context);
  const client = await context.client();
  if (exporter.format !== 'table') {
    const { record, credits } = await client.creditsRecord({ signal: context.signal });
    if (credits === undefined) {
      context.notice(
        'warning',
        `the balance from ${client.baseUrl} has no credit count kct recognises (credits, available, balance, remaining); it is printed as received`,
      );
    }
    await exporter.record(typeof record === 'object' && record !== null ? record : { value: record }, () => {});
    return;
  }
  const credits = await client.credits({ signal: context.signal });
  const extra =
    typeof credits.reserved === 'number' && credits.reserved > 0 ? ` (${formatNumber(credits.reserved)} reserved by unfinished tasks)` : '';
  out(context.io, `${formatNumber(credits.credits)} credits${extra}`);
}
