import { checkConfigKey, settingFor } from '../../../cli/core/config-keys.js';
import type { Context } from '../../../cli/core/context.js';
import type { OptionsOf } from '../../../cli/core/define-command.js';
import { out } from '../../../cli/core/io.js';
import { exporterFor } from '../../../cli/render/export.js';
import type { command } from './command.js';

type Options = OptionsOf<typeof command>;

export async function run(options: Options, context: Context): Promise<void> {
  const key = checkConfigKey(options.key, 'read');
  const setting = settingFor(await context.settings(), key);
  const exporter = await exporterFor(options, context);
  await exporter.record({ key, value: setting.value ?? null, source: setting.source ?? null }, () => {
    if (setting.value !== undefined) out(context.io, setting.value);
  });
}
