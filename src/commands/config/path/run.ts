import { configPath } from '../../../cli/core/config-store.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { exporterFor } from '../../../cli/render/export.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const path = configPath(context.env);
  await (await exporterFor(options, context)).record({ path }, () => out(context.io, path));
}
