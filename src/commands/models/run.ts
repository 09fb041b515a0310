import type { Model } from '../../api/schemas.js';
import type { Context } from '../../cli/core/context.js';
import type { OptionsOf } from '../../cli/core/define-command.js';
import { exporterFor } from '../../cli/render/export.js';
import type { Column } from '../../cli/render/rows.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

const COLUMNS: Column<Model>[] = [
  { name: 'model_id', header: 'ID', value: (m) => m.model_id },
  { name: 'assignment_name', header: 'Name', value: (m) => m.assignment_name, wrap: true },
  { name: 'post_status', header: 'Status', value: (m) => m.post_status },
  { name: 'total_score', header: 'Total', value: (m) => m.total_score },
  { name: 'cum_method', header: 'Method', value: (m) => m.cum_method },
  { name: 'criteria_count', header: 'Criteria', value: (m) => m.criteria_count },
];

export async function run(options: Options, context: Context): Promise<void> {
  const exporter = await exporterFor(options, context);
  const client = await context.client();
  let models = await client.models({ signal: context.signal });
  if (options.ready) models = models.filter((model) => model.post_status === 'ready');
  await exporter.list(models, COLUMNS, { empty: options.ready ? 'No ready models for this key.' : 'No models for this key.' });
}
