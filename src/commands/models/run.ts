import type { Model } from '../../api/schemas.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { type Column, printRows, resolveFormat } from '../../cli/render/rows.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

const COLUMNS: Column<Model>[] = [
  { header: 'ID', value: (m) => m.model_id },
  { header: 'Name', value: (m) => m.assignment_name, wrap: true },
  { header: 'Status', value: (m) => m.post_status },
  { header: 'Total', value: (m) => m.total_score },
  { header: 'Method', value: (m) => m.cum_method },
  { header: 'Criteria', value: (m) => m.criteria_count },
];

export async function run(options: Options, context: Context): Promise<void> {
  const settings = await context.settings();
  const client = await context.client();
  let models = await client.models({ signal: context.signal });
  if (options.ready) models = models.filter((model) => model.post_status === 'ready');
  const format = resolveFormat(options, settings.output);
  if (format === 'table' && models.length === 0) {
    context.note(options.ready ? 'No ready models for this key.' : 'No models for this key.');
    return;
  }
  await printRows(context.io, format, models, COLUMNS);
}
