import type { Context } from '../cli/context.js';
import { out } from '../cli/io.js';
import { formatNumber } from '../cli/render/style.js';

export interface CreditsOptions {
  json?: boolean;
}

export async function run(options: CreditsOptions, context: Context): Promise<void> {
  const client = await context.client();
  const credits = await client.credits({ signal: context.signal });
  if (options.json) {
    out(context.io, JSON.stringify(credits, null, 2));
    return;
  }
  const extra = typeof credits.reserved === 'number' && credits.reserved > 0 ? ` (${formatNumber(credits.reserved)} reserved by unfinished tasks)` : '';
  out(context.io, `${formatNumber(credits.credits)} credits${extra}`);
}
